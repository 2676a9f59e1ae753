import Synchronization

/// Requests and processes started and not yet settled, in the whole process: JavaScript mode
/// waits for them before a script ends, as node waits for its open sockets and child processes.
public enum WorkInFlight {
    private static let count = Atomic<Int>(0)

    /// The number of requests and processes still running.
    public static var pending: Int { count.load(ordering: .acquiring) }

    /// Counts `promise` until it settles (in the same instant: no job, no turn).
    public static func track<T>(_ promise: Promise<T>) {
        count.wrappingAdd(1, ordering: .relaxed)
        promise.watch { count.wrappingSubtract(1, ordering: .releasing) }
    }
}
