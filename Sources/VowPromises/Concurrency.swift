extension Promise {
    /// Waits for the outcome from Swift concurrency. If the waiting task is cancelled, the
    /// promise is cancelled too (and the await throws `PromiseCancelledError`).
    public var value: T {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
                    self.whenSettled { r in c.resume(with: r) }
                }
            } onCancel: {
                self.cancel()
            }
        }
    }

    /// A promise for the result of an async closure, run in a new `Task`. Cancelling the promise
    /// cancels the task.
    public convenience init(
        name: String? = nil, on executor: any PromiseExecutor = PromiseExecutors.main,
        operation: @escaping @Sendable () async throws -> T
    ) {
        self.init(name: name, executor: executor, upstream: [])
        let resolver = Resolver(self)
        let task = Task {
            do { resolver.fulfill(try await operation()) } catch { resolver.reject(error) }
        }
        resolver.onCancel { task.cancel() }
    }
}
