import NIOCore
import NIOHTTP2

/// Brings an HTTP/2 connection's own errors to the requests open on it, at once.
///
/// When a response's header block breaks the connection's limit (HPACK's header-list size, or
/// too many CONTINUATION frames), or a frame cannot be parsed, NIOHTTP2 sends GOAWAY and reports
/// the error on the connection's pipeline, where the client library does not look: its requests
/// waited until the server closed the connection (seconds later, or never) and then said only
/// that it had closed. This handler sits at the end of the connection's pipeline, knows the
/// connection's open streams (each registers itself as it is made, `register(stream:)`), hands
/// each the error, so each request fails with it (said in words by `HTTPFailure`: "response
/// headers too large"), and closes the connection.
final class HTTP2ConnectionErrors: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame

    /// The connection's open streams, by identity; each leaves when it closes.
    private var streams: [ObjectIdentifier: Channel] = [:]

    /// Installs the handler on an HTTP/2 connection (the client library's connection initializer).
    static func install(on connection: Channel) -> EventLoopFuture<Void> {
        connection.eventLoop.makeCompletedFuture {
            try connection.pipeline.syncOperations.addHandler(HTTP2ConnectionErrors(), position: .last)
        }
    }

    /// Registers a new stream with its connection's handler (the client library's stream initializer).
    static func register(stream: Channel) -> EventLoopFuture<Void> {
        stream.eventLoop.makeCompletedFuture {
            guard let connection = stream.parent,
                let handler = try? connection.pipeline.syncOperations.handler(type: HTTP2ConnectionErrors.self)
            else { return }
            let key = ObjectIdentifier(stream)
            handler.streams[key] = stream
            stream.closeFuture.assumeIsolated().whenComplete { _ in handler.streams[key] = nil }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A stream's own error already reached its stream.
        if error is NIOHTTP2Errors.StreamError {
            context.fireErrorCaught(error)
            return
        }
        let open = Array(streams.values)
        streams = [:]
        for stream in open { stream.pipeline.fireErrorCaught(error) }
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }
}
