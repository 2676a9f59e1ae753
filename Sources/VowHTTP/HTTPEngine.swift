import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import NIOSSL
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import VowPromises
import VowValue

/// The session's HTTP client: one AsyncHTTPClient per kind of connection (the default one, and
/// one for each `--insecure`, `--cacert` and proxy asked for, made on first use), a connection
/// pool of up to `connectionsPerOrigin` connections to one host (HTTP/2 where TLS negotiates it, one
/// connection shared by many requests), redirects followed here so that each request can set
/// its own policy, and errors turned into `http`, `network` and `timeout` errors that name what
/// failed.
public final class HTTPEngine: Sendable {
    /// What makes two requests need different clients.
    struct ClientKey: Hashable {
        var insecure = false
        var proxy: ProxyChoice?
        /// A PEM file of certificate authorities trusted besides the system's.
        var caFile: String?
    }

    private struct Clients {
        var made: [ClientKey: HTTPClient] = [:]
        var closed = false
    }

    private let clients = Locked(Clients())
    /// The most HTTP/1 connections open to one origin at once: enough for any `--limit` a
    /// person asks of `each` (its default is 16), few enough to stay far from the process's
    /// file descriptor limit; requests beyond it wait their turn in order.
    static let connectionsPerOrigin = 256
    /// Kept-alive `http://` connections, for requests that need no proxy and no TLS.
    let plain = HTTP1Pool(perOrigin: connectionsPerOrigin)

    /// Makes an engine; clients are created on the first request.
    public init() {}

    static func configuration(_ key: ClientKey) throws -> HTTPClient.Configuration {
        var c = HTTPClient.Configuration()
        c.proxy = key.proxy?.setting
        c.redirectConfiguration = .disallow
        c.decompression = .enabled(limit: .none)
        c.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: Self.connectionsPerOrigin)
        c.connectionPool.retryConnectionEstablishment = false
        c.timeout.connect = .seconds(10)
        // No distributed tracing: the default (a no-op tracer) still builds a span and its
        // attributes for every request.
        c.tracing.tracer = nil
        if key.insecure || key.caFile != nil {
            var tls = c.tlsConfiguration ?? .makeClientConfiguration()
            if key.insecure { tls.certificateVerification = .none }
            if let file = key.caFile {
                do {
                    tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(file))]
                } catch {
                    throw VowError(.io, "cannot read the certificate authorities in \(file): \(error)")
                }
            }
            c.tlsConfiguration = tls
        }
        return c
    }

    func client(_ key: ClientKey) throws -> HTTPClient {
        try clients.withLock { c in
            if c.closed { throw VowError(.network, "the HTTP client is shut down") }
            if let client = c.made[key] { return client }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: try Self.configuration(key))
            c.made[key] = client
            return client
        }
    }

    deinit {
        // A session dropped without `shutdown()` still closes its clients, without blocking.
        let all = clients.withLock { c in Array(c.made.values) }
        for client in all { client.shutdown { _ in } }
        plain.shutdown()
    }

    /// Shuts the clients down (open connections are closed); later requests reject.
    public func shutdown() {
        let all = clients.withLock { c -> [HTTPClient] in
            c.closed = true
            defer { c.made = [:] }
            return Array(c.made.values)
        }
        for client in all { try? client.syncShutdown() }
        plain.shutdown()
    }

    // MARK: Requests

    /// Starts the request at once; the promise fulfils with a response value. Cancelling it aborts
    /// the request (the server sees the connection close).
    public func perform(_ spec: HTTPRequestSpec, on executor: any PromiseExecutor) -> Promise<Value> {
        let (promise, resolver) = Promise<Value>.pending(name: "http", on: executor)
        WorkInFlight.track(promise)
        if LoopExchange.handles(spec) {
            do {
                let client = try client(ClientKey(insecure: spec.insecure, proxy: spec.proxy, caFile: spec.caFile))
                let exchange = LoopExchange(spec, engine: self, client: client, resolver: resolver, executor: executor)
                resolver.onCancel { exchange.cancel() }
                exchange.start()
            } catch {
                let e = Self.describe(error, spec)
                executor.enqueueTask { resolver.reject(e) }
            }
            return promise
        }
        // The outcome arrives as a task, as an I/O callback does in JavaScript's event loop.
        let task = Task {
            do {
                let response = try await self.run(spec)
                executor.enqueueTask { resolver.fulfill(response) }
            } catch {
                let e = Self.describe(error, spec)
                executor.enqueueTask { resolver.reject(e) }
            }
        }
        // A timer on an event loop: far cheaper than a dispatch source per request.
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(Int64(spec.timeout * 1e9))) {
            // Reject first: the cancelled task's own error must not win the race.
            defer { task.cancel() }
            let e = Self.timeoutError(spec, details: ["method": .string(spec.method)])
            resolver.reject(spec.download.map { $0.failed(e) } ?? e)
        }
        resolver.onCancel { task.cancel() }
        promise.whenSettled(on: executor) { _ in timer.cancel() }
        return promise
    }

    func run(_ spec: HTTPRequestSpec) async throws -> Value {
        guard let download = spec.download else { return try await exchange(spec) }
        do {
            return try await exchange(spec)
        } catch {
            throw download.failed(Self.describe(error, spec))
        }
    }

    func exchange(_ spec: HTTPRequestSpec) async throws -> Value {
        let start = ContinuousClock.now
        var first = spec
        let offset = try spec.download?.bytesOnDisk() ?? 0
        if offset > 0 {
            // A range of the body as it is, not of a coded form of it: the part file holds decoded bytes.
            first.headers.append(("Range", "bytes=\(offset)-"))
            if !first.hasHeader("Accept-Encoding") { first.headers.append(("Accept-Encoding", "identity")) }
        }
        let (response, current) = try await lastHop(first, of: spec, start: start) { .now() + .nanoseconds(Int64((spec.timeout + 1) * 1e9)) }
        let headArrived = ContinuousClock.now
        let status = Int(response.status.code)
        if let download = current.download, status < 400 || (status == 416 && offset > 0) {
            let saved = try await download.write(response, url: current.url, offset: offset, maxSize: current.maxSize, spec: current)
            current.verbose?(VerboseExchange.done(bytes: saved.recordValue?["bytes"]?.intValue ?? 0, total: ContinuousClock.now - start))
            return saved
        }
        let raw = current.method == "HEAD" ? [] : try await readBody(response, max: current.maxSize, spec: current)
        let body = try Self.decoded(raw, response.headers, current)
        current.verbose?(VerboseExchange.done(bytes: body.count, total: ContinuousClock.now - start))
        return .response(
            try answer(makeResponse(response.status, response.version, response.headers, current, body: body, start: start, headArrived: headArrived), current))
    }

    /// Sends `first` (a hop of the request `spec`) and follows its redirects as `redirect` says,
    /// keeping cookies and showing `--verbose`; returns the last response, its body unread, and
    /// the hop that got it. `deadline` gives each hop's deadline. Too many redirects, or a loop,
    /// throws the `http` error.
    func lastHop(
        _ first: HTTPRequestSpec, of spec: HTTPRequestSpec, start: ContinuousClock.Instant, deadline: () -> NIODeadline
    ) async throws -> (HTTPClientResponse, HTTPRequestSpec) {
        let client = try client(ClientKey(insecure: spec.insecure, proxy: spec.proxy, caFile: spec.caFile))
        var current = first
        var visited: [String] = []
        while true {
            let url = try Self.checkedURL(current, spec)
            var request = HTTPClientRequest(url: current.url)
            request.method = HTTPMethod(rawValue: current.method)
            request.headers = Self.headers(current)
            if let body = current.body { request.body = .bytes(body) }
            if let upload = current.upload { request.body = upload.body() }
            let sent = ContinuousClock.now
            // The client adds Content-Length when it sends a body: shown too, as sent.
            let length = current.upload?.size ?? current.body?.count ?? (["POST", "PUT", "PATCH"].contains(current.method) ? 0 : nil)
            current.verbose?(VerboseExchange.request(request, url: url, bodyLength: length))
            let response = try await client.execute(request, deadline: deadline())
            current.verbose?(VerboseExchange.response(response, firstByte: ContinuousClock.now - sent))
            current.cookies?.store(response.headers["Set-Cookie"], from: current.url)
            // Drain nothing on a redirect: dropping the body lets the client close or reuse the connection.
            switch try Self.redirect(current, status: Int(response.status.code), headers: response.headers, url: url, visited: &visited, original: spec) {
            case .follow(let next):
                current = next
            case .refused(let message, let extra):
                let body = try await readBody(response, max: current.maxSize, spec: current)
                throw httpError(makeResponse(response.status, response.version, response.headers, current, body: body, start: start), message: message, extra: extra)
            case .none:
                return (response, current)
            }
        }
    }

    /// The URL of the hop `current` of the request `spec`, checked: http or https, with a host.
    static func checkedURL(_ current: HTTPRequestSpec, _ spec: HTTPRequestSpec) throws -> URL {
        guard let url = URL(string: current.url), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw VowError(.type, "\(spec.stage): invalid URL '\(redactURL(current.url))' (expected http:// or https://)")
        }
        return url
    }

    /// The headers a hop sends: the given ones, what vow accepts as encodings, the session's cookies.
    static func headers(_ current: HTTPRequestSpec) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for h in current.headers { headers.add(name: h.name, value: h.value) }
        // One gzip or deflate layer is decoded by the client, the rest here (ContentDecoding,
        // BodyDecoder), downloads too.
        if !headers.contains(name: "Accept-Encoding") {
            headers.add(name: "Accept-Encoding", value: ContentDecoding.accepted)
        }
        if let jar = current.cookies, let cookie = jar.header(for: current.url) {
            let given = headers["Cookie"].joined(separator: "; ")
            headers.replaceOrAdd(name: "Cookie", value: given.isEmpty ? cookie : given + "; " + cookie)
        }
        return headers
    }

    /// What a response means for a chain of redirects.
    enum Redirect {
        /// Not a redirect to follow: the response is the answer.
        case none
        /// The next hop.
        case follow(HTTPRequestSpec)
        /// Too many redirects, or a loop: the request rejects with this message.
        case refused(message: String, extra: Record)
    }

    /// The redirect step after a response of `status` to the hop `current` (at `url`) of the
    /// request `original`; `visited` gains the hop's URL when it redirects.
    static func redirect(
        _ current: HTTPRequestSpec, status: Int, headers: HTTPHeaders, url: URL, visited: inout [String], original spec: HTTPRequestSpec
    ) throws -> Redirect {
        guard current.follow, (300..<400).contains(status), status != 304, let location = headers.first(name: "Location") else { return .none }
        visited.append(current.url)
        guard let next = URL(string: location, relativeTo: url)?.absoluteString else {
            throw VowError(.http, "\(status): redirect to an invalid Location '\(location)'")
        }
        if visited.count > current.maxRedirects || visited.contains(next) {
            let loop = visited.contains(next)
            return .refused(
                message: loop
                    ? "redirect loop: \(redactURL(next)) was already visited — \(current.method) \(redactURL(spec.url))"
                    : "too many redirects (more than \(current.maxRedirects)) — \(current.method) \(redactURL(spec.url))",
                extra: ["redirects": .list(visited.map { .string(redactURL($0)) })])
        }
        var hop = current
        let sameOrigin = URL(string: next).map { $0.host == url.host && $0.scheme == url.scheme && $0.port == url.port } ?? false
        if status == 303 || ((status == 301 || status == 302) && current.method == "POST") {
            hop.method = current.method == "HEAD" ? "HEAD" : "GET"
            hop.body = nil
            hop.upload = nil
            hop.headers.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
        }
        if !sameOrigin {
            // The session's headers belong to the origin they were given for.
            hop.headers.removeFirst(min(hop.sessionHeaderCount, hop.headers.count))
            hop.givenHeaderCount = max(0, hop.givenHeaderCount - hop.sessionHeaderCount)
            hop.sessionHeaderCount = 0
            hop.headers.removeAll { ["authorization", "cookie", "proxy-authorization"].contains($0.name.lowercased()) }
        }
        hop.url = next
        return .follow(hop)
    }

    /// The body of the last hop decoded by its `Content-Encoding` (`br`; the client decodes gzip
    /// and deflate), within `--max-size`.
    static func decoded(_ raw: [UInt8], _ headers: HTTPHeaders, _ current: HTTPRequestSpec) throws -> [UInt8] {
        try ContentDecoding.decode(
            raw, encodings: headers["Content-Encoding"], max: current.maxSize, what: "\(current.method) \(redactURL(current.url))")
    }

    /// The response of the last hop, or an `http` error for a 4xx or 5xx status unless errors
    /// are allowed.
    func answer(_ resp: HTTPResponse, _ current: HTTPRequestSpec) throws -> HTTPResponse {
        if resp.status >= 400 && !current.allowErrors {
            // A proxy's own refusal (407, or one that says so: Proxy-Status, squid's X-Squid-Error)
            // names the proxy and its reason.
            if let proxy = current.proxy,
                resp.status == 407 || resp.header("Proxy-Status") != nil || resp.header("X-Squid-Error") != nil
            {
                let reason = resp.header("Proxy-Status") ?? resp.header("X-Squid-Error")
                throw httpError(
                    resp,
                    message: "the proxy \(bracketed(proxy.host)):\(proxy.port) refused the request: \(resp.status) \(resp.statusText)"
                        + (reason.map { " (\(TerminalText.visibleLine($0)))" } ?? "") + " — \(current.method) \(redactURL(current.url))",
                    extra: ["proxy": .string("\(bracketed(proxy.host)):\(proxy.port)")])
            }
            throw httpError(resp, message: "\(resp.status) \(resp.statusText) — \(current.method) \(redactURL(current.url))")
        }
        return resp
    }

    func readBody(_ response: HTTPClientResponse, max: Int, spec: HTTPRequestSpec) async throws -> [UInt8] {
        if let error = Self.announcedTooBig(response.headers, status: response.status, max: max, spec: spec) { throw error }
        var out: [UInt8] = []
        for try await chunk in response.body {
            if out.count + chunk.readableBytes > max { throw Self.tooBig(status: response.status, max: max, spec: spec) }
            chunk.withUnsafeReadableBytes { out.append(contentsOf: $0) }
        }
        return out
    }

    /// The error for a body whose Content-Length is over `max`, or nil.
    static func announcedTooBig(_ headers: HTTPHeaders, status: HTTPResponseStatus, max: Int, spec: HTTPRequestSpec) -> VowError? {
        guard let length = headers.first(name: "Content-Length").flatMap(Int.init), length > max else { return nil }
        return VowError(
            .http, "the body is \(length) bytes, over the limit of \(max) (--max-size) — \(spec.method) \(redactURL(spec.url))",
            details: ["status": .int(Int(status.code)), "limit": .int(max), "size": .int(length)])
    }

    /// The error for a body that grew over `max` as it arrived.
    static func tooBig(status: HTTPResponseStatus, max: Int, spec: HTTPRequestSpec) -> VowError {
        VowError(
            .http, "the body is over the limit of \(max) bytes (--max-size) — \(spec.method) \(redactURL(spec.url))",
            details: ["status": .int(Int(status.code)), "limit": .int(max)])
    }

    func makeResponse(
        _ status: HTTPResponseStatus, _ version: HTTPVersion, _ headers: HTTPHeaders, _ current: HTTPRequestSpec, body: [UInt8],
        start: ContinuousClock.Instant, headArrived: ContinuousClock.Instant? = nil
    ) -> HTTPResponse {
        HTTPResponse(
            status: Int(status.code), statusText: status.reasonPhrase, url: current.url, method: current.method,
            headers: headers.map { (name: $0.name, value: $0.value) }, elapsed: (ContinuousClock.now - start).inSeconds, body: body,
            version: version.major == 2 ? "HTTP/2" : "HTTP/\(version.major).\(version.minor)",
            firstByte: headArrived.map { ($0 - start).inSeconds })
    }

    func httpError(_ r: HTTPResponse, message: String, extra: Record = Record()) -> VowError {
        var d = Record()
        d["status"] = .int(r.status)
        d["statusText"] = .string(r.statusText)
        d["url"] = .string(redactURL(r.url))
        d["method"] = .string(r.method)
        d["headers"] = .record(r.headerRecord(redacting: isSecretHeader))
        if let parsed = try? JSON.parse(r.body) {
            d["body"] = parsed
        } else if let text = String(validating: r.body, as: UTF8.self) {
            d["body"] = .string(text)
        } else {
            d["body"] = Value.bytes(r.body).toJSONValue()
        }
        if let after = r.header("Retry-After"), let seconds = parseRetryAfter(after) {
            d["retryAfter"] = .double(seconds)
        }
        for (k, v) in zip(extra.keys, extra.values) { d[k] = v }
        return VowError(.http, message, details: d)
    }

    /// Turns a client failure into a `network` (or `timeout`) error naming host and port.
    static func describe(_ error: any Error, _ spec: HTTPRequestSpec) -> any Error {
        if error is VowError { return error }
        let url = URL(string: spec.url)
        let host = url?.host ?? "?"
        let port = url?.port ?? (url?.scheme?.lowercased() == "https" ? 443 : 80)
        let target = "\(bracketed(host)):\(port)"
        let what = "\(spec.method) \(redactURL(spec.url))"
        var details: Record = ["host": .string(host), "port": .int(port), "url": .string(redactURL(spec.url))]
        let text = String(describing: error)
        details["reason"] = .string(text)
        if error is CancellationError {
            return VowError(.cancelled, "request cancelled — \(what)", details: details)
        }
        if let e = error as? HTTPClientError {
            let proxy = spec.proxy.map { "\(bracketed($0.host)):\($0.port)" } ?? "?"
            switch e {
            case .invalidProxyResponse:
                return VowError(
                    .network,
                    "the proxy \(proxy) refused to open a tunnel to \(target) (it answered CONNECT with an error status; many proxies allow CONNECT to port 443 only) — \(what)",
                    details: details.adding("proxy", .string(proxy)))
            case .proxyAuthenticationRequired:
                return VowError(
                    .network, "the proxy \(proxy) asks for credentials (407 Proxy Authentication Required): give them in the proxy URL, http://user:pass@host:port — \(what)",
                    details: details.adding("proxy", .string(proxy)).adding("status", .int(407)))
            default: break
            }
            switch e {
            case .deadlineExceeded, .readTimeout:
                return timeoutError(spec, details: details)
            case .connectTimeout:
                return VowError(.network, "connecting to \(target) timed out — \(what)", details: details)
            case .remoteConnectionClosed:
                return VowError(.network, "\(target) closed the connection before the response was complete — \(what)", details: details)
            case .cancelled:
                return VowError(.cancelled, "request cancelled — \(what)", details: details)
            default: break
            }
        }
        if let e = error as? HTTPParserError {
            return VowError(.network, "\(target) \(protocolFailure(e)) — \(what)", details: details)
        }
        if let e = error as? NIOHTTPDecompression.DecompressionError {
            let encoding = "Content-Encoding"
            switch e {
            case .limit:
                return VowError(.http, "the decoded body is over the limit of \(spec.maxSize) bytes (--max-size) — \(what)", details: details)
            default:
                return VowError(
                    .http, "the body from \(target) is not valid gzip or deflate data (its compressed data is corrupt), though its \(encoding) says it is — \(what)",
                    details: details)
            }
        }
        if let e = error as? NIOConnectionError {
            if e.connectionErrors.isEmpty, e.dnsAError != nil || e.dnsAAAAError != nil {
                return VowError(.network, "cannot resolve host '\(host)' — \(what)", details: details)
            }
            if let first = e.connectionErrors.first?.error as? IOError {
                return ioFailure(first.errnoCode, target: target, what: what, details: details)
            }
        }
        if let e = error as? IOError {
            return ioFailure(e.errnoCode, target: target, what: what, details: details)
        }
        if error is NIOConnectionError || text.contains("resolve") || text.contains("DNS") {
            return VowError(.network, "cannot resolve host '\(host)' — \(what)", details: details)
        }
        let typeName = String(reflecting: type(of: error))
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return VowError(
                .network,
                "TLS: the certificate of \(target) is not trusted (CERTIFICATE_VERIFY_FAILED: self-signed, expired, or for another name); --cacert FILE trusts its authority, --insecure skips the check — \(what)",
                details: details)
        }
        if typeName.contains("SSL") || typeName.contains("TLS") || text.contains("certificate") {
            return VowError(.network, "TLS failure with \(target): \(text) — \(what)", details: details)
        }
        if text.contains("connectionRefused") || text.lowercased().contains("refused") {
            return VowError(.network, "connection refused \(target) — \(what)", details: details)
        }
        if text.contains("NIOHTTPDecoderError") || text.contains("HTTPParserError") || typeName.contains("HTTPParserError") {
            return VowError(.network, "protocol error from \(target): \(text) — \(what)", details: details)
        }
        return VowError(.network, "request to \(target) failed: \(text) — \(what)", details: details)
    }

    /// What a server did wrong, in words, for the HTTP parser's error `e` (after the server's
    /// host and port: "127.0.0.1:80 closed the connection …").
    static func protocolFailure(_ e: HTTPParserError) -> String {
        switch e {
        case .invalidEOFState, .closedConnection:
            return "closed the connection before the body was complete (it sent fewer bytes than its Content-Length or chunks announced)"
        case .invalidContentLength, .unexpectedContentLength:
            return "sent a Content-Length that cannot be used (not a number, repeated with another value, or beside Transfer-Encoding: chunked)"
        case .invalidChunkSize:
            return "sent a chunked body with an invalid chunk size"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected:
            return "sent a response head with invalid characters (not a valid HTTP response)"
        case .invalidVersion, .invalidStatus, .invalidConstant:
            return "did not answer with a valid HTTP status line (not a valid HTTP response: \(e))"
        default:
            return "sent what is not a valid HTTP response (\(e))"
        }
    }

    /// The `timeout` error of a request that did not complete within `--timeout`.
    static func timeoutError(_ spec: HTTPRequestSpec, details: Record) -> VowError {
        var d = details
        d["limit"] = .double(spec.timeout)
        d["url"] = .string(redactURL(spec.url))
        return VowError(.timeout, "no complete response within \(TimeText.duration(spec.timeout)) — \(spec.method) \(redactURL(spec.url))", details: d)
    }

    static func ioFailure(_ errno: Int32, target: String, what: String, details: Record) -> VowError {
        switch errno {
        case ECONNREFUSED: return VowError(.network, "connection refused \(target) — \(what)", details: details)
        case ECONNRESET: return VowError(.network, "connection reset by \(target) — \(what)", details: details)
        case ETIMEDOUT: return VowError(.network, "connecting to \(target) timed out — \(what)", details: details)
        case ENETUNREACH, EHOSTUNREACH: return VowError(.network, "\(target) is unreachable — \(what)", details: details)
        default: return VowError(.network, "request to \(target) failed: \(String(cString: strerror(errno))) — \(what)", details: details)
        }
    }
}

/// A Retry-After value: seconds, or an HTTP date.
func parseRetryAfter(_ s: String) -> Double? {
    let t = s.trimmingCharacters(in: .whitespaces)
    if let n = Double(t), n >= 0 { return n }
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "GMT")
    f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    if let d = f.date(from: t) { return max(0, d.timeIntervalSinceNow) }
    return nil
}
