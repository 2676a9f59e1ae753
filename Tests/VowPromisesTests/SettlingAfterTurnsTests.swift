import Dispatch
import XCTest

@testable import VowPromises

/// `Promise.settling(_:afterTurns:on:)` settles in the turn the last of a chain of that many
/// handlers would, beside other chains, and settles at once once nothing else is ready beside
/// it, which nothing can tell apart from counting on.
final class SettlingAfterTurnsTests: XCTestCase {
    /// Beside a chain that logs each turn, a promise settling after `k` turns is seen by its
    /// handler in turn `k + 1`, before that turn's link of the chain (it was queued first): for
    /// every `k` from 1 to 8, and for a chain that ends before the count does (the turns left
    /// are then counted alone).
    func test_itSettlesInTheTurnOfTheLastHandlerOfAChain() {
        for k in 1...8 {
            for links in [k + 3, max(1, k - 2)] {
                let got = logged { ex, log in
                    _ = Promise<Int>.settling(.success(k), afterTurns: k, on: ex).then(on: ex) { v in log("s\(v)") }
                    turnChain(links, ex, log)
                }
                var expected = (1...links).map { "c\($0)" }
                expected.insert("s\(k)", at: min(k, links))
                XCTAssertEqual(got, expected, "k=\(k) links=\(links)")
            }
        }
    }

    /// A rejection settles the same way.
    func test_aRejectionSettlesInTheSameTurn() {
        let got = logged { ex, log in
            _ = Promise<Int>.settling(.failure(TestError("x")), afterTurns: 3, on: ex).recover(on: ex) { _ -> Int in log("r"); return 0 }
            turnChain(5, ex, log)
        }
        XCTAssertEqual(got, ["c1", "c2", "c3", "r", "c4", "c5"])
    }

    /// Counted alone, a long count settles before a job queued from another thread meanwhile
    /// runs, as it would counting every turn (that job waits for the thread's jobs to run out).
    func test_aJobFromAnotherThreadStillRunsAfter() {
        let got = logged { ex, log in
            _ = Promise<Int>.settling(.success(1), afterTurns: 1_000_000, on: ex).then(on: ex) { _ in log("s") }
            let queued = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                ex.enqueue { log("x") }
                queued.signal()
            }
            queued.wait()
        }
        XCTAssertEqual(got, ["s", "x"])
    }
}
