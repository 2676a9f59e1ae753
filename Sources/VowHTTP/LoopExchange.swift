import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import VowPromises
import VowValue

/// A request run on the client's event loop through its future-based API: the common exchange
/// (a body in memory or none, no `--output`), `--verbose` included, without a Swift task, an async body
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
    /// What aborts the hop in flight, and whether the request was cancelled.
    private let state = Locked<(abort: (@Sendable () -> Void)?, cancelled: Bool)>((nil, false))

    /// Whether `spec` can run here: everything but downloads and streamed uploads. `--verbose`
    /// runs here too, so that a debugging run takes the path of the real one (a plain `http://`
    /// request through a proxy in absolute form, not a tunnel).
    static func handles(_ spec: HTTPRequestSpec) -> Bool {
        spec.download == nil && spec.upload == nil
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
        let abort = state.withLock { s -> (@Sendable () -> Void)? in
            s.cancelled = true
            return s.abort
        }
        abort?()
    }

    private func hop(_ current: HTTPRequestSpec, visited: [String]) {
        let url: URL
        do {
            url = try HTTPEngine.checkedURL(current, spec)
        } catch {
            return finish(.failure(error))
        }
        if url.scheme?.lowercased() == "http", current.proxy.map({ $0.scheme == "http" }) ?? true {
            return plainHop(current, url: url, visited: visited)
        }
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(
                url: current.url, method: HTTPMethod(rawValue: current.method), headers: HTTPEngine.headers(current),
                body: current.body.map { .bytes($0) })
        } catch {
            return finish(.failure(error))
        }
        current.verbose?(VerboseExchange.request(method: current.method, url: url, headers: request.headers, bodyLength: current.body?.count))
        let sent = ContinuousClock.now
        let task = client.execute(
            request: request, delegate: Collector(current), eventLoop: .indifferent, deadline: deadline)
        let cancelled = state.withLock { s -> Bool in
            s.abort = { task.cancel() }
            return s.cancelled
        }
        if cancelled { task.cancel() }
        task.futureResult.whenComplete { result in
            self.completed(result, current, url: url, visited: visited, sent: sent)
        }
    }

    /// A hop to an `http://` URL: through the engine's pool of kept-alive connections, to the
    /// server, or through an HTTP proxy as curl sends it there: the request in absolute form
    /// (`GET http://host/path`) on a connection to the proxy, with `Proxy-Authorization` when the
    /// proxy URL has credentials (CONNECT is for https://).
    private func plainHop(_ current: HTTPRequestSpec, url: URL, visited: [String]) {
        let host = url.host ?? ""
        let port = url.port ?? 80
        let proxy = current.proxy
        let authority = port == 80 ? bracketed(host) : "\(bracketed(host)):\(port)"
        var headers = HTTPHeaders()
        if !current.hasHeader("Host") {
            headers.add(name: "Host", value: authority)
        }
        for h in HTTPEngine.headers(current) where !["content-length", "transfer-encoding"].contains(h.name.lowercased()) {
            headers.add(name: h.name, value: h.value)
        }
        let method = HTTPMethod(rawValue: current.method)
        if let body = current.body, !body.isEmpty {
            headers.add(name: "Content-Length", value: String(body.count))
        } else if ![.GET, .HEAD, .DELETE, .CONNECT, .TRACE].contains(method) {
            headers.add(name: "Content-Length", value: "0")
        }
        var uri = originForm(url)
        var origin = HTTP1Pool.Origin(host: host, port: port)
        if let proxy {
            uri = "http://" + authority + uri
            origin = HTTP1Pool.Origin(host: proxy.host, port: proxy.port)
            if let credentials = proxy.credentials, !current.hasHeader("Proxy-Authorization") {
                let plain = credentials.removingPercentEncoding ?? credentials
                headers.add(name: "Proxy-Authorization", value: "Basic " + Data(plain.utf8).base64EncodedString())
            }
        }
        let head = HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: headers)
        current.verbose?(VerboseExchange.request(method: current.method, target: uri, url: url, headers: headers))
        let sent = ContinuousClock.now
        let request = HTTP1Request(
            origin: origin, head: head, body: current.body, gatherer: ResponseGatherer(current),
            deadline: deadline
        ) { result in
            self.completed(result, current, url: url, visited: visited, sent: sent)
        }
        let cancelled = state.withLock { s -> Bool in
            s.abort = { request.fail(HTTPClientError.cancelled) }
            return s.cancelled
        }
        if cancelled { return request.fail(HTTPClientError.cancelled) }
        engine.plain.execute(request)
    }

    private func completed(
        _ result: Result<Collected, any Error>, _ current: HTTPRequestSpec, url: URL, visited: [String], sent: ContinuousClock.Instant
    ) {
        state.withLock { $0.abort = nil }
        switch result {
        case .failure(let error): finish(.failure(error))
        case .success(let collected):
            current.verbose?(VerboseExchange.response(collected.head, firstByte: (collected.headArrived ?? .now) - sent))
            received(collected, current, url: url, visited: visited)
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
            case .refused(let refusal):
                throw refusal(engine.makeResponse(head.status, head.version, head.headers, current, body: collected.body, start: started))
            case .none:
                break
            }
            let body = current.method == "HEAD" ? [] : try HTTPEngine.decoded(collected.body, head.headers, current)
            current.verbose?(VerboseExchange.done(bytes: body.count, total: ContinuousClock.now - started))
            let resp = engine.makeResponse(head.status, head.version, head.headers, current, body: body, start: started, headArrived: collected.headArrived)
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

    /// The client library's delegate for one hop: a `ResponseGatherer` and the first error.
    /// Called by the client on the request's event loop only.
    ///
    /// Sendable: the client calls every delegate method on the request's event loop, one at a time,
    /// so `error` and the gatherer are touched on that loop only.
    final class Collector: HTTPClientResponseDelegate, @unchecked Sendable {
        typealias Response = Collected
        private let gatherer: ResponseGatherer
        private var error: (any Error)?

        init(_ current: HTTPRequestSpec) {
            gatherer = ResponseGatherer(current)
        }

        func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            if let e = gatherer.received(head: head) { return fail(e, task) }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            guard error == nil else { return task.eventLoop.makeSucceededVoidFuture() }
            if let e = gatherer.received(part: buffer) { return fail(e, task) }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveError(task: HTTPClient.Task<Collected>, _ error: any Error) {
            if self.error == nil { self.error = error }
        }

        func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
            if let error { throw error }
            guard let collected = gatherer.collected() else { throw HTTPClientError.remoteConnectionClosed }
            return collected
        }

        private func fail(_ e: VowError, _ task: HTTPClient.Task<Collected>) -> EventLoopFuture<Void> {
            error = e
            return task.eventLoop.makeFailedFuture(e)
        }
    }
}
