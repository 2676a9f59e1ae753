import Dispatch
import XCTest

@testable import VowPromises

/// Timers as tasks: one scheduler, callbacks run as tasks after every ready job.
final class TimerTests: XCTestCase {
    func test_aTimersJobsAllRunBeforeTheNextTimerFires() {
        // const delay = (ms, v) => new Promise(r => setTimeout(() => r(v), ms));
        // delay(10, 1).then(() => log('t1')).then(() => log('t1a')).then(() => log('t1b'));
        // delay(10, 2).then(() => log('t2')).then(() => log('t2a'));
        // delay(5, 3).then(() => log('t0'));
        // node: t0 t1 t1a t1b t2 t2a
        let ex = SerialPromiseExecutor()
        let log = Log()
        ex.enqueue {
            _ = Promise.delay(0.01, value: 1, on: ex).then(on: ex) { _ in log.add("t1") }
                .then(on: ex) { _ in log.add("t1a") }.then(on: ex) { _ in log.add("t1b") }
            _ = Promise.delay(0.01, value: 2, on: ex).then(on: ex) { _ in log.add("t2") }
                .then(on: ex) { _ in log.add("t2a") }
            _ = Promise.delay(0.005, value: 3, on: ex).then(on: ex) { _ in log.add("t0") }
        }
        XCTAssertTrue(ex.waitUntilQuiescent(timeout: .seconds(10)))
        XCTAssertEqual(log.all, ["t0", "t1", "t1a", "t1b", "t2", "t2a"])
        XCTAssertEqual(ex.pendingTimers, 0)
    }

    func test_everyReadyJobRunsBeforeTheNextTask() {
        let ex = SerialPromiseExecutor()
        let log = Log()
        ex.enqueue {
            ex.enqueueTask { log.add("task 1"); ex.enqueue { log.add("job of task 1") } }
            ex.enqueueTask { log.add("task 2") }
            ex.enqueue { log.add("job 1"); ex.enqueue { log.add("job 2") } }
        }
        XCTAssertTrue(ex.waitUntilQuiescent(timeout: .seconds(10)))
        XCTAssertEqual(log.all, ["job 1", "job 2", "task 1", "job of task 1", "task 2"])
    }

    func test_timersDueTogetherFireInTheOrderTheyWereSet() {
        let ex = SerialPromiseExecutor()
        let log = Log()
        let gate = DispatchSemaphore(value: 0)
        ex.enqueue {
            // Set 50 timers, then hold the executor until all are due.
            for i in 0..<50 { _ = Promise.delay(0.001, value: i, on: ex).then(on: ex) { v in log.add("\(v)") } }
            gate.wait()
        }
        Thread.sleep(forTimeInterval: 0.05)
        gate.signal()
        XCTAssertTrue(ex.waitUntilQuiescent(timeout: .seconds(10)))
        XCTAssertEqual(log.all, (0..<50).map { "\($0)" })
    }

    func test_pendingTimersCountsUntilFiredOrCleared() {
        let ex = SerialPromiseExecutor()
        // A fires a little later (0.3 s, not 20 ms): the count of two is read before it fires
        // even when the test's thread pauses (a busy machine).
        let a = Promise.delay(0.3, value: 1, on: ex)
        let b = Promise.delay(60, value: 2, on: ex)
        XCTAssertEqual(ex.pendingTimers, 2)
        XCTAssertTrue(ex.hasPendingWork)
        XCTAssertEqual(value(a), 1)
        XCTAssertEqual(ex.pendingTimers, 1)
        XCTAssertFalse(ex.waitUntilQuiescent(timeout: .milliseconds(20)), "a pending timer keeps it busy")
        b.cancel()
        XCTAssertEqual(ex.pendingTimers, 0)
        XCTAssertTrue(ex.waitUntilQuiescent(timeout: .seconds(10)))
        XCTAssertFalse(ex.hasPendingWork)
    }

    func test_waitUntilQuiescentWaitsForTheTimerAndWhatItStarts() {
        let ex = SerialPromiseExecutor()
        let log = Log()
        _ = Promise.delay(0.02, value: 1, on: ex).then(on: ex) { v -> Promise<Int> in
            log.add("first")
            return Promise.delay(0.02, value: v + 1, on: ex)
        }.then(on: ex) { v in log.add("second \(v)") }
        XCTAssertTrue(ex.waitUntilQuiescent(timeout: .seconds(10)))
        XCTAssertEqual(log.all, ["first", "second 2"])
    }

    func test_aClearedTimerNeverCallsBack() {
        let ex = SerialPromiseExecutor()
        let log = Log()
        let t = OneShotTimer(after: 0.01, on: ExecutorRef(ex)) { log.add("fired") }
        t.clear()
        t.clear()
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(log.all, [])
        XCTAssertEqual(ex.pendingTimers, 0)
    }

    func test_manyTimersSetAndClearedFromManyThreads() {
        let ex = SerialPromiseExecutor()
        let fired = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { k in
            for i in 0..<200 {
                let clear = (i + k) % 2 == 0
                let t = OneShotTimer(after: clear ? 5 : Double(i % 5) * 0.001, on: ExecutorRef(ex)) {
                    fired.withLock { $0 += 1 }
                }
                if clear { t.clear() }
            }
        }
        XCTAssertTrue(ex.waitUntilQuiescent(timeout: .seconds(10)))
        XCTAssertEqual(fired.withLock { $0 }, 800)
    }
}
