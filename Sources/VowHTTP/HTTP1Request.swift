import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import VowValue

/// One hop sent through the `HTTP1Pool`: the request head and body, the gatherer of its response,
/// its deadline, and what it is told once, when it settles. It can settle from any thread (its
/// response, an error, its deadline, a cancel); the first outcome wins.
///
/// Sendable: what changes is in `state`, touched only under its lock; the other fields are set in
/// init and never change (the gatherer is used on one event loop at a time, as `ResponseGatherer`
/// says).
final class HTTP1Request: @unchecked Sendable {
    let origin: HTTP1Pool.Origin
    let head: HTTPRequestHead
    let body: [UInt8]?
    let gatherer: ResponseGatherer
    /// Safe to send again when a kept-alive connection turns out closed before any response.
    let idempotent: Bool

    private enum Phase {
        case pending
        case running(HTTP1Connection)
        case settled
    }

    private struct State {
        var phase = Phase.pending
        var timer: Scheduled<Void>?
        var retried = false
        var fresh = false
        /// Told the outcome, then dropped: it holds the exchange, which holds this request.
        var done: (@Sendable (Result<Collected, any Error>) -> Void)?
    }

    private let deadline: NIODeadline
    private let state: Locked<State>

    /// A request to `origin`; `done` is called once, with the response or the error.
    init(
        origin: HTTP1Pool.Origin, head: HTTPRequestHead, body: [UInt8]?, gatherer: ResponseGatherer, deadline: NIODeadline,
        done: @escaping @Sendable (Result<Collected, any Error>) -> Void
    ) {
        self.origin = origin
        self.head = head
        self.body = body
        self.gatherer = gatherer
        self.deadline = deadline
        self.state = Locked(State(done: done))
        self.idempotent = [.GET, .HEAD, .PUT, .DELETE, .OPTIONS, .TRACE].contains(head.method)
    }

    /// True when the request must go on a new connection (it is being sent again).
    var fresh: Bool { state.withLock { $0.fresh } }

    /// True once the request has its outcome.
    var isSettled: Bool {
        state.withLock { s in
            if case .settled = s.phase { return true }
            return false
        }
    }

    /// The request goes out on `conn`; false if it has already settled (cancelled, timed out).
    func began(on conn: HTTP1Connection) -> Bool {
        armDeadline(on: conn.loop)
        return state.withLock { s in
            guard case .pending = s.phase else { return false }
            s.phase = .running(conn)
            return true
        }
    }

    /// Starts the deadline on `loop` (where the request waits for a connection, or where one is
    /// being opened for it), unless it runs already or the request has settled.
    func armDeadline(on loop: any EventLoop) {
        let needed = state.withLock { s -> Bool in
            if s.timer != nil { return false }
            if case .settled = s.phase { return false }
            return true
        }
        guard needed else { return }
        let timer = loop.scheduleTask(deadline: deadline) { self.fail(HTTPClientError.deadlineExceeded) }
        let late = state.withLock { s -> Bool in
            if case .settled = s.phase { return true }
            if s.timer != nil { return true }
            s.timer = timer
            return false
        }
        if late { timer.cancel() }
    }

    /// Settles with the response.
    func succeed(_ collected: Collected) {
        guard let (_, timer, done) = settle() else { return }
        timer?.cancel()
        done?(.success(collected))
    }

    /// Settles with `error`; a connection the request was running on is closed (the server sees
    /// it close), as it cannot carry another request after half an exchange.
    func fail(_ error: any Error) {
        guard let (conn, timer, done) = settle() else { return }
        timer?.cancel()
        conn?.abort(self)
        done?(.failure(error))
    }

    private typealias Settled = (HTTP1Connection?, Scheduled<Void>?, (@Sendable (Result<Collected, any Error>) -> Void)?)

    private func settle() -> Settled? {
        state.withLock { s -> Settled? in
            let conn: HTTP1Connection?
            switch s.phase {
            case .settled: return nil
            case .pending: conn = nil
            case .running(let c): conn = c
            }
            s.phase = .settled
            defer {
                s.timer = nil
                s.done = nil
            }
            return (conn, s.timer, s.done)
        }
    }

    /// A kept-alive connection closed before any of the response came: the request goes again,
    /// once, on a new connection, if it is idempotent; otherwise it fails with `error`.
    func sendAgainOrFail(_ error: any Error, pool: HTTP1Pool) {
        let again = state.withLock { s -> Bool in
            guard idempotent, !s.retried, case .running = s.phase else { return false }
            s.retried = true
            s.fresh = true
            s.phase = .pending
            return true
        }
        if again { pool.execute(self) } else { fail(error) }
    }
}
