import Dispatch
import Synchronization

extension Promise {
    /// Fulfils with `value` after `seconds`. Cancelling it clears the timer.
    public static func delay(
        _ seconds: Double, value: T, name: String? = "delay",
        on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<T> {
        let (p, resolver) = Promise<T>.pending(name: name, on: executor)
        let observed = PromiseObservation.isActive ? p.id : 0
        let timer = OneShotTimer(after: seconds, on: p.execRef, fulfilling: observed) { resolver.fulfill(value) }
        if observed == 0 {
            // What the promise waits on: cancelling it cancels the timer, with no cancel handler
            // (a closure and the promise's rare state, 120 bytes a pending `delay`).
            _ = p.setUpstream(timer)
        } else {
            resolver.onCancel { timer.clear() }
        }
        if observed != 0 { PromiseObservation.emit(.timerSet(id: observed, milliseconds: timer.msecs)) }
        return p
    }

    /// Settles as this promise does, unless `seconds` pass first: then rejects with
    /// `PromiseTimeoutError` and cancels this promise (and so everything upstream of it). With
    /// `cancelsUpstream: false` it only rejects, and leaves this promise running.
    public func timeout(
        _ seconds: Double, name: String? = "timeout", on executor: (any PromiseExecutor)? = nil,
        cancelsUpstream: Bool = true
    ) -> Promise<T> {
        let ex = ref(executor)
        let result = Promise<T>(name: name, execRef: ex, parent: self)
        result.announce(parent: self, name: name, attributes: nil)
        self.addDependent()
        let timer = OneShotTimer(after: seconds, on: ex) { [weak result] in
            guard let result else { return }
            if result.settle(.failure(PromiseTimeoutError(seconds: seconds))), cancelsUpstream {
                self.releaseAsDependent(reason: "cancelled: timed out after \(formatSeconds(seconds))")
            }
        }
        result.onCancel { timer.clear() }
        self.forward(to: result, on: ex)
        result.whenSettled(on: ex.executor, bookkeeping: true) { _ in timer.clear() }
        return result
    }
}

/// How `retry` spaces its attempts.
public enum RetryBackoff: Sendable, Equatable {
    /// The same delay before every retry.
    case constant
    /// The delay doubles after every retry: d, 2d, 4d, …
    case exponential
}

extension Promise {
    /// Runs `attempt` until it fulfils, at most `attempts` times in all, waiting `delay` seconds
    /// (doubling with `.exponential`) between attempts. `shouldRetry` sees each error and may stop
    /// early by returning false; it may also return a different wait (e.g. from a Retry-After
    /// header) by returning a number of seconds. Rejects with the last error. Cancelling the
    /// result cancels the attempt under way, or the wait.
    public static func retry(
        attempts: Int, delay: Double = 0, backoff: RetryBackoff = .constant,
        name: String? = "retry", on executor: any PromiseExecutor = PromiseExecutors.main,
        shouldRetry: @escaping @Sendable (any Error, _ attempt: Int) -> RetryDecision = { _, _ in .retry },
        _ attempt: @escaping @Sendable (_ number: Int) -> Promise<T>
    ) -> Promise<T> {
        let (result, resolver) = Promise<T>.pending(name: name, on: executor)
        let current = Locked<AnyPromise?>(nil)
        resolver.onCancel {
            let c = current.withLock { $0 }
            c?.cancel()
        }
        @Sendable func run(_ n: Int, wait: Double) {
            let p = attempt(n)
            current.withLock { $0 = p }
            if !resolver.promise.isPending { p.cancel() }
            p.whenSettled(on: executor) { r in
                switch r {
                case .success:
                    resolver.settle(r)
                case .failure(let e):
                    if e is PromiseCancelledError || n >= attempts {
                        resolver.settle(r)
                        return
                    }
                    var pause = wait
                    switch shouldRetry(e, n) {
                    case .stop:
                        resolver.settle(r)
                        return
                    case .retry: break
                    case .retryAfter(let s): pause = max(s, 0)
                    }
                    let next = backoff == .exponential ? wait * 2 : wait
                    let timer = Promise<Void>.delay(pause, value: (), name: "retry-wait", on: executor)
                    current.withLock { $0 = timer }
                    timer.whenSettled(on: executor) { t in
                        if case .success = t, resolver.promise.isPending { run(n + 1, wait: next) }
                    }
                }
            }
        }
        run(1, wait: delay)
        return result
    }
}

/// What `retry` does after a failed attempt.
public enum RetryDecision: Sendable, Equatable {
    /// Retry after the configured delay.
    case retry
    /// Retry after this many seconds instead (e.g. an HTTP Retry-After).
    case retryAfter(Double)
    /// Give up and reject with this error.
    case stop
}

/// A one-shot timer that can really be cleared: cancelling it takes it out of the scheduler at
/// once (its callback is released and never runs) instead of leaving it queued until its deadline.
///
/// When it fires, its callback runs as a task on the executor it names (after every job that is
/// ready there). On a serial executor the timers follow node's rules (`TimerLists`): a wait under
/// 1 ms is 1 ms, timers start at the executor's loop time, and a pass over the due timers takes
/// them list by list, each list (one a duration) in the order its timers were set. On any other
/// executor one scheduler orders them by deadline, then by the order they were set.
///
/// Sendable: `fire` and the fields that place the timer (`start`, `list`, `next`, `prev`,
/// `heapIndex`) are touched only under the lock of whoever holds it (the serial executor, or
/// `TimerScheduler`); init sets `fire` before the timer is shared; the other fields never change.
final class OneShotTimer: AnyPromise, HeapPlaced, @unchecked Sendable {
    let execRef: ExecutorRef
    /// The observed promise the timer fulfils (`delay`), 0 for none: its task names it.
    let fulfilling: Int
    /// The wait in milliseconds, as node reads it (see `TimerLists.milliseconds`).
    let msecs: Double
    /// For `TimerScheduler`: the deadline in uptime nanoseconds, and the order set.
    let deadline: UInt64
    var sequence: UInt64 = 0
    /// The callback until the timer fires or is cleared.
    var fire: (@Sendable () -> Void)?
    /// In `TimerScheduler`'s heap: the place (-1 when out of it).
    var heapIndex = -1
    /// In a serial executor's `TimerLists`: the millisecond it started, its list, its neighbours
    /// (touched only under the executor's lock: no dynamic exclusivity checks).
    @exclusivity(unchecked) var start: Double = 0
    @exclusivity(unchecked) var list: TimerLists.List?
    @exclusivity(unchecked) var next: OneShotTimer?
    @exclusivity(unchecked) unowned(unsafe) var prev: OneShotTimer?

    /// Starts the timer; `fire` runs once, as a task on `executor`, after `seconds`.
    /// `fulfilling` is the observed promise it fulfils, if any.
    init(after seconds: Double, on executor: ExecutorRef, fulfilling: Int = 0, _ fire: @escaping @Sendable () -> Void) {
        self.fulfilling = fulfilling
        self.msecs = TimerLists.milliseconds(seconds)
        self.deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(msecs * 1e6)
        self.execRef = executor
        self.fire = fire
        super.init()
        if let serial = executor.serialExecutor {
            serial.setTimer(self)
        } else {
            TimerScheduler.shared.add(self)
        }
    }

    /// A timer that is not set anywhere: for driving `TimerLists` by hand.
    init(unarmedAfter seconds: Double, on executor: ExecutorRef, _ fire: @escaping @Sendable () -> Void) {
        self.fulfilling = 0
        self.msecs = TimerLists.milliseconds(seconds)
        self.deadline = 0
        self.execRef = executor
        self.fire = fire
        super.init()
    }

    /// Clears the timer; `fire` will not run if it has not yet. Safe to call more than once.
    func clear() {
        if let serial = execRef.serialExecutor {
            serial.clearTimer(self)
        } else {
            TimerScheduler.shared.remove(self)
        }
    }

    // As what a `delay`'s promise waits on (`Promise.delay`): cancelling the promise clears
    // the timer. Nothing else waits on a timer.

    /// Asked only as what a pending promise waits on: pending, for as long as that matters.
    override var isPending: Bool { true }

    override func cancelLocally(reason: String) -> [AnyPromise] {
        clear()
        return []
    }

    override func dependentWasCancelled() -> Bool { true }

    override func addDependent() {}

    /// Earlier deadline first; the same deadline in the order they were set.
    @inline(__always)
    func precedes(_ other: OneShotTimer) -> Bool {
        deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
    }
}

/// The scheduler of the timers whose executor is not a `SerialPromiseExecutor`: a binary heap ordered by (deadline, sequence number) and one
/// Dispatch timer source armed for the earliest deadline.
///
/// Sendable: the heap is in `state`, touched only under its lock, and `source` is rearmed only with
/// that lock held; `source` itself is set in init and never replaced.
final class TimerScheduler: @unchecked Sendable {
    static let shared = TimerScheduler()

    private struct Heap {
        var items = IndexedHeap<OneShotTimer>()
        var sequence: UInt64 = 0
        /// The deadline the source is armed for (UInt64.max when disarmed).
        var armed: UInt64 = .max
    }

    private let state = Locked(Heap())
    private let source: DispatchSourceTimer

    private init() {
        source = DispatchSource.makeTimerSource(queue: PromiseExecutors.timers)
        source.schedule(deadline: .distantFuture, leeway: .nanoseconds(0))
        source.resume()
        source.setEventHandler { [unowned self] in self.fireDue() }
    }

    func add(_ timer: OneShotTimer) {
        state.withLock { h in
            h.sequence &+= 1
            timer.sequence = h.sequence
            h.items.insert(timer)
            rearm(&h)
        }
    }

    func remove(_ timer: OneShotTimer) {
        state.withLock { h in
            let i = timer.heapIndex
            guard i >= 0 else { return }
            timer.fire = nil
            h.items.remove(at: i)
            rearm(&h)
        }
    }

    private func fireDue() {
        let due = state.withLock { h -> [OneShotTimer] in
            let now = DispatchTime.now().uptimeNanoseconds
            var out: [OneShotTimer] = []
            while let first = h.items.first, first.deadline <= now {
                h.items.remove(at: 0)
                out.append(first)
            }
            h.armed = .max
            rearm(&h)
            return out
        }
        for t in due {
            let fire = state.withLock { _ in
                defer { t.fire = nil }
                return t.fire
            }
            if let fire { t.execRef.executor.enqueue(fire) }
        }
    }

    /// Arms the source for the earliest deadline, if it is not armed for it already.
    private func rearm(_ h: inout Heap) {
        guard let first = h.items.first else { return }
        if first.deadline != h.armed {
            h.armed = first.deadline
            source.schedule(deadline: DispatchTime(uptimeNanoseconds: first.deadline), leeway: .nanoseconds(0))
        }
    }
}

/// The task of a timer that fired: observers see it as a callback that names the promise the
/// timer fulfils (`source`), if one was observed.
///
/// Sendable: `promise` and `body` are `let`s of Sendable types. It says `@unchecked` only
/// because its superclass does, and Swift makes a subclass restate that.
final class TimerJob: ReactionJob, @unchecked Sendable {
    let promise: Int
    let body: @Sendable () -> Void
    init(fulfilling promise: Int, _ body: @escaping @Sendable () -> Void) {
        self.promise = promise
        self.body = body
        super.init(execRef: nil)
    }
    override func run() { body() }
    override func observedJob(isTask: Bool) -> PromiseJob {
        PromiseJob(key: ObjectIdentifier(self), kind: .callback, source: promise, target: 0, isTask: isTask)
    }
}
