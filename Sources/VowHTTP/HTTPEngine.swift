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
