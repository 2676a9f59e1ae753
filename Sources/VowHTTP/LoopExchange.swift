import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import VowPromises
import VowValue

/// A request run on the client's event loop through its future-based API: the common exchange
/// (a body in memory or none, no `--output`, no `--verbose`) without a Swift task, an async body
/// iteration or a timer of vow's own per request. The hops of a redirect chain, the session's
/// cookies, `--max-size`, `br` decoding and the errors are those of `HTTPEngine.exchange`; one
/// deadline, `--timeout` after the start, covers every hop.
///
/// The outcome is enqueued on the session's executor as a task, as an I/O callback is in
/// JavaScript's event loop.
final class LoopExchange: Sendable {
    private let engine: HTTPEngine
    private let client: HTTPClient
    private let spec: HTTPRequestSpec
    private let resolver: Resolver<Value>
    private let executor: any PromiseExecutor
    private let started = ContinuousClock.now
    private let deadline: NIODeadline
    /// The hop in flight, and whether the request was cancelled.
    private let state = Locked<(task: HTTPClient.Task<Collected>?, cancelled: Bool)>((nil, false))

    /// Whether `spec` can run here: everything but downloads, streamed uploads and `--verbose`.
    static func handles(_ spec: HTTPRequestSpec) -> Bool {
        spec.download == nil && spec.upload == nil && spec.verbose == nil
    }

    /// Starts `spec`; `resolver` settles with the response value or the error.
    init(_ spec: HTTPRequestSpec, engine: HTTPEngine, client: HTTPClient, resolver: Resolver<Value>, executor: any PromiseExecutor) {
        self.engine = engine
        self.client = client
        self.spec = spec
        self.resolver = resolver
        self.executor = executor
        self.deadline = NIODeadline.now() + .nanoseconds(Int64(spec.timeout * 1e9))
    }

    /// Sends the first hop.
    func start() {
        hop(spec, visited: [])
    }

    /// Aborts the hop in flight (the server sees the connection close); no later hop starts.
    func cancel() {
        let task = state.withLock { s -> HTTPClient.Task<Collected>? in
            s.cancelled = true
            return s.task
        }
        task?.cancel()
    }

    private func hop(_ current: HTTPRequestSpec, visited: [String]) {
        let request: HTTPClient.Request
        let url: URL
        do {
            url = try HTTPEngine.checkedURL(current, spec)
            request = try HTTPClient.Request(
                url: current.url, method: HTTPMethod(rawValue: current.method), headers: HTTPEngine.headers(current),
                body: current.body.map { .bytes($0) })
        } catch {
            return finish(.failure(error))
        }
        let task = client.execute(
            request: request, delegate: Collector(current), eventLoop: .indifferent, deadline: deadline)
        let cancelled = state.withLock { s -> Bool in
            s.task = task
            return s.cancelled
        }
        if cancelled { task.cancel() }
        task.futureResult.whenComplete { result in
            switch result {
            case .failure(let error): self.finish(.failure(error))
            case .success(let collected): self.received(collected, current, url: url, visited: visited)
            }
        }
    }

    private func received(_ collected: Collected, _ current: HTTPRequestSpec, url: URL, visited: [String]) {
        do {
            let head = collected.head
            current.cookies?.store(head.headers["Set-Cookie"], from: current.url)
            var visited = visited
            switch try HTTPEngine.redirect(current, status: Int(head.status.code), headers: head.headers, url: url, visited: &visited, original: spec) {
            case .follow(let next):
                if state.withLock({ $0.cancelled }) { throw HTTPClientError.cancelled }
                return hop(next, visited: visited)
            case .refused(let message, let extra):
                let resp = engine.makeResponse(head.status, head.version, head.headers, current, body: collected.body, start: started)
                throw engine.httpError(resp, message: message, extra: extra)
            case .none:
                break
            }
            let body = current.method == "HEAD" ? [] : try HTTPEngine.decoded(collected.body, head.headers, current)
            let resp = engine.makeResponse(head.status, head.version, head.headers, current, body: body, start: started)
            finish(.success(.response(try engine.answer(resp, current))))
        } catch {
            finish(.failure(error))
        }
    }

    private func finish(_ result: Result<Value, any Error>) {
        let resolver = self.resolver
        switch result {
        case .success(let value): executor.enqueueTask { resolver.fulfill(value) }
        case .failure(let error):
            let e = HTTPEngine.describe(error, spec)
            executor.enqueueTask { resolver.reject(e) }
        }
    }

    /// A response head and its whole body.
    struct Collected: Sendable {
        let head: HTTPResponseHead
        let body: [UInt8]
    }

    /// Gathers a response's body into one array, within `--max-size` (the Content-Length is
    /// checked before a byte is read, except on a redirect, whose body is only shown in an
    /// error). Called by the client on the request's event loop only.
    final class Collector: HTTPClientResponseDelegate, @unchecked Sendable {
        typealias Response = Collected
        private let current: HTTPRequestSpec
        private var head: HTTPResponseHead?
        private var body: [UInt8] = []
        private var error: (any Error)?
        private var keepsBody = true

        init(_ current: HTTPRequestSpec) {
            self.current = current
        }

        func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            self.head = head
            let code = Int(head.status.code)
            let redirects = current.follow && (300..<400).contains(code) && code != 304 && head.headers.contains(name: "Location")
            keepsBody = current.method != "HEAD"
            if keepsBody, !redirects,
                let e = HTTPEngine.announcedTooBig(head.headers, status: head.status, max: current.maxSize, spec: current)
            {
                return fail(e, task)
            }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            guard keepsBody, error == nil else { return task.eventLoop.makeSucceededVoidFuture() }
            if body.count + buffer.readableBytes > current.maxSize, let head {
                return fail(HTTPEngine.tooBig(status: head.status, max: current.maxSize, spec: current), task)
            }
            buffer.withUnsafeReadableBytes { body.append(contentsOf: $0) }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveError(task: HTTPClient.Task<Collected>, _ error: any Error) {
            if self.error == nil { self.error = error }
        }

        func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
            if let error { throw error }
            guard let head else { throw HTTPClientError.remoteConnectionClosed }
            return Collected(head: head, body: body)
        }

        private func fail(_ e: VowError, _ task: HTTPClient.Task<Collected>) -> EventLoopFuture<Void> {
            error = e
            return task.eventLoop.makeFailedFuture(e)
        }
    }
}
