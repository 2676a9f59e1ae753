import Dispatch
import XCTest

@testable import VowPromises

/// A handler is released once it has run, or once its promise was cancelled and it is skipped:
/// what it captured does not live as long as the derived promise. An interpreter keeps the
/// promises of its stages in records that the stages' handlers capture; a handler kept after it
/// ran would hold that record, and the record the promise, forever.
final class HandlerReleaseTests: XCTestCase {
    final class Token: Sendable {}

    /// Runs `derive` with a fresh token captured by its handler, settles the source, and says
    /// whether the token was freed while the derived promise is still held.
    func tokenIsFreed(
        _ derive: (Promise<Int>, Token, SerialPromiseExecutor) -> AnyPromise, settle: (Resolver<Int>) -> Void = { $0.fulfill(1) }
    ) -> Bool {
        let ex = SerialPromiseExecutor(label: "release")
        weak var weakToken: Token?
        let (source, resolver) = Promise<Int>.pending(on: ex)
        let derived: AnyPromise
        do {
            let token = Token()
            weakToken = token
            derived = derive(source, token, ex)
        }
        settle(resolver)
        XCTAssertTrue(ex.waitUntilIdle(timeout: .seconds(5)))
        return withExtendedLifetime(derived) { weakToken == nil }
    }

    func test_thenReleasesItsHandler() {
        XCTAssertTrue(tokenIsFreed { p, token, ex in p.then(on: ex) { v in withExtendedLifetime(token) { v + 1 } } })
    }

    func test_thenResolvingReleasesItsHandler() {
        XCTAssertTrue(tokenIsFreed { p, token, ex in
            p.then(on: ex, resolving: { (v: Int) -> Resolution<Int> in withExtendedLifetime(token) { .value(v) } })
        })
    }

    func test_catchReleasesItsHandler() {
        XCTAssertTrue(tokenIsFreed(
            { p, token, ex in p.recover(on: ex) { _ in withExtendedLifetime(token) { 0 } } },
            settle: { $0.reject(TestError("x")) }))
    }

    func test_aCancelledPromiseReleasesItsHandlerWhenItIsSkipped() {
        XCTAssertTrue(tokenIsFreed { p, token, ex in
            let d = p.then(on: ex) { v in withExtendedLifetime(token) { v + 1 } }
            d.cancel(reason: "not wanted")
            return d
        })
    }

    /// A task that ran is let go of while the queue of tasks still holds others: a queue that
    /// never empties (each task queues the next while one more waits, as responses keep coming
    /// to a busy executor) kept every task it ran, and what each captured, until it emptied.
    func test_aTaskThatRanIsReleasedWhileOthersWait() {
        let ex = SerialPromiseExecutor(label: "tasks")
        let total = 3000
        let next = Locked(0)
        let heldAt2000 = Locked<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        @Sendable func schedule() {
            let i = next.withLock { n -> Int in
                defer { n += 1 }
                return n
            }
            guard i < total else { return }
            ex.enqueueTask {
                // The queue has not emptied since the start: two tasks wait at every moment.
                if i == 2000 { heldAt2000.withLock { $0 = ex.tasksHeld } }
                if i == total - 1 { done.signal() }
                schedule()
            }
        }
        schedule()
        schedule()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        let held = heldAt2000.withLock { $0 } ?? .max
        XCTAssertLessThan(held, 200, "the queue held \(held) tasks after two thousand ran, with two waiting")
    }
}
