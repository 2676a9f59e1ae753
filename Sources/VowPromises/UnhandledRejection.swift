/// Unhandled rejections, as node finds them: a promise that rejects with no reaction attached is
/// possibly unhandled; if it still has none once its serial executor has run every job that was
/// ready (node's check after each drain of the microtask queue), it is unhandled, and the
/// executor's `unhandledRejectionHandler` is told.
///
/// Only promises that were tracked (`trackUnhandledRejection`) are listed: a program names the
/// promises nobody else can wait for (a variable bound to a promise), so that the promises a
/// library makes and waits for in its own way never raise a false report. What it costs every
/// promise is a byte beside its phase, set when a reaction is attached.
public enum UnhandledRejection {
    /// A reaction was attached once (or the promise was marked handled).
    static let handledBit: UInt8 = 1
    /// A rejection with no reaction is listed.
    static let trackedBit: UInt8 = 2
    /// Listed on the executor, waiting for the check.
    static let listedBit: UInt8 = 4
    /// Not a rejection bit, but kept in the same byte: the promise stands for a thenable whose
    /// `then` has not been called yet (`Promise.thenable`).
    static let thenableBit: UInt8 = 8
    /// The bits a rejection reads: tracked and not handled.
    static let watchedBits: UInt8 = handledBit | trackedBit
}

extension Promise {
    /// Lists this promise on its serial executor if it rejects before any reaction is attached,
    /// so that the executor's `unhandledRejectionHandler` hears of it unless a reaction comes
    /// before the jobs ready then have run. A promise on another kind of executor is never listed.
    /// A promise that has already rejected with no reaction is listed at once.
    public final func trackUnhandledRejection() {
        let listed = lock.withLock { () -> Bool in
            rejectionFlags |= UnhandledRejection.trackedBit
            guard phase == 2, rejectionFlags & UnhandledRejection.watchedBits == UnhandledRejection.trackedBit,
                rejectionFlags & UnhandledRejection.listedBit == 0
            else { return false }
            rejectionFlags |= UnhandledRejection.listedBit
            return true
        }
        if listed { execRef.serialExecutor?.notePossiblyUnhandled(self) }
    }

    /// Counts as a reaction for the check: something waits on this promise in its own way (it
    /// reads the outcome when it needs it).
    public final func markHandled() {
        let listed = lock.withLock { () -> Bool in
            let listed = rejectionFlags & UnhandledRejection.listedBit != 0
            rejectionFlags = (rejectionFlags | UnhandledRejection.handledBit) & ~UnhandledRejection.listedBit
            return listed
        }
        if listed { execRef.serialExecutor?.noteHandled(self) }
    }

    /// True once a reaction was attached (or `markHandled` called).
    public final var isHandled: Bool {
        lock.withLock { rejectionFlags & UnhandledRejection.handledBit != 0 }
    }
}
