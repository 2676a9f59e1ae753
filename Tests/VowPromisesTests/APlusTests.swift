import Dispatch
import Synchronization
import XCTest

@testable import VowPromises

/// Promises/A+ 2.1: promise states.
final class PromiseStatesTests: XCTestCase {
    func test_2_1_1_pendingMayTransitionToFulfilledOrRejected() {
        let (p, r) = Promise<Int>.pending()
        XCTAssertTrue(p.isPending)
        XCTAssertNil(p.result)
        r.fulfill(1)
        XCTAssertFalse(p.isPending)
        XCTAssertEqual(value(p), 1)
    }

    func test_2_1_2_fulfilledMustNotTransitionOrChangeValue() {
        let (p, r) = Promise<Int>.pending()
        XCTAssertTrue(r.fulfill(1))
        XCTAssertFalse(r.fulfill(2), "a second fulfil is ignored")
        XCTAssertFalse(r.reject(TestError("late")), "a reject after fulfil is ignored")
        XCTAssertEqual(value(p), 1)
    }

    func test_2_1_3_rejectedMustNotTransitionOrChangeReason() {
        let (p, r) = Promise<Int>.pending()
        XCTAssertTrue(r.reject(TestError("first")))
        XCTAssertFalse(r.reject(TestError("second")))
        XCTAssertFalse(r.fulfill(3))
        XCTAssertEqual(error(p) as? TestError, TestError("first"))
    }

    func test_resolverInitThrowRejects() {
        let p = Promise<Int> { _ in throw TestError("thrown") }
        XCTAssertEqual(error(p) as? TestError, TestError("thrown"))
    }

    func test_resolverInitThrowAfterSettleIsIgnored() {
        let p = Promise<Int> { r in
            r.fulfill(5)
            throw TestError("after")
        }
        XCTAssertEqual(value(p), 5)
    }
}

/// Promises/A+ 2.2: the `then` method.
final class ThenTests: XCTestCase {
    func test_2_2_2_onFulfilledCalledWithValueAfterFulfil() {
        let p = Promise<Int>.resolve(41).then { $0 + 1 }
        XCTAssertEqual(value(p), 42)
    }

    func test_2_2_3_onRejectedCalledWithReason() {
        let p = Promise<Int>.reject(TestError("r")).recover { e in (e as? TestError)?.tag == "r" ? 7 : 0 }
        XCTAssertEqual(value(p), 7)
    }

    func test_2_2_4_handlersNeverRunSynchronouslyEvenWhenSettled() {
        // An executor that only runs jobs when told: a handler that ran inside `then` would
        // show up before `runAll`.
        let ex = ManualExecutor()
        let ran = Locked(false)
        let p = Promise<Int>.resolve(1, on: ex)
        let q = p.then(on: ex) { v -> Int in
            ran.withLock { $0 = true }
            return v
        }
        XCTAssertFalse(ran.withLock { $0 }, "then ran inside the call that attached it")
        ex.runAll()
        XCTAssertTrue(ran.withLock { $0 })
        XCTAssertEqual(try q.result?.get(), 1)
    }

    func test_2_2_4_handlersNeverRunSynchronouslyOnOwnExecutorEither() {
        let ex = SerialPromiseExecutor()
        let log = Log()
        let done = Promise<Int>.resolve(0, on: ex).then(on: ex) { _ -> Int in
            // Attaching from inside a job on the same executor must still defer.
            let inner = Promise<Int>.resolve(1, on: ex)
            _ = inner.then(on: ex) { v -> Int in log.add("inner"); return v }
            log.add("after-attach")
            return 0
        }
        _ = value(done)
        drain(ex)
        XCTAssertEqual(log.all, ["after-attach", "inner"])
    }

    func test_2_2_6_handlersRunInAttachmentOrder() {
        let ex = SerialPromiseExecutor()
        let (p, r) = Promise<Int>.pending(on: ex)
        let log = Log()
        var derived: [Promise<Int>] = []
        for i in 0..<50 { derived.append(p.then(on: ex) { v -> Int in log.add("h\(i)"); return v }) }
        r.fulfill(1)
        _ = value(Promise.all(derived, on: ex))
        XCTAssertEqual(log.all, (0..<50).map { "h\($0)" })
    }

    func test_2_2_6_rejectionHandlersRunInAttachmentOrder() {
        let ex = SerialPromiseExecutor()
        let (p, r) = Promise<Int>.pending(on: ex)
        let log = Log()
        var derived: [Promise<Int>] = []
        for i in 0..<20 { derived.append(p.recover(on: ex) { _ -> Int in log.add("c\(i)"); return i }) }
        r.reject(TestError("x"))
        _ = value(Promise.all(derived, on: ex))
        XCTAssertEqual(log.all, (0..<20).map { "c\($0)" })
    }

    func test_2_2_7_1_returnedValueFulfilsDerived() {
        XCTAssertEqual(value(Promise<Int>.resolve(2).then { "v\($0)" }), "v2")
    }

    func test_2_2_7_2_thrownErrorRejectsDerived() {
        let p = Promise<Int>.resolve(2).then { _ -> Int in throw TestError("bad") }
        XCTAssertEqual(error(p) as? TestError, TestError("bad"))
    }

    func test_2_2_7_3_fulfilmentPassesThroughRecover() {
        let p = Promise<Int>.resolve(3).recover { _ in 0 }
        XCTAssertEqual(value(p), 3)
    }

    func test_2_2_7_4_rejectionSkipsEveryThenUntilRecover() {
        let log = Log()
        let p = Promise<Int>.reject(TestError("boom"))
            .then { v -> Int in log.add("then1"); return v }
            .then { v -> Int in log.add("then2"); return v }
            .recover { e -> Int in log.add("catch:\(e)"); return 9 }
            .then { v -> Int in log.add("after:\(v)"); return v }
        XCTAssertEqual(value(p), 9)
        XCTAssertEqual(log.all, ["catch:boom", "after:9"])
    }

    func test_recoverThatThrowsPassesARejectionOn() {
        let p = Promise<Int>.reject(TestError("a")).recover { _ -> Int in throw TestError("b") }
        XCTAssertEqual(error(p) as? TestError, TestError("b"))
    }
}

/// Promises/A+ 2.3: the promise resolution procedure (adoption).
final class ResolutionProcedureTests: XCTestCase {
    func test_2_3_1_promiseAdoptingItselfRejectsWithCycleError() {
        let (p, r) = Promise<Int>.pending()
        r.adopt(p)
        XCTAssertTrue(error(p) is PromiseCycleError)
    }

    func test_2_3_1_handlerReturningItsOwnPromiseRejectsInsteadOfHanging() {
        let box = Locked<Promise<Int>?>(nil)
        let (gate, open) = Promise<Int>.pending()
        let p = gate.then { _ -> Promise<Int> in box.withLock { $0! } }
        box.withLock { $0 = p }
        open.fulfill(1)
        XCTAssertTrue(error(p) is PromiseCycleError)
    }

    func test_2_3_2_adoptingAPendingPromiseWaitsForIt() {
        let (inner, r) = Promise<Int>.pending()
        let p = Promise<Int>.resolve(0).then { _ in inner }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { r.fulfill(77) }
        XCTAssertEqual(value(p), 77)
    }

    func test_2_3_2_adoptingARejectedPromiseRejects() {
        let p = Promise<Int>.resolve(0).then { _ in Promise<Int>.reject(TestError("inner")) }
        XCTAssertEqual(error(p) as? TestError, TestError("inner"))
    }

    func test_2_3_2_adoptionIsFlatteningAcrossManyLevels() {
        let p = Promise<Int>.resolve(1).then { v in
            Promise<Int>.resolve(v + 1).then { w in Promise<Int>.resolve(w + 1) }
        }
        XCTAssertEqual(value(p), 3)
    }

    func test_adoptionCostsTwoExtraTurnsLikeJavaScript() {
        // JS: a.then(() => Promise.resolve()) settles two turns later than a plain value.
        // As in a JS script, everything is attached within one turn of the executor.
        let ex = SerialPromiseExecutor()
        let log = Log()
        let both = Locked<Promise<[Int]>?>(nil)
        let attached = DispatchSemaphore(value: 0)
        ex.enqueue {
            let start = Promise<Int>.resolve(0, on: ex)
            let adopting = start.then(on: ex) { _ in Promise<Int>.resolve(1, on: ex) }.then(on: ex) { v -> Int in log.add("adopted"); return v }
            let plain = start.then(on: ex) { _ -> Int in log.add("p1"); return 0 }
                .then(on: ex) { v -> Int in log.add("p2"); return v }
                .then(on: ex) { v -> Int in log.add("p3"); return v }
                .then(on: ex) { v -> Int in log.add("p4"); return v }
            both.withLock { $0 = Promise.all([adopting, plain], on: ex) }
            attached.signal()
        }
        attached.wait()
        _ = value(both.withLock { $0! })
        // Node prints: p1 p2 p3 adopted p4
        XCTAssertEqual(log.all, ["p1", "p2", "p3", "adopted", "p4"])
    }

    func test_resolverAdoptFollowsTheOtherPromise() {
        let (p, r) = Promise<String>.pending()
        r.adopt(Promise.delay(0.01, value: "later"))
        XCTAssertEqual(value(p), "later")
    }
}

/// finally and tap.
final class FinallyTapTests: XCTestCase {
    func test_finallyRunsOnFulfilAndPassesValueThrough() {
        let log = Log()
        let p = Promise<Int>.resolve(5).finally { log.add("f") }
        XCTAssertEqual(value(p), 5)
        XCTAssertEqual(log.all, ["f"])
    }

    func test_finallyRunsOnRejectAndPassesErrorThrough() {
        let log = Log()
        let p = Promise<Int>.reject(TestError("e")).finally { log.add("f") }
        XCTAssertEqual(error(p) as? TestError, TestError("e"))
        XCTAssertEqual(log.all, ["f"])
    }

    func test_finallyThatFailsReplacesTheOutcome() {
        let p = Promise<Int>.resolve(5).finally { () throws -> Void in throw TestError("cleanup") }
        XCTAssertEqual(error(p) as? TestError, TestError("cleanup"))
    }

    func test_finallyWaitsForItsReturnedPromise() {
        let log = Log()
        let p = Promise<Int>.resolve(5).finally { () -> Promise<Int> in
            Promise<Int>.delay(0.02, value: 0).then { v -> Int in log.add("cleanup done"); return v }
        }.then { v -> Int in log.add("next"); return v }
        XCTAssertEqual(value(p), 5)
        XCTAssertEqual(log.all, ["cleanup done", "next"])
    }

    func test_finallyWhosePromiseRejectsPassesThatRejection() {
        let p = Promise<Int>.resolve(5).finally { Promise<Int>.reject(TestError("late")) }
        XCTAssertEqual(error(p) as? TestError, TestError("late"))
    }

    func test_tapObservesWithoutChanging() {
        let log = Log()
        let p = Promise<Int>.resolve(8).tap { r in log.add("\(try r.get())") }
        XCTAssertEqual(value(p), 8)
        XCTAssertEqual(log.all, ["8"])
    }
}
