import Synchronization

extension Promise {
    /// JavaScript's `Promise.all`: fulfils with every value, in input order, once all fulfil;
    /// rejects with the first rejection to arrive, and then cancels the inputs it no longer needs
    /// (an extension over JavaScript, which lets them run on; `cancelsOthers: false` does as JavaScript
    /// does). `all([])` fulfils with `[]`.
    ///
    /// Callbacks run on `executor`; the result promise uses it as its executor too.
    public static func all(
        _ promises: [Promise<T>], name: String? = "all",
        on executor: any PromiseExecutor = PromiseExecutors.main, cancelsOthers: Bool = true
    ) -> Promise<[T]> {
        let result = Promise<[T]>(name: name, executor: executor, upstream: promises)
        let n = promises.count
        if n == 0 {
            result.settle(.success([]))
            return result
        }
        let state = Locked((values: [T?](repeating: nil, count: n), remaining: n))
        for (i, p) in promises.enumerated() {
            p.whenSettled(on: executor) { r in
                switch r {
                case .success(let v):
                    let done: [T]? = state.withLock { s in
                        s.values[i] = v
                        s.remaining -= 1
                        return s.remaining == 0 ? s.values.map { $0! } : nil
                    }
                    if let done { result.settle(.success(done)) }
                case .failure(let e):
                    if result.settle(.failure(e)), cancelsOthers {
                        releaseOthers(promises, except: i, reason: "cancelled: a sibling in all rejected")
                    }
                }
            }
        }
        return result
    }

    /// The keyed `all`: fulfils with the same keys, in the same order, each with its value.
    public static func all<K: Sendable>(
        keyed pairs: [(key: K, value: Promise<T>)], name: String? = "all",
        on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<[(key: K, value: T)]> {
        let keys = pairs.map(\.key)
        return all(pairs.map(\.value), name: name, on: executor).then(on: executor) { values in
            Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
        }
    }

    static func releaseOthers(_ promises: [Promise<T>], except index: Int, reason: String) {
        for (j, q) in promises.enumerated() where j != index {
            q.releaseAsDependent(reason: reason)
        }
    }
}
