import Synchronization

/// A value that arrives later, or an error: JavaScript's Promise, typed.
///
/// A promise is pending, then settles exactly once, fulfilled with a `T` or rejected with an
/// error. Handlers attached with `then`, `recover`, `finally`, `tap` or `whenSettled` never run
/// inside the call that attaches them, even on a settled promise: they run as jobs on an executor
/// (by default `PromiseExecutors.main`, a serial executor), in the order they were attached.
///
/// A handler that returns a promise makes the derived promise adopt it: the chain waits, and
/// settles as the returned promise does. Adoption costs two executor turns, as it does in
/// JavaScript, so that a program prints in the same order as its JavaScript twin.
///
/// All methods are thread-safe. A derived promise is itself the job that runs its handler, so a
/// `then` hop allocates one object (and the handler's captures, if any).
///
/// Sendable: every field that changes is touched under `lock` (a `SpinLock`), and `execRef` never
/// changes. `phase` and `slot` never change once settled, so `settledResult` reads them without the
/// lock, in a reaction scheduled after settling (by `settle`, or by `addReaction` under the lock).
/// The fields are `@exclusivity(unchecked)` for speed, so the compiler checks none of this.
public class Promise<T: Sendable>: AnyPromise, @unchecked Sendable {
    /// The executor handlers run on when the caller names none.
    final let execRef: ExecutorRef
    /// What few promises need: id and name, more reactions, more upstream, cancel handlers.
    /// Under `lock`.
    @exclusivity(unchecked) final var extra: PromiseRareState?
    /// Guards the fields around it.
    final let lock = SpinLock()
    /// 0 while pending, 1 once fulfilled, 2 once rejected: what `slot` holds. Under `lock`;
    /// immutable once settled.
    @exclusivity(unchecked) final var phase: UInt8 = 0
    /// `UnhandledRejection`'s bits: a reaction was attached once (`handledBit`), a rejection with
    /// none is reported (`trackedBit`), it waits on its executor's list (`listedBit`). Under
    /// `lock`; a byte that fits beside `phase`, so a promise is no bigger for it.
    @exclusivity(unchecked) final var rejectionFlags: UInt8 = 0
    /// Promises that wait on this one (saturating: a promise with 65,535 dependents is never
    /// cancelled by theirs). Under `lock`.
    @exclusivity(unchecked) final var dependents: UInt16 = 0
    /// The first reaction (further ones are in `extra`). Under `lock`.
    @exclusivity(unchecked) final var first: AnyPromise? = nil
    /// While pending, what this promise waits on, for cancellation (further upstream promises
    /// are in `extra`); once settled, its value or its error. Under `lock`; immutable once
    /// settled.
    @exclusivity(unchecked) final var slot: PromiseSlot

    /// The id observers see (0 when no observer was installed at creation).
    public final override var id: Int { lock.withLock { extra?.id ?? 0 } }
    /// A name for tracing, e.g. the stage that made the promise: recorded only when an observer
    /// was installed as the promise was made, nil otherwise.
    public final override var name: String? { lock.withLock { extra?.name } }

    /// The id, for an event: 0 (and no lock taken) while no observer is installed.
    @inline(__always)
    final var observedID: Int { PromiseObservation.isActive ? id : 0 }

    /// The executor handlers run on when the caller names none.
    public final var executor: any PromiseExecutor { execRef.executor }

    /// A promise waiting on `parent` (nil for a source), which must count it as a dependent.
    /// It tells no observer: the maker calls `announce` once it is made (attributes, an
    /// existential, are only handled then, and only while an observer is installed).
    init(name: __shared String?, execRef: ExecutorRef, parent: __shared AnyPromise?) {
        self.execRef = execRef
        self.slot = PromiseSlot(reference: parent)
        // The name is for traces: kept only while an observer is installed, so that naming a
        // promise costs nothing (no allocation) the rest of the time.
        if PromiseObservation.isActive {
            self.extra = PromiseRareState(id: PromiseObservation.takeID(), name: name)
        }
        super.init()
    }

    /// A promise no observer sees (no id, no events): what stands for a thenable that a handler
    /// returns, which is no promise in JavaScript (`Promise.thenable`).
    init(unobservedOn execRef: ExecutorRef) {
        self.execRef = execRef
        self.slot = PromiseSlot(reference: nil)
        super.init()
    }

    /// Tells observers that this promise was made, waiting on `parent`; nothing while no
    /// observer is installed.
    @inline(__always)
    final func announce(parent: AnyPromise?, name: String?, attributes: @autoclosure () -> (any Sendable)?) {
        if PromiseObservation.isActive { announceObserved(parents: parent.map { [$0] } ?? [], name: name, attributes: attributes()) }
    }

    /// `announce`, for a promise waiting on several.
    @inline(never)
    final func announceObserved(parents: [AnyPromise], name: String?, attributes: (any Sendable)?) {
        let id = observedID
        if id != 0 {
            PromiseObservation.emit(.created(id: id, parents: parents.map(\.id), name: name, attributes: attributes))
        }
    }

    deinit {
        switch phase {
        case 0: _ = slot.exchangeReference(nil)
        case 1: slot.destroy(T.self)
        default: slot.destroy((any Error).self)
        }
    }

    // MARK: State

    /// The outcome, or nil while pending.
    public final var result: Result<T, any Error>? {
        lock.withLock { settledResult }
    }

    /// True until the promise settles.
    public final override var isPending: Bool {
        lock.withLock { isPendingUnlocked }
    }

    /// The outcome of a promise known to have settled (its reaction is running), read without
    /// the lock: a settled promise's state never changes again.
    @inline(__always)
    final var settledResult: Result<T, any Error>? {
        switch phase {
        case 0: return nil
        case 1: return .success(slot.load(T.self))
        default: return .failure(slot.load((any Error).self))
        }
    }

    /// True while pending; under `lock`.
    @inline(__always)
    final var isPendingUnlocked: Bool { phase == 0 }

    /// Records the outcome, under `lock`, of a pending promise; hands back what it waited on,
    /// for the caller to release once the lock is let go.
    @inline(__always)
    final func record(_ result: Result<T, any Error>) -> AnyPromise? {
        let up = slot.exchangeReference(nil)
        switch result {
        case .success(let v):
            slot.initialize(v)
            phase = 1
        case .failure(let e):
            slot.initialize(error: e)
            phase = 2
        }
        return up
    }

    @inline(__always)
    final func makeExtra() -> PromiseRareState {
        if let e = extra { return e }
        let e = PromiseRareState()
        extra = e
        return e
    }

    // MARK: Overrides of AnyPromise
    //
    // Here because Swift allows an override only in the class body, not in an extension: the
    // rest of settling is in Promise+Settling.swift, of cancellation in Promise+Cancellation.swift.

    /// Schedules this promise as a job (a derived promise running its handler).
    override final func schedule() { execRef.enqueue(self) }

    override final func cancelLocally(reason: String) -> [AnyPromise] {
        var first: AnyPromise? = nil
        var upstream: AnyPromise? = nil
        var more: PromiseRareState.Taken? = nil
        let result: Result<T, any Error> = .failure(PromiseCancelledError(reason: reason))
        let done = lock.withLock { () -> Bool in
            guard isPendingUnlocked else { return false }
            swap(&first, &self.first)
            upstream = record(result)
            if let e = extra { more = e.take(); if !e.hasMeta { extra = nil } }
            return true
        }
        guard done else { return [] }
        let id = observedID
        if id != 0 { PromiseObservation.emit(.cancelled(id: id)) }
        dispatch(result, first, more)
        var ups: [AnyPromise] = []
        if let more {
            more.cancelHandler?()
            ups = more.upstream
        }
        if let upstream { ups.append(upstream) }
        return ups
    }

    /// A derived promise as a job: the reaction that runs its handler on its parent's outcome.
    override final func observedJob(isTask: Bool) -> PromiseJob {
        let parent = lock.withLock { isPendingUnlocked ? slot.reference : nil }
        return PromiseJob(key: ObjectIdentifier(self), kind: .reaction, source: parent?.id ?? 0, target: id, isTask: isTask)
    }

    override final func dependentWasCancelled() -> Bool {
        lock.withLock {
            guard isPendingUnlocked else { return false }
            let e = makeExtra()
            e.cancelledDependents &+= 1
            return dependents != .max && e.cancelledDependents >= UInt32(dependents)
        }
    }

    override final func addDependent() {
        lock.withLock { if dependents != .max { dependents &+= 1 } }
    }
}
