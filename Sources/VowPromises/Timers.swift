import Dispatch
import Synchronization

extension Promise {
    /// Fulfils with `value` after `seconds`. Cancelling it clears the timer.
    public static func delay(
        _ seconds: Double, value: T, name: String? = "delay",
        on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<T> {
        let (p, resolver) = Promise<T>.pending(name: name, on: executor)
        let timer = OneShotTimer(after: seconds) { resolver.fulfill(value) }
        resolver.onCancel { timer.cancel() }
        return p
    }

    /// Settles as this promise does, unless `seconds` pass first: then rejects with
    /// `PromiseTimeoutError` and cancels this promise (and so everything upstream of it). With
    /// `cancelsUpstream: false` it only rejects, and leaves this promise running.
    public func timeout(
        _ seconds: Double, name: String? = "timeout", on executor: (any PromiseExecutor)? = nil,
        cancelsUpstream: Bool = true
    ) -> Promise<T> {
        let ex = executor ?? self.executor
        let result = Promise<T>(name: name, executor: ex, parent: self)
        let timer = OneShotTimer(after: seconds) { [weak result] in
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

/// A one-shot timer on the timer queue that can really be cleared: cancelling it releases the
/// callback at once instead of leaving it queued until its deadline.
final class OneShotTimer: @unchecked Sendable {
    private let source: DispatchSourceTimer

    /// Starts the timer; `fire` runs once, on the timer queue, after `seconds`.
    init(after seconds: Double, _ fire: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: PromiseExecutors.timers)
        source.schedule(deadline: .now() + max(0, seconds))
        source.setEventHandler { [source] in
            source.cancel()
            fire()
        }
        source.resume()
    }

    /// Clears the timer; `fire` will not run if it has not yet. Safe to call more than once.
    func cancel() {
        source.cancel()
    }
}
