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
}
