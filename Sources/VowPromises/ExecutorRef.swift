// How a promise holds its executor and hands it jobs, and the job that wraps a closure.

/// How a promise holds its executor: a serial executor by an unretained reference (serial
/// executors are never freed, so holding one costs no reference counting: a promise neither
/// retains it when made nor releases it when freed), any other one in a retained box.
enum ExecutorRef: Sendable {
    case serial(Unmanaged<SerialPromiseExecutor>)
    case other(ExecutorBox)

    @inline(__always)
    init(_ executor: __shared any PromiseExecutor) {
        if let s = executor.asSerialPromiseExecutor {
            self = .serial(Unmanaged.passUnretained(s))
        } else {
            self = .other(ExecutorBox(executor))
        }
    }

    var executor: any PromiseExecutor {
        switch self {
        case .serial(let s): return s.takeUnretainedValue()
        case .other(let b): return b.executor
        }
    }

    /// Runs `job` (a microtask) on the executor.
    @inline(__always)
    func enqueue(_ job: AnyPromise) {
        switch self {
        case .serial(let s): s._withUnsafeGuaranteedRef { $0.enqueueJob(job) }
        case .other(let b): b.executor.enqueue { job.run() }
        }
    }

    /// Runs `job` as a task (a timer's callback) on the executor; for a serial executor, also
    /// counts the timer that fired as no longer pending.
    /// The serial executor, if it is one (where possibly unhandled rejections are listed).
    var serialExecutor: SerialPromiseExecutor? {
        if case .serial(let s) = self { return s.takeUnretainedValue() } else { return nil }
    }
}

/// Holds an executor that is not a `SerialPromiseExecutor`.
final class ExecutorBox: Sendable {
    let executor: any PromiseExecutor
    init(_ executor: any PromiseExecutor) { self.executor = executor }
}

/// A job that runs a closure (what `enqueue` is given).
///
/// Sendable: `body` is a `let` of a Sendable type. It says `@unchecked` only because its superclass
/// does, and Swift makes a subclass restate that.
final class ClosureJob: ReactionJob, @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        super.init(execRef: nil)
    }
    override func run() { body() }
}
