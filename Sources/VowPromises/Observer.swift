import Synchronization

/// Something that happened to a promise, as an observer sees it.
public enum PromiseEvent: Sendable {
    /// A promise was created. `parents` are the promises it waits on (its upstream).
    case created(id: Int, parents: [Int], name: String?, attributes: (any Sendable)?)
    /// A handler was attached to promise `id`, deriving promise `child` (0 when it derives none).
    case handlerAttached(id: Int, child: Int)
    /// The promise fulfilled with a value.
    case fulfilled(id: Int, value: any Sendable)
    /// The promise rejected.
    case rejected(id: Int, error: any Error)
    /// The promise adopted another: it now waits on `adopted` and will settle as it does.
    /// `adoptedState` is how `adopted` stood then, told even when no event of it was seen (a
    /// promise made before observing began).
    case adopted(id: Int, adopted: Int, adoptedState: SettledState)
    /// The promise was cancelled (it rejects with a cancellation error right after).
    case cancelled(id: Int)
    /// A timer was set that fulfils promise `id` (`delay`) after `milliseconds`, as node reads
    /// the wait (at least 1).
    case timerSet(id: Int, milliseconds: Double)
    /// A promise made elsewhere was given attributes afterwards (e.g. the interpreter names the
    /// promise a stage returned as that stage's). With id 0 the attributes are a note about
    /// the run, not about one promise (`PromiseObservation.note`).
    case labelled(id: Int, attributes: any Sendable)
    /// A job was put on a serial executor's queue: a microtask (a reaction), or a task (a
    /// timer's callback, an I/O outcome) when `job.isTask`.
    case jobQueued(PromiseJob)
    /// A job that was queued begins to run: one turn of the event loop.
    case jobStarted(PromiseJob)
    /// The program wrote `text` to its output. Not the promise core's: an interpreter reports it
    /// (`PromiseObservation.noteOutput`), so that a record of events tells which job wrote what.
    case output(String)
}

/// How a promise stands.
public enum SettledState: String, Sendable {
    case pending, fulfilled, rejected, cancelled
}

/// A job of a serial executor as observers see it: what kind of step it is and the promises it
/// joins. Two events with the same `key` are the same job, queued and then started.
public struct PromiseJob: Sendable {
    /// What the job does.
    public enum Kind: String, Sendable {
        /// Runs the handler of promise `target` (a `then`, `catch`, `finally`…), which reacts to
        /// the outcome of `source`.
        case reaction
        /// JavaScript's PromiseResolveThenableJob: promise `target` adopts promise `source`, and
        /// this turn only attaches to it.
        case adoptThen = "adopt-then"
        /// The adopted promise `source` settled: this turn settles `target` likewise.
        case adoptSettle = "adopt-settle"
        /// JavaScript's NewPromiseResolveThenableJob for a thenable that is not a promise (an
        /// object with a `then` method): calls its `then` with the resolve functions of promise
        /// `target`, which settles as that `then` resolves it (`source` is 0: a thenable is no
        /// promise).
        case thenable
        /// An observer of `source` that derives no promise (a combinator counting its inputs,
        /// `each` waiting for an element, or, with `isOwn`, an interpreter waiting for a
        /// statement's result).
        case observer
        /// A callback: a timer that fired, an I/O outcome, a closure.
        case callback
    }
    /// Identifies the job between its `jobQueued` and `jobStarted` events (unique while queued).
    public let key: ObjectIdentifier
    /// What it does.
    public let kind: Kind
    /// The promise whose outcome it reacts to, 0 when none or not observed.
    public let source: Int
    /// The promise it settles, 0 when none or not observed.
    public let target: Int
    /// True for a task (a macrotask: it runs once no microtask is ready).
    public let isTask: Bool
    /// True for an observer that is the runtime's own bookkeeping (an interpreter waiting for a
    /// statement's result to print it, a timer cancelled once its promise settles): a step the
    /// program's JavaScript twin does not take, where a combinator's or `each`'s observer of an
    /// input is the reaction the twin's `then` takes.
    public let isOwn: Bool

    /// Describes a job.
    public init(key: ObjectIdentifier, kind: Kind, source: Int, target: Int, isTask: Bool, isOwn: Bool = false) {
        self.key = key
        self.kind = kind
        self.source = source
        self.target = target
        self.isTask = isTask
        self.isOwn = isOwn
    }
}

/// Receives every promise event while installed. Called synchronously, from any thread: an
/// observer must be thread-safe and quick.
public protocol PromiseObserver: Sendable {
    /// Called once per event, in the order the events happen on the calling thread.
    func promiseEvent(_ event: PromiseEvent)
}

/// Installs and removes the process-wide promise observer.
///
/// With no observer installed an event costs one relaxed atomic load and a branch: promises do
/// not even take an id. Promises created while an observer is installed get ids counting up
/// from 1; earlier ones report id 0.
public enum PromiseObservation {
    private static let active = Atomic<Bool>(false)
    private static let current = Locked<(any PromiseObserver)?>(nil)
    private static let nextID = Atomic<Int>(1)

    /// Installs `observer`, replacing any other, and restarts ids at 1.
    public static func install(_ observer: any PromiseObserver) {
        current.withLock { $0 = observer }
        nextID.store(1, ordering: .relaxed)
        active.store(true, ordering: .releasing)
    }

    /// Removes the observer; events stop.
    public static func remove() {
        active.store(false, ordering: .releasing)
        current.withLock { $0 = nil }
    }

    /// True while an observer is installed.
    @inline(__always)
    public static var isActive: Bool { active.load(ordering: .relaxed) }

    private static let spares = Atomic<Bool>(false)

    /// True when the installed observer is content with the promises of small work: large work
    /// (`smallWork`) may then take a path that makes no promise an item, as it does with no
    /// observer, and says so (`UnrecordedWork`). The REPL, which records every statement for
    /// `:timeline`, sets it; a trace, `--turns`, `:step` and a page want every promise and
    /// clear it. False unless set.
    public static var sparesLargeWork: Bool {
        get { spares.load(ordering: .relaxed) }
        set { spares.store(newValue, ordering: .relaxed) }
    }

    /// The most items (a list's elements, a document's kilobytes) that work may have and still
    /// be recorded promise by promise when the observer spares large work.
    public static let smallWork = 1000

    /// True when work of `items` items is to make and report its promises one by one: an
    /// observer is installed, and it wants every promise or the work is small. False with no
    /// observer, where the work takes its quickest path.
    @inline(__always)
    public static func records(items: Int) -> Bool {
        isActive && (items <= smallWork || !sparesLargeWork)
    }

    /// True when work whose size is not known beforehand (the items of a stream) is to make and
    /// report its promises one by one: an observer is installed that wants every promise.
    @inline(__always)
    public static var recordsEveryPromise: Bool { isActive && !sparesLargeWork }

    /// Attaches `attributes` to a promise that already exists; observers see `.labelled`.
    public static func label(_ promise: AnyPromise, _ attributes: any Sendable) {
        guard isActive, promise.id != 0 else { return }
        emit(.labelled(id: promise.id, attributes: attributes))
    }

    /// Tells the observer something about the run that no one promise carries (work that
    /// made no promise an item, `sparesLargeWork`), as `.labelled` with id 0.
    public static func note(_ attributes: any Sendable) {
        guard isActive else { return }
        emit(.labelled(id: 0, attributes: attributes))
    }

    /// Reports text the program wrote to its output (`PromiseEvent.output`), while an observer
    /// is installed.
    public static func noteOutput(_ text: String) {
        guard isActive else { return }
        emit(.output(text))
    }

    /// Reports that `job` was queued; `isTask` for a task.
    @inline(never)
    static func jobQueued(_ job: AnyPromise, isTask: Bool) {
        emit(.jobQueued(job.observedJob(isTask: isTask)))
    }

    /// Reports that `job` begins to run.
    @inline(never)
    static func jobStarted(_ job: AnyPromise, isTask: Bool) {
        emit(.jobStarted(job.observedJob(isTask: isTask)))
    }

    static func takeID() -> Int {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    static func emit(_ event: PromiseEvent) {
        guard let observer = current.withLock({ $0 }) else { return }
        observer.promiseEvent(event)
    }
}
