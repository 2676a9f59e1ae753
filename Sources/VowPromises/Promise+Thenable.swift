/// Thenables: objects with a `then` method that are not promises. A promise resolved with one
/// does not adopt it as it adopts a promise: one job (JavaScript's NewPromiseResolveThenableJob)
/// calls its `then` with the promise's resolve functions, and the promise settles as that
/// `then` resolves it, in that job when it resolves at once.
extension Promise {
    /// A promise that stands for a thenable whose `then` is `then`: called, in a job of its own,
    /// with the resolver of the promise resolved with the thenable.
    ///
    /// Returned by a handler, it is the thenable the handler returned: the derived promise is
    /// resolved with it (`adopt`), and no observer sees it (`observed` false). Otherwise it is
    /// `Promise.resolve(thenable)`: with `callsNow`, or once something waits on it, the job that
    /// calls `then` for it is queued.
    public static func thenable(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: any PromiseExecutor,
        observed: Bool, callsNow: Bool, _ then: @escaping @Sendable (Resolver<T>) -> Void
    ) -> Promise<T> {
        let execRef = ExecutorRef(executor)
        let p = observed ? Promise(name: name, execRef: execRef, parent: nil) : Promise(unobservedOn: execRef)
        if observed { p.announce(parent: nil, name: name, attributes: attributes()) }
        p.lock.withLock {
            p.makeExtra().thenable = ThenableCall(then: then)
            p.rejectionFlags |= UnhandledRejection.thenableBit
        }
        if callsNow { p.callThenable(for: p) }
        return p
    }

    /// When this promise stands for a thenable whose `then` was not called yet: queues the job
    /// that calls it with `target`'s resolver, and returns true. False for any other promise.
    @discardableResult
    final func callThenable(for target: Promise<T>) -> Bool {
        let call = lock.withLock { () -> ThenableCall<T>? in
            guard rejectionFlags & UnhandledRejection.thenableBit != 0 else { return nil }
            rejectionFlags &= ~UnhandledRejection.thenableBit
            defer { extra?.thenable = nil }
            return extra?.thenable as? ThenableCall<T>
        }
        guard let call else { return false }
        execRef.enqueue(ThenableJob(target: target, call: call, execRef: execRef))
        return true
    }
}

/// The `then` of a thenable, typed by the promise it resolves.
/// A class, so that the promise's rarely used state holds it in one word.
final class ThenableCall<T: Sendable>: Sendable {
    let then: @Sendable (Resolver<T>) -> Void

    init(then: @escaping @Sendable (Resolver<T>) -> Void) { self.then = then }
}

/// JavaScript's NewPromiseResolveThenableJob for a thenable that is not a promise: calls its
/// `then` with `target`'s resolver.
///
/// Sendable: every field is a `let` of a Sendable type; `@unchecked` only because its
/// superclass says so.
final class ThenableJob<T: Sendable>: ReactionJob, @unchecked Sendable {
    let target: Promise<T>
    let call: ThenableCall<T>

    init(target: Promise<T>, call: ThenableCall<T>, execRef: ExecutorRef) {
        self.target = target
        self.call = call
        super.init(execRef: execRef)
    }

    /// Does nothing when `target` has settled meanwhile (it was cancelled).
    override func run() {
        guard target.isPending else { return }
        call.then(Resolver(target))
    }

    override func observedJob(isTask: Bool) -> PromiseJob {
        PromiseJob(key: ObjectIdentifier(self), kind: .thenable, source: 0, target: target.id, isTask: isTask)
    }
}
