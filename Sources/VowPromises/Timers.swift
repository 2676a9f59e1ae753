import Dispatch
import Synchronization

extension Promise {
    /// Fulfils with `value` after `seconds`. Cancelling it clears the timer.
    public static func delay(
        _ seconds: Double, value: T, name: String? = "delay",
        on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<T> {
        let (p, resolver) = Promise<T>.pending(name: name, on: executor)
        let timer = OneShotTimer(after: seconds, on: executor) { resolver.fulfill(value) }
        resolver.onCancel { timer.cancel() }
        return p
    }

    /// Settles as this promise does, unless `seconds` pass first: then rejects with
    /// `PromiseTimeoutError` and cancels this promise (and so everything upstream of it).
    public func timeout(
        _ seconds: Double, name: String? = "timeout", on executor: (any PromiseExecutor)? = nil,
        cancelsUpstream: Bool = true
    ) -> Promise<T> {
        let ex = executor ?? self.executor
        let result = Promise<T>(name: name, executor: ex, parent: self)
        let timer = OneShotTimer(after: seconds, on: ex) { [weak result] in
            guard let result else { return }
            if result.settle(.failure(PromiseTimeoutError(seconds: seconds))), cancelsUpstream {
                self.releaseAsDependent(reason: "cancelled: timed out after \(formatSeconds(seconds))")
            }
        }
        result.onCancel { timer.cancel() }
        self.forward(to: result, on: ex)
        result.whenSettled(on: ex) { _ in timer.cancel() }
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

/// A one-shot timer that can really be cleared: cancelling it releases the callback at once.
///
/// Every timer shares one scheduler, ordered by deadline and then by the order the timers were
/// set, as node's timers are. A timer that fires is handed to its executor as a task, so every
/// job that is ready runs before it, and every job it makes runs before the next timer's task.
final class OneShotTimer: @unchecked Sendable {
    fileprivate let deadline: UInt64
    fileprivate let sequence: UInt64
    fileprivate let executor: any PromiseExecutor
    /// The callback until the timer fires or is cleared; nil after.
    fileprivate let fire: Locked<(@Sendable () -> Void)?>

    /// Sets the timer; `fire` runs once, as a task on `executor`, after `seconds`.
    init(after seconds: Double, on executor: any PromiseExecutor, _ fire: @escaping @Sendable () -> Void) {
        let nanos = seconds.isFinite ? UInt64(max(0, min(seconds, 1e9)) * 1e9) : UInt64(1e18)
        self.deadline = DispatchTime.now().uptimeNanoseconds &+ nanos
        self.executor = executor
        self.fire = Locked(fire)
        self.sequence = TimerScheduler.shared.nextSequence()
        TimerScheduler.shared.add(self)
    }

    /// Clears the timer; `fire` will not run if it has not yet. Safe to call more than once.
    func cancel() {
        if fire.withLock({ f -> Bool in
            let was = f != nil
            f = nil
            return was
        }) {
            TimerScheduler.shared.cleared()
        }
    }

    /// Called by the scheduler when the deadline has passed: hands the callback to the executor.
    fileprivate func expire() {
        guard let f = fire.withLock({ f -> (@Sendable () -> Void)? in
            let taken = f
            f = nil
            return taken
        }) else { return }
        executor.enqueueTask {
            f()
            TimerScheduler.shared.cleared()
        }
    }
}

/// The one scheduler of every timer: a heap by (deadline, sequence) and one Dispatch timer set
/// to the earliest deadline.
final class TimerScheduler: @unchecked Sendable {
    static let shared = TimerScheduler()

    private struct State {
        var heap: [OneShotTimer] = []
        var sequence: UInt64 = 0
        /// Timers set and neither fired (their task run) nor cleared.
        var live = 0
        var armed: UInt64 = .max
    }
    private let state = Locked(State())
    private let source: DispatchSourceTimer

    private init() {
        source = DispatchSource.makeTimerSource(queue: PromiseExecutors.timers)
        source.setEventHandler { [unowned self] in self.fireDue() }
        source.resume()
    }

    /// Timers pending in the whole process.
    var pending: Int { state.withLock { $0.live } }

    func nextSequence() -> UInt64 {
        state.withLock { s in
            s.sequence += 1
            return s.sequence
        }
    }

    func add(_ t: OneShotTimer) {
        // The Dispatch timer is set under the lock, so that a later deadline set by `fireDue`
        // cannot overtake an earlier one set here.
        state.withLock { s in
            s.live += 1
            s.heap.append(t)
            siftUp(&s.heap, s.heap.count - 1)
            if t.deadline < s.armed {
                s.armed = t.deadline
                source.schedule(deadline: DispatchTime(uptimeNanoseconds: t.deadline), leeway: .nanoseconds(0))
            }
        }
    }

    /// A timer left the count: it fired and its task ran, or it was cleared.
    func cleared() {
        state.withLock { $0.live -= 1 }
    }

    private func fireDue() {
        let now = DispatchTime.now().uptimeNanoseconds
        var due: [OneShotTimer] = []
        state.withLock { s in
            while let top = s.heap.first, top.deadline <= now {
                due.append(top)
                let last = s.heap.removeLast()
                if !s.heap.isEmpty {
                    s.heap[0] = last
                    siftDown(&s.heap, 0)
                }
            }
            s.armed = s.heap.first?.deadline ?? .max
            if let next = s.heap.first?.deadline {
                source.schedule(deadline: DispatchTime(uptimeNanoseconds: next), leeway: .nanoseconds(0))
            }
        }
        for t in due { t.expire() }
    }

    private func before(_ a: OneShotTimer, _ b: OneShotTimer) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    private func siftUp(_ h: inout [OneShotTimer], _ i: Int) {
        var i = i
        while i > 0 {
            let p = (i - 1) / 2
            guard before(h[i], h[p]) else { return }
            h.swapAt(i, p)
            i = p
        }
    }

    private func siftDown(_ h: inout [OneShotTimer], _ i: Int) {
        var i = i
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < h.count, before(h[l], h[m]) { m = l }
            if r < h.count, before(h[r], h[m]) { m = r }
            if m == i { return }
            h.swapAt(i, m)
            i = m
        }
    }
}

extension PromiseExecutors {
    /// The number of timers (`delay`, `timeout`, `retry` waits) set and not yet fired or
    /// cleared, in the whole process: a host that, like node, does not exit while a timer is
    /// pending waits until this is zero and its executor is idle.
    public static var pendingTimers: Int { TimerScheduler.shared.pending }
}
