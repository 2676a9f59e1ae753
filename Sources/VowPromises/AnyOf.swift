import Synchronization

extension Promise {
    /// JavaScript's `Promise.any`: fulfils with the first input to fulfil, then cancels the
    /// others; if every input rejects, rejects with an `AggregateError` holding every reason in
    /// input order. `any([])` rejects at once with an empty `AggregateError`. With
    /// `cancelsOthers: false` the others are left running, as in JavaScript.
    public static func any(
        _ promises: [Promise<T>], name: String? = "any",
        on executor: any PromiseExecutor = PromiseExecutors.main,
        cancelsOthers: Bool = true
    ) -> Promise<T> {
        let result = Promise<T>(name: name, executor: executor, upstream: promises)
        let n = promises.count
        if n == 0 {
            result.settle(.failure(AggregateError(errors: [])))
            return result
        }
        let state = Locked((errors: [(any Error)?](repeating: nil, count: n), remaining: n))
        for (i, p) in promises.enumerated() {
            p.whenSettled(on: executor) { r in
                switch r {
                case .success:
                    if result.settle(r), cancelsOthers {
                        releaseOthers(promises, except: i, reason: "cancelled: a sibling in any fulfilled")
                    }
                case .failure(let e):
                    let all: [any Error]? = state.withLock { s in
                        s.errors[i] = e
                        s.remaining -= 1
                        return s.remaining == 0 ? s.errors.map { $0! } : nil
                    }
                    if let all { result.settle(.failure(AggregateError(errors: all))) }
                }
            }
        }
        return result
    }
}
