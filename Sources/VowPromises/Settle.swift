import Synchronization

extension Promise {
    /// JavaScript's `Promise.allSettled`: waits for every input and never rejects; fulfils with
    /// each outcome in input order. `settle([])` fulfils with `[]`.
    public static func settle(
        _ promises: [Promise<T>], name: String? = "settle",
        on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<[Result<T, any Error>]> {
        settle(promises, name: name, on: executor) { $0 }
    }

    /// `settle` whose result is `map(outcomes)`, computed in the same turn as the last input's
    /// reaction (no extra turn). A `map` that throws rejects.
    public static func settle<U>(
        _ promises: [Promise<T>], name: String? = "settle",
        on executor: any PromiseExecutor = PromiseExecutors.main,
        map: @escaping @Sendable ([Result<T, any Error>]) throws -> U
    ) -> Promise<U> {
        let result = Promise<U>(name: name, executor: executor, upstream: promises)
        let n = promises.count
        if n == 0 {
            result.settle(Result { try map([]) })
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
                if let done, result.isPending { result.settle(Result { try map(done) }) }
            }
        }
        return result
    }
}
