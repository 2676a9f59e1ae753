import Synchronization

extension Promise {
    /// JavaScript's `Promise.allSettled`: waits for every input and never rejects; fulfils with
    /// each outcome in input order. `settle([])` fulfils with `[]`.
    public static func settle(
        _ promises: [Promise<T>], name: String? = "settle",
        on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<[Result<T, any Error>]> {
        let result = Promise<[Result<T, any Error>]>(name: name, executor: executor, upstream: promises)
        let n = promises.count
        if n == 0 {
            result.settle(.success([]))
            return result
        }
        let state = Locked((outcomes: [Result<T, any Error>?](repeating: nil, count: n), remaining: n))
        for (i, p) in promises.enumerated() {
            p.whenSettled(on: executor) { r in
                let done: [Result<T, any Error>]? = state.withLock { s in
                    s.outcomes[i] = r
                    s.remaining -= 1
                    return s.remaining == 0 ? s.outcomes.map { $0! } : nil
                }
                if let done { result.settle(.success(done)) }
            }
        }
        return result
    }
}
