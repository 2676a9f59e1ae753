/// The part of a promise that does not depend on its value type: identity, name, and the links
/// that cancellation walks.
///
/// Cancellation runs upstream: a cancelled promise cancels what it waits on, and that promise is
/// cancelled in turn once every promise that depends on it has been cancelled (a shared upstream
/// keeps running for its other dependents). The walk is a loop over a work list, never recursion,
/// so a chain of any length cancels in constant stack.
///
/// Sendable: it holds no state of its own; each subclass says what guards its fields.
public class AnyPromise: @unchecked Sendable {
    /// The id observers see (0 when no observer was installed at creation).
    public var id: Int { 0 }
    /// A name for debugging and tracing, e.g. the stage that made the promise.
    public var name: String? { nil }

    init() {}

    /// Runs this object as a job on an executor (a derived promise runs its handler).
    func run() {}

    /// This object as a job, for observers (a derived promise: the reaction that runs its
    /// handler).
    func observedJob(isTask: Bool) -> PromiseJob {
        PromiseJob(key: ObjectIdentifier(self), kind: .callback, source: 0, target: 0, isTask: isTask)
    }

    /// False for a job that observers are not told of (`IndexedValueJob`'s for work that is
    /// not recorded item by item, `PromiseObservation.sparesLargeWork`); asked only while an
    /// observer is installed.
    var reportsToObservers: Bool { true }

    /// Enqueues this object as a job on its own executor.
    func schedule() { fatalError("abstract") }

    /// True until the promise settles.
    public var isPending: Bool { fatalError("abstract") }

    /// Rejects this promise with a cancellation error if it is pending, runs its cancel handlers,
    /// and returns the promises it was waiting on.
    func cancelLocally(reason: String) -> [AnyPromise] { fatalError("abstract") }

    /// Records that one dependent was cancelled; true when none is left that still waits.
    func dependentWasCancelled() -> Bool { fatalError("abstract") }

    /// Records one more dependent (a promise that waits on this one).
    func addDependent() { fatalError("abstract") }

    /// Cancels this promise and, upstream, every promise that no longer has a live dependent.
    ///
    /// A settled promise ignores it. Its dependents reject with `PromiseCancelledError`.
    public func cancel(reason: String = "cancelled") {
        var work = cancelLocally(reason: reason)
        while let next = work.popLast() {
            if next.dependentWasCancelled() {
                work.append(contentsOf: next.cancelLocally(reason: reason))
            }
        }
    }

    /// Counts one dependent that is never cancelled, so that cancelling the promises derived
    /// from this one no longer cancels it (a promise bound to a name, which several statements
    /// may chain on). Cancelling this promise itself still works.
    public func holdAgainstCancellation() {
        addDependent()
    }

    /// Gives up on this promise as a dependent that never got to attach would: cancels it (and
    /// what it waits on) unless something else still depends on it (a promise bound to a name
    /// is held, so giving up on it cancels nothing).
    public func abandon(reason: String = "cancelled") {
        addDependent()
        releaseAsDependent(reason: reason)
    }

    /// Cancels as a dependent would: only when this promise has no other live dependent.
    /// Combinators use it for siblings they no longer need.
    public func releaseAsDependent(reason: String = "cancelled") {
        if dependentWasCancelled() { cancel(reason: reason) }
    }
}

/// A job that is not a promise (an observer, an adoption step, a closure): it runs on the
/// executor it names.
///
/// Sendable: its one field, `execRef`, is a `let` of a Sendable type. It says `@unchecked` only
/// because its superclass does, and Swift makes a subclass restate that.
class ReactionJob: AnyPromise, @unchecked Sendable {
    let execRef: ExecutorRef?
    init(execRef: ExecutorRef?) {
        self.execRef = execRef
        super.init()
    }
    override func schedule() { execRef!.enqueue(self) }
}
