/// A job that hands a value to a receiver as element `index`'s fulfilment, queued where the
/// reaction to an already fulfilled promise is queued: `Promise.resolve(v, on: ex).whenSettled(on:
/// ex) { … }` runs its callback in the same place in `ex`'s queue of jobs, so the turn is the
/// same. One object where that took three (the promise, its reaction and the callback's closure).
///
/// Not for a program under observation (a trace, `--turns`): there every promise is recorded,
/// and the caller makes the promise.
///
/// Sendable: every field is a `let` of a Sendable type. It says `@unchecked` only because its
/// superclass does, and Swift makes a subclass restate that.
final class IndexedValueJob<Receiver: IndexedSettlementReceiver>: ReactionJob, @unchecked Sendable {
    let receiver: Receiver
    let index: Int
    let value: Receiver.Settled
    /// Observers are not told of the job (`enqueueDelivery(quiet:)`).
    let quiet: Bool

    init(receiver: Receiver, index: Int, value: Receiver.Settled, on executor: any PromiseExecutor, quiet: Bool) {
        self.receiver = receiver
        self.index = index
        self.value = value
        self.quiet = quiet
        super.init(execRef: ExecutorRef(executor))
    }

    override func run() { receiver.fulfilled(index, value) }
    override var reportsToObservers: Bool { !quiet }
}

/// What takes the outcomes of many elements: those `Promise.whenSettled(on:tell:index:)`
/// reports, and the values `enqueueDelivery` hands over (`each`).
public protocol IndexedSettlementReceiver: AnyObject, Sendable {
    /// The type of the elements' values.
    associatedtype Settled: Sendable
    /// Takes the outcome of element `index`; called on the executor given.
    func settled(_ index: Int, _ result: Result<Settled, any Error>)
    /// Takes the value of element `index`, which fulfilled: what `settled` does with
    /// `.success(value)`. Its own entry so that a value delivered by `enqueueDelivery` needs no
    /// `Result` of a generic type made (whose type the runtime looked up for every element).
    func fulfilled(_ index: Int, _ value: Settled)
}

extension IndexedSettlementReceiver {
    /// Queues the fulfilment of element `index` with `value`, a value already had, on `executor`
    /// (`IndexedValueJob`): `settled` runs where the reaction to an already fulfilled promise
    /// would. When `quiet`, observers are not told of the job: the work is not recorded item by
    /// item (`PromiseObservation.sparesLargeWork`).
    public func enqueueDelivery(_ value: Settled, index: Int, on executor: any PromiseExecutor, quiet: Bool = false) {
        IndexedValueJob(receiver: self, index: index, value: value, on: executor, quiet: quiet).schedule()
    }
}

extension Promise {
    /// `whenSettled(on:)` for a receiver of many elements' outcomes: `receiver.settled(index, r)`
    /// runs on `executor` when this promise settles, in the turn `whenSettled`'s callback would
    /// run. One object where that took two (the reaction and the callback's closure).
    public func whenSettled<R: IndexedSettlementReceiver>(on executor: any PromiseExecutor, tell receiver: R, index: Int) where R.Settled == T {
        let id = observedID
        if id != 0 { PromiseObservation.emit(.handlerAttached(id: id, child: 0)) }
        addReaction(IndexedSettlementJob(source: self, receiver: receiver, index: index, execRef: ExecutorRef(executor)), dependent: false)
    }
}

/// The reaction of `whenSettled(on:tell:index:)`.
///
/// Sendable: every field is a `let` of a Sendable type. It says `@unchecked` only because its
/// superclass does, and Swift makes a subclass restate that.
final class IndexedSettlementJob<R: IndexedSettlementReceiver>: ReactionJob, @unchecked Sendable {
    let source: Promise<R.Settled>
    let receiver: R
    let index: Int

    init(source: Promise<R.Settled>, receiver: R, index: Int, execRef: ExecutorRef) {
        self.source = source
        self.receiver = receiver
        self.index = index
        super.init(execRef: execRef)
    }

    override func run() {
        if let r = source.settledResult { receiver.settled(index, r) }
    }

    override func observedJob(isTask: Bool) -> PromiseJob {
        PromiseJob(key: ObjectIdentifier(self), kind: .observer, source: source.id, target: 0, isTask: isTask)
    }
}
