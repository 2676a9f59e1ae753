import Dispatch
import Synchronization

/// Where promise handlers run.
///
/// Every handler (`then`, `recover`, `finally`, `tap`, combinator callbacks) runs as a job on an
/// executor, never synchronously inside the call that attaches it. Jobs enqueued on one executor
/// from one thread run in the order they were enqueued when the executor is serial.
///
/// Conform any scheduler: a `DispatchQueue` already conforms; a SwiftNIO `EventLoop` conforms with
/// `extension EventLoop { func enqueue(_ job: …) { execute(job) } }` in the caller's module.
public protocol PromiseExecutor: Sendable {
    /// Schedules `job` to run later, never before this call returns.
    func enqueue(_ job: @escaping @Sendable () -> Void)

    /// Schedules a task (a timer that fired): like JavaScript's event loop, an executor that
    /// keeps the distinction runs every ready job before it starts the next task.
    func enqueueTask(_ task: @escaping @Sendable () -> Void)
}

extension PromiseExecutor {
    /// By default a task is one more job.
    public func enqueueTask(_ task: @escaping @Sendable () -> Void) { enqueue(task) }
}

extension DispatchQueue: PromiseExecutor {
    /// Runs the job with `async`: one dispatch per job.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        self.async(execute: job)
    }
}

/// A serial executor that drains a queue of ready jobs on one thread at a time.
///
/// Enqueueing onto an idle executor costs one dispatch to start a drain; every job enqueued while
/// the executor is draining (the usual case for a chain, where each handler settles the next
/// promise) is only appended to the queue: no dispatch, no thread hop. That makes a `then` hop
/// cheaper than a raw `DispatchQueue.async` hop, while keeping a strict FIFO order, which is what
/// gives the interpreter JavaScript's deterministic microtask order.
public final class SerialPromiseExecutor: PromiseExecutor {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        /// Tasks (timers that fired), run one at a time, each after every ready job.
        var tasks: [@Sendable () -> Void] = []
        var taskHead = 0
        var draining = false
        /// Threads in `waitUntilIdle`, signalled when a drain ends.
        var idleWaiters: [DispatchSemaphore] = []
    }

    private let state = Locked(Queue())
    private let queue: DispatchQueue

    /// A serial executor whose drains run on a new serial dispatch queue labelled `label`.
    public init(label: String = "vow.promises.serial") {
        self.queue = DispatchQueue(label: label)
    }

    /// Appends the job; starts a drain only when the executor was idle.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        let startDrain = state.withLock { q -> Bool in
            q.jobs.append(job)
            if q.draining { return false }
            q.draining = true
            return true
        }
        if startDrain {
            queue.async { self.drain() }
        }
    }

    /// Appends a task; starts a drain only when the executor was idle. The drain runs it after
    /// every job that is ready, and runs every job it makes before the next task, as a
    /// JavaScript event loop runs its microtasks between two timers.
    public func enqueueTask(_ task: @escaping @Sendable () -> Void) {
        let startDrain = state.withLock { q -> Bool in
            q.tasks.append(task)
            if q.draining { return false }
            q.draining = true
            return true
        }
        if startDrain {
            queue.async { self.drain() }
        }
    }

    /// Waits, from a thread that is not running one of this executor's jobs, until no job is
    /// queued or running, or until `timeout` has passed; returns true when the executor went
    /// idle. A job enqueued later (by a timer, say) makes it busy again.
    public func waitUntilIdle(timeout: DispatchTimeInterval) -> Bool {
        let signal = DispatchSemaphore(value: 0)
        let busy = state.withLock { q -> Bool in
            if q.draining { q.idleWaiters.append(signal) }
            return q.draining
        }
        return !busy || signal.wait(timeout: .now() + timeout) == .success
    }

    /// True when called from a job running on this executor.
    public var isCurrent: Bool {
        drainThread.withLock { $0 } == currentThreadToken()
    }

    private let drainThread = Locked<UInt>(0)

    private func drain() {
        drainThread.withLock { $0 = currentThreadToken() }
        var batch: [@Sendable () -> Void] = []
        while true {
            var waiters: [DispatchSemaphore] = []
            var task: (@Sendable () -> Void)? = nil
            let more = state.withLock { q -> Bool in
                if !q.jobs.isEmpty {
                    swap(&batch, &q.jobs)
                    return true
                }
                if q.taskHead < q.tasks.count {
                    task = q.tasks[q.taskHead]
                    q.taskHead += 1
                    if q.taskHead == q.tasks.count {
                        q.tasks.removeAll(keepingCapacity: true)
                        q.taskHead = 0
                    }
                    return true
                }
                q.draining = false
                swap(&waiters, &q.idleWaiters)
                return false
            }
            if !more {
                for w in waiters { w.signal() }
                break
            }
            if let task {
                task()
                continue
            }
            for job in batch { job() }
            batch.removeAll(keepingCapacity: true)
        }
        drainThread.withLock { $0 = 0 }
    }
}

#if canImport(Glibc)
    import Glibc
    private func currentThreadToken() -> UInt { UInt(pthread_self()) }
#elseif canImport(Darwin)
    import Darwin
    private func currentThreadToken() -> UInt { UInt(bitPattern: pthread_self()) }
#endif

/// The executors the library uses when a caller names none.
public enum PromiseExecutors {
    /// The default executor: one process-wide serial executor. Handlers attached without naming
    /// an executor run here, in FIFO order.
    public static let main = SerialPromiseExecutor(label: "vow.promises.main")

    /// The queue that runs timers (`delay`, `timeout`, `retry` back-off). Timer callbacks only
    /// settle promises; handlers still run on the promise's executor.
    static let timers = DispatchQueue(label: "vow.promises.timers")
}
