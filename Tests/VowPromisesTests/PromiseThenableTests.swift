import XCTest

@testable import VowPromises

/// `Promise.thenable`: a thenable that is no promise, against node 20's order. As in
/// `TurnOrderTests`, `c` is the chain `Promise.resolve().then(() => log('c1'))…`.
final class PromiseThenableTests: XCTestCase {
    func order(_ build: @escaping @Sendable (SerialPromiseExecutor, @escaping TurnOrderTests.LogFn) -> Void) -> [String] {
        logged(build)
    }

    func test_returnedByAHandlerItsThenIsCalledOneTurnLater() {
        // Promise.resolve().then(() => ({ then(r) { log('then'); r(1); } })).then(() => log('done')); c
        // node: c1 then c2 done c3 c4
        let got = order { ex, log in
            _ = Promise<Int>.resolve(0, on: ex).then(on: ex, resolving: { _ in
                .promise(Promise<Int>.thenable(on: ex, observed: false, callsNow: false) { r in log("then"); r.fulfill(1) })
            }).then(on: ex) { _ in log("done") }
            turnChain(4, ex, log)
        }
        XCTAssertEqual(got, ["c1", "then", "c2", "done", "c3", "c4"])
    }

    func test_promiseResolveOfAThenableCallsItsThenNextTurn() {
        // Promise.resolve({ then(r) { log('then'); r(1); } }).then(() => log('done')); c
        // node: then c1 done c2 c3
        let got = order { ex, log in
            _ = Promise<Int>.thenable(on: ex, observed: true, callsNow: true) { r in log("then"); r.fulfill(1) }
                .then(on: ex) { _ in log("done") }
            turnChain(3, ex, log)
        }
        XCTAssertEqual(got, ["then", "c1", "done", "c2", "c3"])
    }

    func test_waitedOnItIsResolvedAsPromiseResolveWould() {
        // A thenable not yet called, waited on by a reaction: its then is called for itself.
        let got = order { ex, log in
            _ = Promise<Int>.thenable(on: ex, observed: false, callsNow: false) { r in log("then"); r.fulfill(1) }
                .then(on: ex) { v in log("done \(v)") }
            turnChain(3, ex, log)
        }
        XCTAssertEqual(got, ["then", "c1", "done 1", "c2", "c3"])
    }

    func test_aThrowOrARejectionRejectsAndAPromiseIsAdopted() {
        let got = order { ex, log in
            _ = Promise<Int>.thenable(on: ex, observed: true, callsNow: true) { r in r.reject(TestError("no")) }
                .recover(on: ex) { _ in log("rejected"); return 0 }
            _ = Promise<Int>.thenable(on: ex, observed: true, callsNow: true) { r in r.adopt(Promise.resolve(5, on: ex)) }
                .then(on: ex) { v in log("adopted \(v)") }
            turnChain(4, ex, log)
        }
        // The rejection settles in the then's turn (c1 after); the adopted promise two turns later.
        XCTAssertEqual(got, ["c1", "rejected", "c2", "c3", "adopted 5", "c4"])
    }

    func test_aCancelledChainNeverCallsTheThen() {
        let got = order { ex, log in
            let p = Promise<Int>.thenable(on: ex, observed: true, callsNow: true) { r in log("then"); r.fulfill(1) }
            p.cancel(reason: "stop")
            turnChain(2, ex, log)
        }
        XCTAssertEqual(got, ["c1", "c2"])
    }
}
