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
    case adopted(id: Int, adopted: Int)
    /// The promise was cancelled (it rejects with a cancellation error right after).
    case cancelled(id: Int)
    /// A promise made elsewhere was given attributes afterwards (e.g. the interpreter names the
    /// promise a stage returned as that stage's).
    case labelled(id: Int, attributes: any Sendable)
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

    /// Attaches `attributes` to a promise that already exists; observers see `.labelled`.
    public static func label(_ promise: AnyPromise, _ attributes: any Sendable) {
        guard isActive, promise.id != 0 else { return }
        emit(.labelled(id: promise.id, attributes: attributes))
    }

    static func takeID() -> Int {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    static func emit(_ event: PromiseEvent) {
        guard let observer = current.withLock({ $0 }) else { return }
        observer.promiseEvent(event)
    }
}
