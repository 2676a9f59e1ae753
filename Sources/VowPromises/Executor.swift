import Dispatch

/// Where promise handlers run.
///
/// Every handler (`then`, `recover`, `finally`, `tap`, combinator callbacks) runs as a job on an
/// executor, never synchronously inside the call that attaches it. Jobs enqueued on one executor
/// from one thread run in the order they were enqueued when the executor is serial.
///
/// Conform any scheduler: a `DispatchQueue` already conforms; a SwiftNIO `EventLoop` conforms with
/// `extension EventLoop { func enqueue(_ job: …) { execute(job) } }` in the caller's module.
/// An executor is an object (a queue, a loop): held in one word, so passing one costs a retain,
/// not a copy through an existential's value witnesses.
public protocol PromiseExecutor: AnyObject, Sendable {
    /// Schedules `job` to run later, never before this call returns.
    func enqueue(_ job: @escaping @Sendable () -> Void)

    /// This executor as a `SerialPromiseExecutor`, if it is one: promises then hand it their
    /// jobs directly, with no closure allocated per job. Other conformers keep the default, nil.
    var asSerialPromiseExecutor: SerialPromiseExecutor? { get }
}

extension PromiseExecutor {
    /// Nil: jobs are handed to `enqueue` as closures.
    public var asSerialPromiseExecutor: SerialPromiseExecutor? { nil }

    /// Schedules a task (a timer that fired, an I/O outcome): a serial executor runs every job
    /// that is ready before it, as JavaScript's event loop runs its microtasks first; any other
    /// executor runs it as one more job.
    public func enqueueTask(_ task: @escaping @Sendable () -> Void) {
        if let s = asSerialPromiseExecutor { s.enqueueTask(task) } else { enqueue(task) }
    }
}

extension DispatchQueue: PromiseExecutor {
    /// Runs the job with `async`: one dispatch per job.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        self.async(execute: job)
    }
}

/// The executors the library uses when a caller names none.
public enum PromiseExecutors {
    /// The default executor: one process-wide serial executor. Handlers attached without naming
    /// an executor run here, in FIFO order.
    public static let main = SerialPromiseExecutor(label: "vow.promises.main")

    /// The queue the timers' sources fire on. They only queue work on an executor (a pass over a
    /// serial executor's due timers, or a callback on another executor); handlers run there.
    static let timers = DispatchQueue(label: "vow.promises.timers")
}
