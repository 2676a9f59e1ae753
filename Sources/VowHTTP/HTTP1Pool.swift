import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import VowValue

/// Plain `http://` connections, kept alive per origin and reused: the engine's path for the
/// common request (no proxy, no TLS, the body in memory), with no work per request but the
/// exchange itself. A request takes an idle connection of its origin, or opens one while fewer
/// than `perOrigin` are open, or waits for the next one to come free, in order. A connection
/// whose response said `Connection: close`, or that broke, is not reused; one left idle for
/// `idleTimeout` is closed (a sweep every half of it).
///
/// Errors are the client library's (`HTTPClientError`, `NIOConnectionError`, `IOError`) or an
/// `HTTPFailure`, which `HTTPEngine.describe` words for the request.
final class HTTP1Pool: Sendable {
    /// Where connections go.
    struct Origin: Hashable, Sendable {
        let host: String
        let port: Int
    }

    private struct Slot {
        /// Idle connections and when each became idle; the last is the most recently used.
        var idle: [(conn: HTTP1Connection, since: NIODeadline)] = []
        var open = 0
        var waiting: [HTTP1Request] = []
        var waitingHead = 0
    }

    private struct State {
        var origins: [Origin: Slot] = [:]
        var closed = false
        var sweeper: RepeatedTask?
    }

    private let state = Locked(State())
    /// The event loops, asked for when a request first needs them: NIO's shared group starts
    /// its threads when it is first asked for, and a run that makes no request never asks.
    private let makeGroup: @Sendable () -> any EventLoopGroup
    private var group: any EventLoopGroup { makeGroup() }
    /// The most connections open to one origin at once.
    let perOrigin: Int
    /// How long a connection may stay idle before the pool closes it.
    let idleTimeout: TimeAmount

    /// A pool on `group`'s event loops, at most `perOrigin` connections to one origin, each
    /// closed after `idleTimeout` unused.
    init(
        group: @escaping @autoclosure @Sendable () -> any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        perOrigin: Int = HTTPEngine.connectionsPerOrigin, idleTimeout: TimeAmount = .seconds(60)
    ) {
        self.makeGroup = group
        self.perOrigin = perOrigin
        self.idleTimeout = idleTimeout
    }

    /// Sends `request` on a connection to its origin as soon as one is free.
    func execute(_ request: HTTP1Request) {
        enum Next {
            case run(HTTP1Connection)
            case connect
            case wait
            case closed
        }
        let next = state.withLock { s -> Next in
            if s.closed { return .closed }
            var slot = s.origins[request.origin] ?? Slot()
            defer { s.origins[request.origin] = slot }
            if request.fresh == false, let idle = slot.idle.popLast() { return .run(idle.conn) }
            if slot.open < perOrigin {
                slot.open += 1
                return .connect
            }
            slot.waiting.append(request)
            return .wait
        }
        switch next {
        case .run(let conn): conn.run(request)
        case .connect: connect(for: request)
        case .wait: request.armDeadline(on: group.any())
        case .closed: request.fail(HTTPFailure.shutDown)
        }
    }

    private func connect(for request: HTTP1Request) {
        let origin = request.origin
        let loop = group.next()
        let conn = HTTP1Connection(origin: origin, pool: self, loop: loop)
        request.armDeadline(on: loop)
        ClientBootstrap(group: loop)
            .connectTimeout(.seconds(10))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHTTPClientHandlers()
                    try sync.addHandler(ChunkSizeWhitespace(answersHead: { conn.answersHead }), position: .first)
                    try sync.addHandler(NIOHTTPResponseDecompressor(limit: .none))
                    try sync.addHandler(conn)
                }
            }
            .connect(host: origin.host, port: origin.port)
            .whenComplete { result in
                switch result {
                case .success:
                    conn.run(request)
                case .failure(let error):
                    self.closed(conn, wasOpen: true)
                    if case ChannelError.connectTimeout = error {
                        request.fail(HTTPClientError.connectTimeout)
                    } else {
                        request.fail(error)
                    }
                }
            }
    }

    /// A connection finished a response and can carry another: it goes to the first waiting
    /// request of its origin, or back to the idle ones.
    func reuse(_ conn: HTTP1Connection) {
        enum Next {
            case run(HTTP1Request)
            case idle
            case close
        }
        let next = state.withLock { s -> Next in
            guard var slot = s.origins[conn.origin] else { return s.closed ? .close : .idle }
            defer { s.origins[conn.origin] = slot }
            if let waiter = Self.popWaiter(&slot) { return .run(waiter) }
            if s.closed { return .close }
            slot.idle.append((conn, .now()))
            if s.sweeper == nil { s.sweeper = startSweeping() }
            return .idle
        }
        switch next {
        case .run(let request): conn.run(request)
        case .idle: break
        case .close: conn.close()
        }
    }

    /// A connection closed (or never opened): it leaves the pool, and a waiting request of its
    /// origin, if any, opens a new one.
    func closed(_ conn: HTTP1Connection, wasOpen: Bool) {
        let next = state.withLock { s -> HTTP1Request? in
            guard var slot = s.origins[conn.origin] else { return nil }
            defer { s.origins[conn.origin] = slot }
            slot.idle.removeAll { $0.conn === conn }
            if wasOpen { slot.open -= 1 }
            guard !s.closed, let waiter = Self.popWaiter(&slot) else { return nil }
            slot.open += 1
            return waiter
        }
        if let next { connect(for: next) }
    }

    /// The first waiting request that has not settled (one cancelled or timed out while waiting
    /// is dropped).
    private static func popWaiter(_ slot: inout Slot) -> HTTP1Request? {
        while slot.waitingHead < slot.waiting.count {
            let r = slot.waiting[slot.waitingHead]
            slot.waitingHead += 1
            if slot.waitingHead == slot.waiting.count {
                slot.waiting.removeAll(keepingCapacity: true)
                slot.waitingHead = 0
            }
            if !r.isSettled { return r }
        }
        return nil
    }

    /// Closes every idle connection; connections in use close when their response ends, and
    /// later requests are refused.
    func shutdown() {
        let (idle, sweeper) = state.withLock { s -> ([HTTP1Connection], RepeatedTask?) in
            s.closed = true
            defer { s.sweeper = nil }
            return (s.origins.values.flatMap { $0.idle.map(\.conn) }, s.sweeper)
        }
        sweeper?.cancel()
        for conn in idle { conn.close() }
    }

    /// Sweeps every half `idleTimeout` from now on (until `shutdown`); made with the lock held.
    private func startSweeping() -> RepeatedTask {
        let every = TimeAmount.nanoseconds(max(idleTimeout.nanoseconds / 2, 1_000_000))
        return group.next().scheduleRepeatedTask(initialDelay: every, delay: every) { [weak self] _ in self?.sweep() }
    }

    /// Closes the connections idle for `idleTimeout` or longer.
    private func sweep() {
        let limit = NIODeadline.now() - idleTimeout
        let stale = state.withLock { s -> [HTTP1Connection] in
            var out: [HTTP1Connection] = []
            for key in Array(s.origins.keys) {
                guard var slot = s.origins[key], slot.idle.contains(where: { $0.since <= limit }) else { continue }
                out += slot.idle.filter { $0.since <= limit }.map(\.conn)
                slot.idle.removeAll { $0.since <= limit }
                s.origins[key] = slot
            }
            return out
        }
        for conn in stale { conn.close() }
    }
}
