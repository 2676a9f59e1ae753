import Dispatch
import XCTest

@testable import VowPromises

/// Timers run as tasks, as node's do: every job ready when a timer fires runs first, and every
/// job the timer's callback makes runs before the next timer's callback.
final class TimerTaskTests: XCTestCase {
    /// node 20:
    ///     const d = (ms, v) => new Promise((r) => setTimeout(() => r(v), ms));
    ///     d(10, "a").then(log).then(log2).then(log3); d(10, "b").then(log).then(log2)
    /// prints a a2 a3 b b2: the first timer's whole chain runs before the second timer fires.
    func test_theJobsOfOneTimerRunBeforeTheNextTimer() {
        let ex = SerialPromiseExecutor(label: "timer-tasks")
        let log = Log()
        let a = Promise.delay(0.01, value: "a", on: ex).then(on: ex) { v -> String in log.add(v); return v }
            .then(on: ex) { v -> String in log.add(v + "2"); return v }
            .then(on: ex) { v -> String in log.add(v + "3"); return v }
        let b = Promise.delay(0.01, value: "b", on: ex).then(on: ex) { v -> String in log.add(v); return v }
            .then(on: ex) { v -> String in log.add(v + "2"); return v }
        _ = value(a)
        _ = value(b)
        XCTAssertEqual(log.all, ["a", "a2", "a3", "b", "b2"])
    }

    /// Timers due at the same time fire in the order they were set; a shorter timer set later
    /// fires first, as in node. They are set in one job, as node sets them in one run of the
    /// script: there they start at the loop's time, so a pause of the thread between two of them
    /// (a busy machine) cannot reorder them.
    func test_timersFireByDeadlineThenByTheOrderTheyWereSet() {
        let ex = SerialPromiseExecutor(label: "timer-order")
        let log = Log()
        let all = Locked<[Promise<Void>]>([])
        let set = DispatchSemaphore(value: 0)
        ex.enqueue {
            for (i, ms) in [30, 10, 10, 20, 10].enumerated() {
                let p = Promise.delay(Double(ms) / 1000, value: (), on: ex).then(on: ex) { _ in log.add("\(ms)ms#\(i)") }
                all.withLock { $0.append(p) }
            }
            set.signal()
        }
        set.wait()
        for p in all.withLock({ $0 }) { _ = value(p) }
        XCTAssertEqual(log.all, ["10ms#1", "10ms#2", "10ms#4", "20ms#3", "30ms#0"])
    }

    /// A cleared timer leaves the count of pending timers at once, and never fires.
    func test_aClearedTimerNeverFiresAndIsNotPending() {
        let ex = SerialPromiseExecutor(label: "timer-clear")
        let p = Promise.delay(30, value: 1, on: ex)
        XCTAssertEqual(ex.pendingTimers, 1)
        p.cancel(reason: "test")
        XCTAssertEqual(ex.pendingTimers, 0)
        XCTAssertNotNil(error(p))
    }

    /// A pending `delay` waits on its timer as on an upstream promise: it keeps no cancel
    /// handler (no rare state), and cancelling what is derived from it clears the timer too.
    func test_aDelayWaitsOnItsTimerWithNoCancelHandler() {
        let ex = SerialPromiseExecutor(label: "timer-upstream")
        let p = Promise.delay(30, value: 1, on: ex)
        XCTAssertNil(p.extra, "no rare state for a pending delay")
        let derived = p.then(on: ex) { $0 + 1 }
        XCTAssertEqual(ex.pendingTimers, 1)
        derived.cancel(reason: "test")
        XCTAssertEqual(ex.pendingTimers, 0)
        XCTAssertNotNil(error(p))
        XCTAssertNotNil(error(derived))
    }
}
