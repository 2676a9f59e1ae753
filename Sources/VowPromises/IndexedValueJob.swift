/// What takes the values `IndexedValueJob`s deliver: a stage that settles many elements itself
/// (`each` over elements whose values it has at once).
public protocol IndexedValueReceiver: AnyObject, Sendable {
    /// The type of the values delivered.
    associatedtype Delivered: Sendable
    /// Takes the value of element `index`; called on the executor the job was queued on.
    func receive(_ index: Int, _ value: Delivered)
}

extension IndexedValueReceiver {
    /// Queues the delivery of `value` to this receiver as element `index` on `executor`
    /// (`IndexedValueJob`): `receive` runs where the reaction to an already fulfilled promise
    /// would.
    public func enqueueDelivery(_ value: Delivered, index: Int, on executor: any PromiseExecutor) {
        IndexedValueJob(receiver: self, index: index, value: value, on: executor).schedule()
    }
}

/// A job that hands a value to a receiver as element `index`, queued where the reaction to an
/// already fulfilled promise is queued: `Promise.resolve(v, on: ex).whenSettled(on: ex) { … }`
/// runs its callback in the same place in `ex`'s queue of jobs, so the turn is the same. One
/// object where that took three (the promise, its reaction and the callback's closure).
///
/// Not for a program under observation (a trace, `--turns`): there every promise is recorded,
/// and the caller makes the promise.
///
/// Sendable: every field is a `let` of a Sendable type. It says `@unchecked` only because its
/// superclass does, and Swift makes a subclass restate that.
final class IndexedValueJob<Receiver: IndexedValueReceiver>: ReactionJob, @unchecked Sendable {
    let receiver: Receiver
    let index: Int
    let value: Receiver.Delivered

    init(receiver: Receiver, index: Int, value: Receiver.Delivered, on executor: any PromiseExecutor) {
        self.receiver = receiver
        self.index = index
        self.value = value
        super.init(execRef: ExecutorRef(executor))
    }

    override func run() { receiver.receive(index, value) }
}
