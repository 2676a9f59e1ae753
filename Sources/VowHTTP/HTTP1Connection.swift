import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One kept-alive `http://` connection of the `HTTP1Pool`: the last handler of its channel's
/// pipeline (after NIO's HTTP/1 codec and the gzip/deflate decompressor), carrying one request at
/// a time. Everything but `run` and `abort` happens on the channel's event loop.
///
/// Sendable: its `var`s are touched only on `loop`. `run`, `abort` and `close` hop there when
/// called from another thread (`run` reads `inRead` only once it is on the loop); `origin`, `loop`
/// and `pool` are set in init and never change.
final class HTTP1Connection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    let origin: HTTP1Pool.Origin
    let loop: any EventLoop
    /// Held strongly: a connection outlives a dropped engine until it closes, and then tells the pool.
    private let pool: HTTP1Pool
    /// Nil once the channel has closed.
    private var context: ChannelHandlerContext?
    /// The request in flight, its response head, and whether any of its response has come.
    private var current: HTTP1Request?
    private var responseHead: HTTPResponseHead?
    private var answered = false
    /// Responses completed on this connection.
    private var served = 0
    /// The connection failed, or the server sent what no request asked for: never reused.
    private var broken = false
    /// True while a finished response's connection is offered again inside its read.
    private var inRead = false

    /// Whether the response being read answers a HEAD request (it has no body, whatever its
    /// head says); on the event loop.
    var answersHead: Bool { current?.head.method == .HEAD }

    init(origin: HTTP1Pool.Origin, pool: HTTP1Pool, loop: any EventLoop) {
        self.origin = origin
        self.pool = pool
        self.loop = loop
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Sends `request` on this connection (from any thread); given while a response is being
    /// read, once that read is over.
    func run(_ request: HTTP1Request) {
        if loop.inEventLoop && !inRead {
            start(request)
        } else {
            loop.execute { self.start(request) }
        }
    }

    private func start(_ request: HTTP1Request) {
        guard !broken, let context, context.channel.isActive else {
            // Closed (or broken) while idle: the request goes on another connection.
            pool.execute(request)
            return
        }
        guard request.began(on: self) else {
            // Settled while it waited (cancelled, timed out): the connection is free again.
            pool.reuse(self)
            return
        }
        current = request
        responseHead = nil
        answered = false
        context.write(wrapOutboundOut(.head(request.head)), promise: nil)
        if let body = request.body, !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let request = current else {
            // A response with no request: the server sent more than its last response held.
            broken = true
            close()
            return
        }
        answered = true
        switch unwrapInboundIn(data) {
        case .head(let head):
            if (100..<200).contains(head.status.code) && head.status.code != 101 { return }
            responseHead = head
            if let e = request.gatherer.received(head: head) { request.fail(e) }
        case .body(let part):
            if let e = request.gatherer.received(part: part) { request.fail(e) }
        case .end:
            current = nil
            guard let head = responseHead, let collected = request.gatherer.collected() else {
                request.fail(HTTPClientError.remoteConnectionClosed)
                return
            }
            served += 1
            if head.isKeepAlive && request.head.isKeepAlive {
                // A request given this connection now starts once this read is over (`run`):
                // bytes past the response's end in the same read (more than its Content-Length,
                // a body on a 204) fail the decoder first and close the connection, instead of
                // reaching that request.
                inRead = true
                pool.reuse(self)
                inRead = false
            } else {
                close()
            }
            request.succeed(collected)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        broken = true
        if let request = current {
            current = nil
            if !answered && served > 0 {
                // A reused connection that failed (reset, or leftovers of the last response)
                // before any of this response came: an idempotent request goes again on a new one.
                request.sendAgainOrFail(error, pool: pool)
            } else {
                request.fail(error)
            }
        }
        close()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.context = nil
        pool.closed(self, wasOpen: true)
        guard let request = current else { return }
        current = nil
        if !answered && served > 0 {
            request.sendAgainOrFail(HTTPClientError.remoteConnectionClosed, pool: pool)
        } else {
            request.fail(HTTPClientError.remoteConnectionClosed)
        }
    }

    /// Closes the connection if `request` is the one in flight (from any thread): the request
    /// settled before its response ended.
    func abort(_ request: HTTP1Request) {
        if loop.inEventLoop {
            guard current === request else { return }
            current = nil
            close()
        } else {
            loop.execute { self.abort(request) }
        }
    }

    /// Closes the connection (on its event loop).
    func close() {
        if loop.inEventLoop {
            context?.close(promise: nil)
        } else {
            loop.execute { self.close() }
        }
    }
}
