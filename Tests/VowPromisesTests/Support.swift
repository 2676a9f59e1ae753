import Dispatch
import Synchronization
import XCTest

@testable import VowPromises

struct TestError: Error, Equatable, CustomStringConvertible {
    let tag: String
    init(_ tag: String) { self.tag = tag }
    var description: String { tag }
}

/// Waits (bounded) for a promise to settle and returns its outcome.
func outcome<T>(_ p: Promise<T>, timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line)
    -> Result<T, any Error>?
{
    let sem = DispatchSemaphore(value: 0)
    let box = Locked<Result<T, any Error>?>(nil)
    p.whenSettled(on: DispatchQueue.global()) { r in
        box.withLock { $0 = r }
        sem.signal()
    }
    if sem.wait(timeout: .now() + timeout) == .timedOut {
        XCTFail("promise did not settle within \(timeout)s", file: file, line: line)
        return nil
    }
    return box.withLock { $0 }
}

func value<T>(_ p: Promise<T>, timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line) -> T? {
    switch outcome(p, timeout: timeout, file: file, line: line) {
    case .success(let v): return v
    case .failure(let e):
        XCTFail("expected fulfilment, got \(e)", file: file, line: line)
        return nil
    case nil: return nil
    }
}

func error<T>(_ p: Promise<T>, timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line) -> (any Error)? {
    switch outcome(p, timeout: timeout, file: file, line: line) {
    case .success(let v):
        XCTFail("expected rejection, got \(v)", file: file, line: line)
        return nil
    case .failure(let e): return e
    case nil: return nil
    }
}

/// A thread-safe log of events, to check ordering.
final class Log: Sendable {
    private let items = Locked<[String]>([])
    func add(_ s: String) { items.withLock { $0.append(s) } }
    var all: [String] { items.withLock { $0 } }
}

/// Runs `build` as one job on a fresh serial executor, waits until everything ran, and returns
/// what was logged, in order.
func logged(_ build: @escaping @Sendable (SerialPromiseExecutor, @escaping @Sendable (String) -> Void) -> Void) -> [String] {
    let ex = SerialPromiseExecutor()
    let log = Log()
    ex.enqueue { build(ex, { log.add($0) }) }
    XCTAssertTrue(ex.waitUntilIdle(timeout: .seconds(10)))
    return log.all
}

/// Drains the executor: a promise attached after everything else settles last. `timeout` bounds
/// the wait for the jobs queued before it.
func drain(_ ex: SerialPromiseExecutor, timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line) {
    let p = Promise<Int>.resolve(0, on: ex).then(on: ex) { $0 }.then(on: ex) { $0 }.then(on: ex) { $0 }
    _ = outcome(p, timeout: timeout, file: file, line: line)
}

/// An executor that queues jobs and runs them only when the test says so.
final class ManualExecutor: PromiseExecutor, Sendable {
    private let jobs = Locked<[@Sendable () -> Void]>([])

    func enqueue(_ job: @escaping @Sendable () -> Void) { jobs.withLock { $0.append(job) } }

    /// Runs queued jobs, and the jobs they enqueue, until none is left.
    func runAll() {
        while true {
            let batch = jobs.withLock { q -> [@Sendable () -> Void] in
                defer { q.removeAll() }
                return q
            }
            if batch.isEmpty { return }
            for job in batch { job() }
        }
    }
}
