/// Adoption: a promise settles as another one does, two executor turns later, as in
/// JavaScript.
extension Promise {
    /// Settles `child` with the handler's returned promise: adopts it, two turns later.
    static func adopt<U>(_ child: Promise<U>, _ inner: Promise<U>, on executor: ExecutorRef) {
        if inner === child {
            child.settle(.failure(PromiseCycleError()))
            return
        }
        // A thenable that is not a promise: one job calls its `then` with the child's resolve
        // functions, and that `then` settles the child (no attaching, no second turn).
        if inner.callThenable(for: child) { return }
        guard child.setUpstream(inner) else {
            // The adopter was cancelled while its handler ran: nothing waits for `inner` now.
            inner.releaseAsDependent(reason: child.cancellationReason ?? "cancelled")
            return
        }
        let childID = child.observedID
        if childID != 0 {
            let state: SettledState
            switch inner.result {
            case nil: state = .pending
            case .success: state = .fulfilled
            case .failure(let e): state = e is PromiseCancelledError ? .cancelled : .rejected
            }
            PromiseObservation.emit(.adopted(id: childID, adopted: inner.id, adoptedState: state))
        }
        // JavaScript's PromiseResolveThenableJob: one turn to call `then` on the inner promise,
        // one more for that reaction to run.
        executor.enqueue(AdoptJob(inner: inner, child: child, execRef: executor, attached: false, step: { $0.react() }))
    }

    /// Settles `target` as this promise settles, on `executor`: the adoption step.
    final func forward(to target: Promise<T>, on executor: ExecutorRef) {
        addReaction(AdoptJob(inner: self, child: target, execRef: executor, attached: true, step: { $0.react() }), dependent: false)
    }
}
