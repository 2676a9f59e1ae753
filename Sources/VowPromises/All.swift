import Synchronization

extension Promise {
    /// JavaScript's `Promise.all`: fulfils with every value, in input order, once all fulfil;
    /// rejects with the first rejection to arrive. `all([])` fulfils with `[]`.
    ///
    /// With `cancelsOthers` (the default) it then cancels the inputs it no longer needs, an
    /// extension over JavaScript; with `cancelsOthers: false` it leaves them running, as
    /// JavaScript does. Callbacks run on `executor`; the result promise uses it as its executor
    /// too. The result settles in the turn of the last input's reaction, as in JavaScript.
    public static func all(
        _ promises: [Promise<T>], name: String? = "all",
        on executor: any PromiseExecutor = PromiseExecutors.main,
        cancelsOthers: Bool = true
    ) -> Promise<[T]> {
        all(promises, name: name, on: executor, cancelsOthers: cancelsOthers) { $0 }
    }

    /// `all` whose result is `map(values)`, computed in the same turn as the last input's
    /// reaction (no extra turn, unlike a `then` after `all`). A `map` that throws rejects.
    public static func all<U>(
        _ promises: [Promise<T>], name: String? = "all",
        on executor: any PromiseExecutor = PromiseExecutors.main,
        cancelsOthers: Bool = true,
        map: @escaping @Sendable ([T]) throws -> U
    ) -> Promise<U> {
        let result = Promise<U>(name: name, executor: executor, upstream: promises)
        let n = promises.count
        if n == 0 {
            result.settle(Result { try map([]) })
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
                    if let done, result.isPending { result.settle(Result { try map(done) }) }
                case .failure(let e):
                    if result.settle(.failure(e)), cancelsOthers {
                        releaseOthers(promises, except: i, reason: "cancelled: a sibling in all rejected")
                    }
                }
            }
        }
        return result
    }

    /// The keyed `all`: fulfils with the same keys, in the same order, each with its value, in
    /// the turn of the last input's reaction (the keys are put back with no extra turn).
    public static func all<K: Sendable>(
        keyed pairs: [(key: K, value: Promise<T>)], name: String? = "all",
        on executor: any PromiseExecutor = PromiseExecutors.main,
        cancelsOthers: Bool = true
    ) -> Promise<[(key: K, value: T)]> {
        let keys = pairs.map(\.key)
        return all(pairs.map(\.value), name: name, on: executor, cancelsOthers: cancelsOthers) { values in
            Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
        }
    }

    static func releaseOthers(_ promises: [Promise<T>], except index: Int, reason: String) {
        for (j, q) in promises.enumerated() where j != index {
            q.releaseAsDependent(reason: reason)
        }
    }
}
