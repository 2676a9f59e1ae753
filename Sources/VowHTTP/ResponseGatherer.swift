import NIOCore
import NIOHTTP1
import VowValue

/// A response head and its whole body.
struct Collected: Sendable {
    let head: HTTPResponseHead
    let body: [UInt8]
    /// When the head arrived.
    var headArrived: ContinuousClock.Instant? = nil
}

/// Gathers one hop's response into one array, within `--max-size`: the Content-Length is checked
/// before a byte is read (except on a redirect, whose body is only shown in an error), and the
/// body as it arrives. A `HEAD` response keeps no body. Used on one event loop at a time, by the
/// client library's delegate (`LoopExchange.Collector`) or by a pooled connection
/// (`HTTP1Connection`).
///
/// Sendable: its `var`s are touched on one event loop at a time. A request goes again on a new
/// connection only when none of its response has come (`HTTP1Connection` checks `answered`), so the
/// gatherer is still untouched then, and it is handed over through the pool's lock and
/// `EventLoop.execute`.
final class ResponseGatherer: @unchecked Sendable {
    /// When the response head arrived (time to first byte).
    private var headArrived: ContinuousClock.Instant?
    private let current: HTTPRequestSpec
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    private var keepsBody = true

    /// Gathers the response to `current`.
    init(_ current: HTTPRequestSpec) {
        self.current = current
    }

    /// Takes the head; the error when its Content-Length is over `--max-size`.
    func received(head: HTTPResponseHead) -> VowError? {
        self.head = head
        headArrived = ContinuousClock.now
        let code = Int(head.status.code)
        let redirects = current.follow && (300..<400).contains(code) && code != 304 && head.headers.contains(name: "Location")
        keepsBody = current.method != "HEAD"
        if keepsBody, !redirects {
            return HTTPEngine.announcedTooBig(head.headers, status: head.status, max: current.maxSize, spec: current)
        }
        return nil
    }

    /// Takes a part of the body; the error when the body grows over `--max-size`.
    func received(part buffer: ByteBuffer) -> VowError? {
        guard keepsBody else { return nil }
        if body.count + buffer.readableBytes > current.maxSize, let head {
            return HTTPEngine.tooBig(status: head.status, max: current.maxSize, spec: current)
        }
        buffer.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        return nil
    }

    /// The whole response, once its end has arrived; nil if no head came.
    func collected() -> Collected? {
        head.map { Collected(head: $0, body: body, headArrived: headArrived) }
    }
}
