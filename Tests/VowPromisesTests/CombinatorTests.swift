// Over 400 lines on purpose: all, race, any and settle rule by rule, each beside the others, so that
// their differences (what settles first, what is cancelled) are read side by side.
import Dispatch
import Synchronization
import XCTest

@testable import VowPromises

final class CombinatorTests: XCTestCase {
    func test_all_fulfilsWithValuesInInputOrderNotArrivalOrder() {
        let p = Promise.all([
            Promise.delay(0.05, value: 1), Promise.delay(0.01, value: 2), Promise.resolve(3),
        ])
        XCTAssertEqual(value(p), [1, 2, 3])
    }

    func test_all_emptyFulfilsWithEmptyList() {
        XCTAssertEqual(value(Promise<Int>.all([])), [])
    }

    func test_all_failsFastWithTheFirstRejectionToArrive() {
        let slow = Promise<Int>.delay(5, value: 1)
        // The late one is a second late, not 40 ms: a pause of the test's thread between the two
        // (a busy machine) must not let it arrive first.
        let p = Promise.all([slow, Promise.delay(1, value: 2).then { _ -> Int in throw TestError("late") },
                             Promise.delay(0.01, value: 3).then { _ -> Int in throw TestError("early") }])
        XCTAssertEqual(error(p) as? TestError, TestError("early"))
        XCTAssertTrue(error(slow) is PromiseCancelledError, "all cancels a sibling it no longer needs")
    }

    func test_all_keyedKeepsKeysAndOrder() {
        let p = Promise.all(keyed: [(key: "user", value: Promise.delay(0.03, value: 1)),
                                    (key: "repos", value: Promise.delay(0.01, value: 2))])
        let r = value(p)
        XCTAssertEqual(r?.map(\.key), ["user", "repos"])
        XCTAssertEqual(r?.map(\.value), [1, 2])
    }

    func test_race_firstToSettleWinsEvenARejection() {
        let p = Promise.race([Promise.delay(1, value: 1),
                              Promise<Int>.delay(0.01, value: 0).then { _ -> Int in throw TestError("fast") }])
        XCTAssertEqual(error(p) as? TestError, TestError("fast"))
    }

    func test_race_cancelsTheLosers() {
        let slow = Promise<String>.delay(5, value: "slow")
        let p = Promise.race([slow, Promise.delay(0.01, value: "fast")])
        XCTAssertEqual(value(p), "fast")
        XCTAssertTrue(error(slow) is PromiseCancelledError)
    }

    func test_cancelsOthersFalseLeavesTheOtherInputsRunning() {
        let slowAll = Promise<Int>.delay(0.05, value: 1)
        let a = Promise.all([slowAll, Promise<Int>.reject(TestError("x"))], cancelsOthers: false)
        XCTAssertEqual(error(a) as? TestError, TestError("x"))
        let slowRace = Promise<Int>.delay(0.05, value: 2)
        XCTAssertEqual(value(Promise.race([slowRace, Promise.resolve(3)], cancelsOthers: false)), 3)
        let slowAny = Promise<Int>.delay(0.05, value: 4)
        XCTAssertEqual(value(Promise.any([slowAny, Promise.resolve(5)], cancelsOthers: false)), 5)
        XCTAssertEqual(value(slowAll), 1)
        XCTAssertEqual(value(slowRace), 2)
        XCTAssertEqual(value(slowAny), 4)
    }

    func test_allMapAndSettleMap() {
        XCTAssertEqual(value(Promise.all([Promise.resolve(1), Promise.resolve(2)]) { $0.reduce(0, +) }), 3)
        XCTAssertEqual(error(Promise.all([Promise.resolve(1)]) { _ -> Int in throw TestError("map") }) as? TestError,
                       TestError("map"))
        XCTAssertEqual(value(Promise<Int>.all([]) { $0.count }), 0)
        XCTAssertEqual(value(Promise.settle([Promise<Int>.reject(TestError("a")), .resolve(2)]) { $0.count }), 2)
    }

    func test_race_emptyStaysPending() {
        let p = Promise<Int>.race([])
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertTrue(p.isPending)
    }

    func test_any_firstToFulfilWinsSkippingRejections() {
        let p = Promise.any([Promise<Int>.reject(TestError("x")), Promise.delay(0.02, value: 2), Promise.delay(1, value: 3)])
        XCTAssertEqual(value(p), 2)
    }

    func test_any_allRejectGivesAggregateInInputOrder() {
        let p = Promise.any([Promise<Int>.delay(0.03, value: 0).then { _ -> Int in throw TestError("x") },
                             Promise<Int>.reject(TestError("y"))])
        let e = error(p) as? AggregateError
        XCTAssertEqual(e?.errors.map { ($0 as? TestError)?.tag }, ["x", "y"])
    }

    func test_any_emptyRejectsWithEmptyAggregate() {
        let e = error(Promise<Int>.any([])) as? AggregateError
        XCTAssertNotNil(e)
        XCTAssertEqual(e?.errors.count, 0)
    }

    func test_settle_neverRejectsAndKeepsOrder() {
        let p = Promise.settle([Promise<Int>.reject(TestError("a")), Promise.resolve(2)])
        let r = value(p)
        XCTAssertEqual(r?.count, 2)
        XCTAssertEqual((r.map { try? $0[1].get() }) ?? nil, 2)
        if case .failure(let e) = r?[0] { XCTAssertEqual(e as? TestError, TestError("a")) } else { XCTFail("expected failure") }
    }

    func test_settle_emptyFulfilsWithEmpty() {
        XCTAssertEqual(value(Promise<Int>.settle([]))?.count, 0)
    }

    func test_delay_fulfilsAfterTheDelay() {
        let start = DispatchTime.now()
        XCTAssertEqual(value(Promise.delay(0.05, value: "d")), "d")
        XCTAssertGreaterThanOrEqual(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds, 45_000_000)
    }

    func test_timeout_rejectsAndCancelsUpstream() {
        let slow = Promise<Int>.delay(5, value: 1)
        let chained = slow.then { $0 + 1 }
        let p = chained.timeout(0.05)
        XCTAssertEqual((error(p) as? PromiseTimeoutError)?.seconds, 0.05)
        XCTAssertTrue(error(slow) is PromiseCancelledError, "the source is cancelled back up the chain")
    }

    func test_timeout_withoutCancellingLeavesUpstreamRunning() {
        let slow = Promise<Int>.delay(0.5, value: 7)
        XCTAssertTrue(error(slow.timeout(0.01, cancelsUpstream: false)) is PromiseTimeoutError)
        XCTAssertEqual(value(slow), 7)
    }

    func test_timeout_passesThroughWhenInTime() {
        XCTAssertEqual(value(Promise.delay(0.01, value: 4).timeout(2)), 4)
    }

    func test_retry_reRunsTheFactoryUntilSuccess() {
        let count = Locked(0)
        let p = Promise<Int>.retry(attempts: 5, delay: 0.001) { n in
            count.withLock { $0 += 1 }
            return n < 3 ? .reject(TestError("try \(n)")) : .resolve(n)
        }
        XCTAssertEqual(value(p), 3)
        XCTAssertEqual(count.withLock { $0 }, 3)
    }

    func test_retry_givesUpWithTheLastError() {
        let p = Promise<Int>.retry(attempts: 3, delay: 0.001) { n in .reject(TestError("try \(n)")) }
        XCTAssertEqual(error(p) as? TestError, TestError("try 3"))
    }

    func test_retry_exponentialBackoffDoublesTheWait() {
        let times = Locked<[UInt64]>([])
        let p = Promise<Int>.retry(attempts: 3, delay: 0.04, backoff: .exponential) { _ in
            times.withLock { $0.append(DispatchTime.now().uptimeNanoseconds) }
            return .reject(TestError("no"))
        }
        _ = error(p)
        let t = times.withLock { $0 }
        XCTAssertEqual(t.count, 3)
        XCTAssertGreaterThanOrEqual(t[2] - t[1], 75_000_000, "second wait is about twice the first (80ms)")
    }

    func test_retry_shouldRetryCanStopEarly() {
        let count = Locked(0)
        let p = Promise<Int>.retry(attempts: 5, shouldRetry: { _, _ in .stop }) { _ in
            count.withLock { $0 += 1 }
            return .reject(TestError("fatal"))
        }
        XCTAssertEqual(error(p) as? TestError, TestError("fatal"))
        XCTAssertEqual(count.withLock { $0 }, 1)
    }
}

final class CancellationTests: XCTestCase {
    func test_cancelRipplesBackToTheSourceAndRunsItsCancelHandler() {
        let stopped = Locked(false)
        let (source, r) = Promise<Int>.pending()
        r.onCancel { stopped.withLock { $0 = true } }
        let tail = source.then { $0 + 1 }.then { $0 * 2 }
        tail.cancel()
        XCTAssertTrue(error(tail) is PromiseCancelledError)
        XCTAssertTrue(error(source) is PromiseCancelledError)
        XCTAssertTrue(stopped.withLock { $0 })
    }

    func test_dependentsOfACancelledPromiseRejectWithCancelled() {
        let (source, _) = Promise<Int>.pending()
        let a = source.then { $0 }
        let b = a.then { $0 }
        source.cancel()
        XCTAssertTrue(error(b) is PromiseCancelledError)
    }

    func test_sharedUpstreamSurvivesUntilEveryDependentIsCancelled() {
        let (source, r) = Promise<Int>.pending()
        let a = source.then { $0 + 1 }
        let b = source.then { $0 + 2 }
        a.cancel()
        XCTAssertTrue(source.isPending, "b still waits on the source")
        r.fulfill(1)
        XCTAssertEqual(value(b), 3)
        XCTAssertTrue(error(a) is PromiseCancelledError)
    }

    func test_cancellingASettledPromiseDoesNothing() {
        let p = Promise<Int>.resolve(1)
        p.cancel()
        XCTAssertEqual(value(p), 1)
    }

    func test_cancelRacingSettleHasOneOutcome() {
        for _ in 0..<500 {
            let (p, r) = Promise<Int>.pending()
            let g = DispatchGroup()
            DispatchQueue.global().async(group: g) { r.fulfill(1) }
            DispatchQueue.global().async(group: g) { p.cancel() }
            g.wait()
            switch outcome(p) {
            case .success(let v): XCTAssertEqual(v, 1)
            case .failure(let e): XCTAssertTrue(e is PromiseCancelledError)
            case nil: XCTFail("did not settle")
            }
        }
    }

    func test_cancelHandlerRegisteredAfterCancelRunsAtOnce() {
        let (p, r) = Promise<Int>.pending()
        p.cancel()
        let ran = Locked(false)
        r.onCancel { ran.withLock { $0 = true } }
        XCTAssertTrue(ran.withLock { $0 })
    }

    func test_cancellingAnAdoptingPromiseCancelsTheAdoptedOne() {
        let (inner, r) = Promise<Int>.pending()
        let stopped = Locked(false)
        r.onCancel { stopped.withLock { $0 = true } }
        let outer = Promise<Int>.resolve(0).then { _ in inner }
        // wait until adoption happened
        let deadline = Date().addingTimeInterval(2)
        while inner.isPending && !stopped.withLock({ $0 }) && Date() < deadline {
            outer.cancel()
            if !outer.isPending { break }
            Thread.sleep(forTimeInterval: 0.001)
        }
        XCTAssertTrue(error(outer) is PromiseCancelledError)
    }

    /// A cancelled promise runs no handler: when its upstream settles later (a shared upstream
    /// that another dependent keeps alive), the handlers of the cancelled branch are skipped,
    /// whatever their kind.
    func test_aCancelledPromiseRunsNoHandler() {
        let log = Log()
        let (source, r) = Promise<Int>.pending()
        let keep = source.then { $0 }
        let branches: [Promise<Int>] = [
            source.then { v -> Int in log.add("then"); return v },
            source.then { v -> Promise<Int> in log.add("then-promise"); return .resolve(v) },
            source.then(resolving: { v -> Resolution<Int> in log.add("then-resolving"); return .value(v) }),
            source.recover { _ -> Int in log.add("recover"); return 0 },
            source.finally { log.add("finally") },
            source.finally { () -> Promise<Int> in log.add("finally-promise"); return .resolve(0) },
            source.tap { _ in log.add("tap") },
            source.always { _ -> Resolution<Int> in log.add("always"); return .value(0) },
        ]
        for b in branches { b.cancel() }
        XCTAssertTrue(source.isPending, "`keep` still waits on the source")
        r.fulfill(1)
        XCTAssertEqual(value(keep), 1)
        for b in branches { XCTAssertTrue(error(b) is PromiseCancelledError) }
        XCTAssertEqual(log.all, [])
    }

    /// Cancelling a chain cancels its source, whose rejection then reaches the handlers of the
    /// chain: they were cancelled first, so a `catch` does not catch its own cancellation and a
    /// `finally` does not run.
    func test_aCancelledChainDoesNotCatchItsOwnCancellation() {
        let log = Log()
        let (source, _) = Promise<Int>.pending()
        let caught = source.recover { _ -> Int in log.add("recover"); return 0 }
        let tail = caught.finally { log.add("finally") }
        tail.cancel()
        XCTAssertTrue(error(source) is PromiseCancelledError)
        XCTAssertTrue(error(caught) is PromiseCancelledError)
        drain(PromiseExecutors.main)
        XCTAssertEqual(log.all, [])
    }

    /// A handler that was running when its promise was cancelled (from another thread) returns a
    /// promise that nobody will wait for: it is cancelled instead of left running.
    func test_thePromiseAHandlerReturnsToACancelledAdopterIsCancelled() {
        let stopped = Locked(false)
        let started = DispatchSemaphore(value: 0), cancelled = DispatchSemaphore(value: 0)
        let outer = Promise<Int>.resolve(0).then { _ -> Promise<Int> in
            started.signal()
            cancelled.wait()
            let (inner, r) = Promise<Int>.pending(name: "inner")
            r.onCancel { stopped.withLock { $0 = true } }
            return inner
        }
        started.wait()
        outer.cancel()
        cancelled.signal()
        XCTAssertTrue(error(outer) is PromiseCancelledError)
        drain(PromiseExecutors.main)
        XCTAssertTrue(stopped.withLock { $0 }, "the returned promise was cancelled")
    }

    func test_cancelDelayClearsTheTimer() {
        let d = Promise<Int>.delay(10, value: 1)
        let start = Date()
        d.cancel()
        XCTAssertTrue(error(d) is PromiseCancelledError)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func test_asyncBridgeAwaitsValueAndCancelsTask() async throws {
        let v = try await Promise<Int>.delay(0.01, value: 12).value
        XCTAssertEqual(v, 12)
        let started = Locked(false)
        let p = Promise<Int>(operation: {
            started.withLock { $0 = true }
            try await Task.sleep(nanoseconds: 10_000_000_000)
            return 1
        })
        p.cancel()
        do {
            _ = try await p.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is PromiseCancelledError)
        }
    }
}

final class ExecutorTests: XCTestCase {
    func test_handlersRunOnTheNamedDispatchQueue() {
        let q = DispatchQueue(label: "custom")
        let key = DispatchSpecificKey<Int>()
        q.setSpecific(key: key, value: 7)
        let p = Promise<Int>.resolve(1).then(on: q) { _ in DispatchQueue.getSpecific(key: key) ?? -1 }
        XCTAssertEqual(value(p), 7)
    }

    func test_serialExecutorIsFIFOAcrossPromises() {
        let ex = SerialPromiseExecutor()
        let log = Log()
        var ps: [Promise<Int>] = []
        for i in 0..<100 { ps.append(Promise<Int>.resolve(i, on: ex).then(on: ex) { v -> Int in log.add("\(v)"); return v }) }
        _ = value(Promise.all(ps, on: ex))
        XCTAssertEqual(log.all, (0..<100).map { "\($0)" })
    }

    func test_serialExecutorReportsIsCurrent() {
        let ex = SerialPromiseExecutor()
        XCTAssertFalse(ex.isCurrent)
        let p = Promise<Int>.resolve(0, on: ex).then(on: ex) { _ in ex.isCurrent }
        XCTAssertEqual(value(p), true)
    }

    func test_observerSeesCreatedAttachedSettledAdoptedCancelled() {
        final class Recorder: PromiseObserver {
            let events = Locked<[String]>([])
            func promiseEvent(_ event: PromiseEvent) {
                let s: String
                switch event {
                case .created(_, let parents, let name, _): s = "created \(name ?? "-") parents=\(parents.count)"
                case .handlerAttached: s = "attached"
                case .fulfilled(_, let v): s = "fulfilled \(v)"
                case .rejected: s = "rejected"
                case .adopted: s = "adopted"
                case .cancelled: s = "cancelled"
                case .timerSet: return
                case .labelled: s = "labelled"
                case .jobQueued, .jobStarted, .output: return
                }
                events.withLock { $0.append(s) }
            }
        }
        let rec = Recorder()
        PromiseObservation.install(rec)
        defer { PromiseObservation.remove() }
        let p = Promise<Int>.resolve(1, name: "src").then(name: "inc") { v in Promise<Int>.resolve(v + 1, name: "inner") }
        XCTAssertEqual(value(p), 2)
        let (q, _) = Promise<Int>.pending(name: "pend")
        q.cancel()
        _ = error(q)
        let ev = rec.events.withLock { $0 }
        XCTAssertTrue(ev.contains("created src parents=0"))
        XCTAssertTrue(ev.contains("created inc parents=1"))
        XCTAssertTrue(ev.contains("attached"))
        XCTAssertTrue(ev.contains("adopted"))
        XCTAssertTrue(ev.contains("fulfilled 2"))
        XCTAssertTrue(ev.contains("cancelled"))
        XCTAssertTrue(ev.contains("rejected"))
        XCTAssertNotEqual(p.id, 0)
    }

    /// Trace attributes are an autoclosure: evaluated for an observer, never without one (an
    /// untraced stage call builds no trace record).
    func test_attributesAreEvaluatedOnlyWhileObserved() {
        final class Quiet: PromiseObserver {
            func promiseEvent(_ event: PromiseEvent) {}
        }
        let made = Locked(0)
        @Sendable func attributes() -> String {
            made.withLock { $0 += 1 }
            return "stage"
        }
        let a = Promise<Int>.resolve(1).then(attributes: attributes()) { $0 + 1 }
        XCTAssertEqual(value(a), 2)
        XCTAssertEqual(made.withLock { $0 }, 0)
        PromiseObservation.install(Quiet())
        defer { PromiseObservation.remove() }
        let b = Promise<Int>.resolve(1).recover(attributes: attributes()) { _ in 0 }
        XCTAssertEqual(value(b), 1)
        XCTAssertEqual(made.withLock { $0 }, 1)
    }
}

final class StressTests: XCTestCase {
    /// How long a wait on a million jobs may take before the test calls it stuck: generous, since
    /// each wait ends as soon as what it waits for happens, and under the thread sanitizer on a
    /// shared machine these tests take 15 to 30 seconds each.
    private let patience: Double = 300

    func test_settleAndAttachFromManyThreadsAtOnce() {
        let n = 2000
        let sources: [(Promise<Int>, Resolver<Int>)] = (0..<n).map { _ in Promise<Int>.pending() }
        let derived = Locked<[Promise<Int>]>([])
        DispatchQueue.concurrentPerform(iterations: n * 2) { i in
            let (p, r) = sources[i / 2]
            if i % 2 == 0 {
                r.fulfill(i / 2)
            } else {
                let d = p.then(on: DispatchQueue.global()) { $0 * 2 }
                derived.withLock { $0.append(d) }
            }
        }
        let all = Promise.all(derived.withLock { $0 })
        let values = value(all) ?? []
        XCTAssertEqual(values.count, n)
        XCTAssertEqual(values.reduce(0, +), (0..<n).reduce(0) { $0 + $1 * 2 })
    }

    func test_millionLongChainSettlesWithoutStackOverflow() {
        let ex = SerialPromiseExecutor()
        let (head, r) = Promise<Int>.pending(on: ex)
        var p = head
        for _ in 0..<1_000_000 { p = p.then(on: ex) { $0 + 1 } }
        r.fulfill(0)
        XCTAssertEqual(outcome(p, timeout: patience).flatMap { try? $0.get() }, 1_000_000)
    }

    func test_millionLongChainCancelsAndFreesWithoutStackOverflow() {
        let ex = SerialPromiseExecutor()
        let stopped = Locked(false)
        var tail: Promise<Int>?
        do {
            let (head, r) = Promise<Int>.pending(on: ex)
            r.onCancel { stopped.withLock { $0 = true } }
            var p = head
            for _ in 0..<1_000_000 { p = p.then(on: ex) { $0 + 1 } }
            tail = p
        }
        tail!.cancel()
        XCTAssertTrue(stopped.withLock { $0 }, "cancel reached the source a million promises up")
        XCTAssertTrue(error(tail!, timeout: patience) is PromiseCancelledError)
        drain(ex, timeout: patience)
        tail = nil  // frees the whole chain
    }

    func test_millionLongSettledChainIsFreed() {
        // Once a long chain has settled and nobody holds it, all of it is freed, without the
        // recursion of a million nested deinits.
        let ex = SerialPromiseExecutor()
        let settled = DispatchSemaphore(value: 0)
        weak var weakTail: Promise<Int>?
        do {
            let (head, r) = Promise<Int>.pending(on: ex)
            var p = head
            for _ in 0..<1_000_000 { p = p.then(on: ex) { $0 + 1 } }
            weakTail = p
            p.whenSettled(on: ex) { _ in settled.signal() }
            r.fulfill(1)
        }
        XCTAssertEqual(settled.wait(timeout: .now() + patience), .success, "the chain settled")
        drain(ex, timeout: patience)
        for _ in 0..<Int(patience / 0.05) where weakTail != nil { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertNil(weakTail, "a settled chain is freed")
    }

    func test_millionPendingChainIsFreedOnceCancelled() {
        // A pending promise and its dependents reference each other (the dependent must reach
        // upstream to cancel it), so a chain that can never settle is freed by cancelling it,
        // which settles every link and breaks the references; no deinit recursion either way.
        let ex = SerialPromiseExecutor()
        weak var weakHead: Promise<Int>?
        weak var weakTail: Promise<Int>?
        do {
            let (head, _) = Promise<Int>.pending(on: ex)
            weakHead = head
            var p = head
            for _ in 0..<1_000_000 { p = p.then(on: ex) { $0 + 1 } }
            weakTail = p
            p.cancel()
        }
        drain(ex, timeout: patience)
        for _ in 0..<Int(patience / 0.05) where weakTail != nil || weakHead != nil { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertNil(weakTail, "a cancelled chain is freed")
        XCTAssertNil(weakHead, "its source too")
    }
}
