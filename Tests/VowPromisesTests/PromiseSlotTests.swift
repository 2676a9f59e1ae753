import Dispatch
import XCTest

@testable import VowPromises

/// A promise keeps its value or error in plain words (`PromiseSlot`): in place when it fits,
/// in a box when it does not. Each kind of value must come back whole, and be released with
/// the promise.
final class PromiseSlotTests: XCTestCase {
    final class Token: Sendable {}

    /// Five words: too large for the slot, so it goes in a box.
    struct Wide: Equatable, Sendable {
        var a = 1, b = 2, c = 3, d = 4
        var s = "a string long enough to live on the heap, not inside the String itself"
    }

    struct Failure: Error, Equatable {
        let tag: String
    }

    final class ClassFailure: Error, Sendable {}

    func test_valuesOfEverySizeComeBackWhole() {
        XCTAssertFalse(PromiseSlot.fitsInPlace(Wide.self))
        XCTAssertTrue(PromiseSlot.fitsInPlace(String.self))
        XCTAssertEqual(value(Promise.resolve(Wide())), Wide())
        XCTAssertEqual(value(Promise.resolve("a string long enough to live on the heap, not inline")), "a string long enough to live on the heap, not inline")
        XCTAssertEqual(value(Promise.resolve(42)), 42)
        XCTAssertNotNil(value(Promise<Void>.resolve(())))
        XCTAssertEqual(value(Promise<Int?>.resolve(nil)), .some(nil))
        XCTAssertEqual(value(Promise<Int>.resolve(1).then { _ in Wide(a: 9) }), Wide(a: 9))
    }

    /// An error is kept as `any Error`, whatever its own type: a struct wider than a word, a
    /// class, a cancellation.
    func test_errorsComeBackAsThemselves() {
        XCTAssertEqual(error(Promise<Int>.reject(Failure(tag: "wide"))) as? Failure, Failure(tag: "wide"))
        XCTAssertEqual(error(Promise<Wide>.reject(Failure(tag: "boxed value type"))) as? Failure, Failure(tag: "boxed value type"))
        let c = ClassFailure()
        XCTAssertTrue(error(Promise<String>.reject(c)) as? ClassFailure === c)
        let (p, _) = Promise<Int>.pending()
        p.cancel(reason: "stop")
        XCTAssertEqual((error(p) as? PromiseCancelledError)?.reason, "stop")
    }

    /// A promise's value, error and upstream are released with it, in place or boxed. (A
    /// pending chain holds itself, each promise its reaction and its upstream, until it settles:
    /// here it is cancelled.)
    func test_whatAPromiseHoldsIsReleasedWithIt() {
        weak var inPlace: Token?
        weak var boxed: Token?
        weak var failure: ClassFailure?
        weak var upstream: Promise<Int>?
        do {
            let t = Token()
            inPlace = t
            let u = Token()
            boxed = u
            let f = ClassFailure()
            failure = f
            let a = Promise.resolve(t)
            let b = Promise.resolve((u, 1, 2, 3))
            let c = Promise<Int>.reject(f)
            let (source, _) = Promise<Int>.pending()
            upstream = source
            let pending = source.then { $0 + 1 }
            XCTAssertTrue(value(a) === t)
            XCTAssertTrue(value(b)?.0 === u)
            XCTAssertNotNil(error(c))
            XCTAssertNotNil(upstream)
            pending.cancel()
            drain(PromiseExecutors.main)
        }
        drain(PromiseExecutors.main)
        XCTAssertNil(inPlace)
        XCTAssertNil(boxed)
        XCTAssertNil(failure)
        XCTAssertNil(upstream)
    }
}
