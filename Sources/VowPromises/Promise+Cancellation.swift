/// Cancellation internals: cancel handlers, the upstream link that adoption replaces, and the
/// reason a cancelled promise gives. The overrides of `AnyPromise` that the cancellation walk
/// calls are in Promise.swift.
extension Promise {
    /// Registers work to stop when this promise is cancelled; runs it at once if it already was.
    final func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = lock.withLock {
            switch phase {
            case 0: break
            case 1: return false
            default: return slot.load((any Error).self) is PromiseCancelledError
            }
            makeExtra().addCancelHandler(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Replaces what this promise waits on (adoption), for cancellation to follow; false, and
    /// nothing replaced, when this promise has already settled (each of `promises` then counts
    /// this one as a dependent that has gone, for the caller to release).
    final func setUpstream(_ inner: AnyPromise) -> Bool {
        inner.addDependent()
        var replaced: AnyPromise? = nil
        let done = lock.withLock { () -> Bool in
            guard isPendingUnlocked else { return false }
            replaced = slot.exchangeReference(inner)
            if let e = extra, !e.moreUpstream.isEmpty { e.moreUpstream = [] }
            return true
        }
        withExtendedLifetime(replaced) {}  // released here, not under the lock
        return done
    }

    /// The reason this promise was cancelled with, or nil when it was not cancelled.
    final var cancellationReason: String? {
        guard case .failure(let e as PromiseCancelledError)? = result else { return nil }
        return e.reason
    }
}
