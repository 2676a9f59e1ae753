extension Promise {
    /// A promise that settles in the same instant as this one, with the outcome passed through
    /// `transform`: no job, no turn. For a host that reshapes an outcome without changing when
    /// anything runs (the keys of a keyed `all`, an error given its origin), which a `then`
    /// would delay by one turn. `transform` runs on whatever thread settles this promise, so it
    /// must only compute. Cancelling the transformed promise cancels this promise as a `then` would.
    public func transformedAtOnce<U>(
        name: String? = nil, _ transform: @escaping @Sendable (Result<T, any Error>) -> Result<U, any Error>
    ) -> Promise<U> {
        let child = Promise<U>(name: name, executor: executor, parent: self)
        addReaction(TransformJob(source: self, child: child, transform: transform), dependent: false)
        return child
    }

    /// Calls `body` in the instant this promise settles, as `transformedAtOnce` does, without counting as a
    /// promise that waits on it: watching a promise (`WorkInFlight`) must not keep it from being
    /// cancelled once everything that does wait on it has been.
    func watch(_ body: @escaping @Sendable () -> Void) {
        let child = Promise<T>(name: nil, execRef: execRef, parent: self)
        child.announce(parent: self, name: nil, attributes: nil)
        addReaction(TransformJob(source: self, child: child, transform: { r in body(); return r }), dependent: false)
    }
}

/// `transformedAtOnce`'s reaction: it runs in the instant its source settles, on the settling thread,
/// instead of being scheduled on an executor.
///
/// Sendable: every field is a `let` of a Sendable type. It says `@unchecked` only because its
/// superclass does, and Swift makes a subclass restate that.
final class TransformJob<T: Sendable, U: Sendable>: ReactionJob, @unchecked Sendable {
    let source: Promise<T>
    let child: Promise<U>
    let transform: @Sendable (Result<T, any Error>) -> Result<U, any Error>

    init(source: Promise<T>, child: Promise<U>, transform: @escaping @Sendable (Result<T, any Error>) -> Result<U, any Error>) {
        self.source = source
        self.child = child
        self.transform = transform
        super.init(execRef: nil)
    }

    override func schedule() {
        if let r = source.settledResult { child.settle(transform(r)) }
    }
}
