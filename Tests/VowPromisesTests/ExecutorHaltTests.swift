import Dispatch
import XCTest

@testable import VowPromises

/// `SerialPromiseExecutor.halt`: the program stops where node's process would end.
final class ExecutorHaltTests: XCTestCase {
    /// The job that halts runs to its end; the jobs queued before and after it do not run.
    func test_haltDropsWhatIsQueued() {
        let ex = SerialPromiseExecutor()
        let ran = Locked([String]())
        ex.enqueue {
            ran.withLock { $0.append("halting") }
            ex.enqueue { ran.withLock { $0.append("queued before the halt") } }
            ex.halt()
            ex.enqueue { ran.withLock { $0.append("queued after the halt") } }
            ran.withLock { $0.append("end of the halting job") }
        }
        XCTAssertTrue(ex.waitUntilIdle(timeout: .seconds(10)))
        ex.enqueue { ran.withLock { $0.append("from outside, later") } }
        usleep(20_000)
        XCTAssertEqual(ran.withLock { $0 }, ["halting", "end of the halting job"])
        XCTAssertTrue(ex.isHalted)
    }

    /// A timer pending at the halt fires into nothing, and nobody waits for it: the wait returns
    /// while an hour-long timer is still pending (the bound on the wait is only for a job that
    /// never runs; a busy machine may take long to start the executor's thread).
    func test_aPendingTimerRunsNothingAndIsNotWaitedFor() {
        let ex = SerialPromiseExecutor()
        let fired = Locked(false)
        ex.enqueue {
            Promise<Int>.delay(0.05, value: 1, on: ex).whenSettled(on: ex) { _ in fired.withLock { $0 = true } }
            Promise<Int>.delay(3600, value: 2, on: ex).whenSettled(on: ex) { _ in fired.withLock { $0 = true } }
            ex.halt()
        }
        XCTAssertTrue(ex.waitUntilQuiescent(timeout: .seconds(60)), "a halted executor is not waited for")
        XCTAssertTrue(ex.isHalted)
        usleep(100_000)
        XCTAssertFalse(fired.withLock { $0 })
    }
}
