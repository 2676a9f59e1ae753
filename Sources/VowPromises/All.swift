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
        let ex = ExecutorRef(executor)
        let result = Promise<U>(name: name, execRef: ex, upstream: promises)
        let n = promises.count
        if n == 0 {
            result.settle(Result { try map([]) })
            return result
        }
        let state = AllState<T, U>(result: result, promises: promises, cancelsOthers: cancelsOthers, map: map)
        let step: @Sendable (AllElementJob<T, U>) -> Void = { $0.react() }
        for (i, p) in promises.enumerated() {
            let id = p.observedID
            if id != 0 { PromiseObservation.emit(.handlerAttached(id: id, child: 0)) }
            p.addReaction(AllElementJob(source: p, index: i, state: state, execRef: ex, step: step), dependent: false)
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

/// What the reactions of one `all` share.
///
/// Sendable: `remaining` and `values` are touched only under `lock` (in `AllElementJob.react`); the
/// other fields are set in init and never change.
final class AllState<T: Sendable, U: Sendable>: @unchecked Sendable {
    let lock = Locked(())
    var remaining: Int
    var values: [T?]
    let result: Promise<U>
    let promises: [Promise<T>]
    let cancelsOthers: Bool
    let map: @Sendable ([T]) throws -> U

    init(result: Promise<U>, promises: [Promise<T>], cancelsOthers: Bool, map: @escaping @Sendable ([T]) throws -> U) {
        self.remaining = promises.count
        self.values = [T?](repeating: nil, count: promises.count)
        self.result = result
        self.promises = promises
        self.cancelsOthers = cancelsOthers
        self.map = map
    }
}

/// The reaction of `all` to one input: one object per input, no closure.
///
/// Sendable: every field is a `let` (`state` guards its own). It says `@unchecked` only because its
/// superclass does, and Swift makes a subclass restate that.
final class AllElementJob<T: Sendable, U: Sendable>: ReactionJob, @unchecked Sendable {
    let source: Promise<T>
    let index: Int
    let state: AllState<T, U>
    let step: @Sendable (AllElementJob<T, U>) -> Void

    init(source: Promise<T>, index: Int, state: AllState<T, U>, execRef: ExecutorRef,
         step: @escaping @Sendable (AllElementJob<T, U>) -> Void) {
        self.source = source
        self.index = index
        self.state = state
        self.step = step
        super.init(execRef: execRef)
    }

    override func run() { step(self) }

    override func observedJob(isTask: Bool) -> PromiseJob {
        PromiseJob(key: ObjectIdentifier(self), kind: .observer, source: source.id, target: 0, isTask: isTask)
    }

    @inline(__always)
    func react() {
        guard let r = source.settledResult else { return }
        let s = state
        switch r {
        case .success(let v):
            let done: [T]? = s.lock.withLock { _ in
                s.values[index] = v
                s.remaining -= 1
                return s.remaining == 0 ? s.values.map { $0! } : nil
            }
            if let done, s.result.isPending { s.result.settle(Result { try s.map(done) }) }
        case .failure(let e):
            if s.result.settle(.failure(e)), s.cancelsOthers {
                Promise<T>.releaseOthers(s.promises, except: index, reason: "cancelled: a sibling in all rejected")
            }
        }
    }
}
