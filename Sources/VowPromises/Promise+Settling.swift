// This file's name sorts before Promise+Then.swift's, and the compiler takes a module's files in
// name order: optimizing `settle` before the handlers that call it, it inlines the lock section
// into their specializations of it too (`Promise<Void>`'s, in `finally` and `delay`).

/// Settling: the outcome is recorded once and the reactions attached so far are scheduled, in
/// the order they were attached (internal: the Resolver is the public way).
extension Promise {
    /// Settles once; later calls return false and change nothing.
    @discardableResult
    final func settle(_ result: Result<T, any Error>) -> Bool {
        var first: AnyPromise? = nil
        var more: PromiseRareState.Taken? = nil
        var upstream: AnyPromise? = nil
        var unhandled = false
        let done = lock.withLock { () -> Bool in
            guard isPendingUnlocked else { return false }
            swap(&first, &self.first)
            upstream = record(result)
            if let e = extra { more = e.take(); if !e.hasMeta { extra = nil } }
            // A tracked promise that rejects with no reaction ever attached (a plain rejection
            // check: untracked promises pay one load of a byte already in the cache line).
            if rejectionFlags & UnhandledRejection.watchedBits == UnhandledRejection.trackedBit, phase == 2 {
                rejectionFlags |= UnhandledRejection.listedBit
                unhandled = true
            }
            return true
        }
        guard done else { return false }
        if unhandled { execRef.serialExecutor?.notePossiblyUnhandled(self) }
        dispatch(result, first, more)
        withExtendedLifetime(upstream) {}  // released here, not under the lock
        return true
    }

    /// After settling: tells observers, and schedules the reactions in attachment order.
    @inline(__always)
    final func dispatch(_ result: Result<T, any Error>, _ first: AnyPromise?, _ more: PromiseRareState.Taken?) {
        if PromiseObservation.isActive {
            let id = self.id
            if id != 0 {
                switch result {
                case .success(let v): PromiseObservation.emit(.fulfilled(id: id, value: v))
                case .failure(let e): PromiseObservation.emit(.rejected(id: id, error: e))
                }
            }
        }
        first?.schedule()
        if let more { for r in more.reactions { r.schedule() } }
    }

    /// Adds a reaction job, or schedules it at once if settled; `dependent` counts it as a
    /// promise that waits on this one.
    @inline(__always)
    final func addReaction(_ job: AnyPromise, dependent: Bool) {
        var listed = false
        var thenable = false
        let settled = lock.withLock { () -> Bool in
            if dependent, dependents != .max { dependents &+= 1 }
            listed = rejectionFlags & UnhandledRejection.listedBit != 0
            thenable = rejectionFlags & UnhandledRejection.thenableBit != 0
            rejectionFlags = (rejectionFlags | UnhandledRejection.handledBit) & ~UnhandledRejection.listedBit
            guard isPendingUnlocked else { return true }
            if first == nil {
                first = job
            } else {
                makeExtra().moreReactions.append(job)
            }
            return false
        }
        if listed { execRef.serialExecutor?.noteHandled(self) }
        // A thenable waited on as a promise is `Promise.resolve(thenable)`: its `then` is called
        // for it, in a job of its own.
        if thenable { callThenable(for: self) }
        if settled { job.schedule() }
    }

    /// For a derived promise about to run its handler: the promise it waits on, or nil when it
    /// has settled already (it was cancelled).
    @inline(__always)
    final func parentForRun() -> AnyPromise? {
        lock.withLock { isPendingUnlocked ? slot.reference : nil }
    }
}
