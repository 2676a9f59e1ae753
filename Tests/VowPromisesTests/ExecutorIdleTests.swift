import Dispatch
import XCTest

@testable import VowPromises

/// `SerialPromiseExecutor.waitUntilIdle`, which `Session.close` relies on.
final class ExecutorIdleTests: XCTestCase {
    func test_waitUntilIdleReturnsAtOnceOnAnIdleExecutor() {
        XCTAssertTrue(SerialPromiseExecutor().waitUntilIdle(timeout: .milliseconds(1)))
    }

    func test_waitUntilIdleWaitsForJobsAndTheJobsTheyEnqueue() {
        let ex = SerialPromiseExecutor()
        let ran = Locked(0)
        ex.enqueue {
            usleep(30_000)
            ran.withLock { $0 += 1 }
            ex.enqueue { usleep(30_000); ran.withLock { $0 += 1 } }
        }
        XCTAssertTrue(ex.waitUntilIdle(timeout: .seconds(10)))
        XCTAssertEqual(ran.withLock { $0 }, 2, "both jobs ran before the executor was idle")
    }

    func test_waitUntilIdleTimesOutWhileAJobIsBlocked() {
        let ex = SerialPromiseExecutor()
        let gate = DispatchSemaphore(value: 0)
        ex.enqueue { gate.wait() }
        XCTAssertFalse(ex.waitUntilIdle(timeout: .milliseconds(20)))
        gate.signal()
        XCTAssertTrue(ex.waitUntilIdle(timeout: .seconds(10)))
    }
}
