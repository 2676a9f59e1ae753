import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
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
        // An HTTP/2 connection's own errors (headers over its limit) fail its requests at once.
        c.http2ConnectionDebugInitializer = { HTTP2ConnectionErrors.install(on: $0) }
        c.http2StreamChannelDebugInitializer = { HTTP2ConnectionErrors.register(stream: $0) }
        if key.insecure || key.caFile != nil {
            var tls = c.tlsConfiguration ?? .makeClientConfiguration()
            if key.insecure { tls.certificateVerification = .none }
            if let file = key.caFile {
                do {
                    tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(file))]
                } catch {
                    throw HTTPFailure.unreadableAuthorities(path: file, reason: "\(error)")
                }
            }
            c.tlsConfiguration = tls
        }
        return c
    }

    func client(_ key: ClientKey) throws -> HTTPClient {
        try clients.withLock { c in
            if c.closed { throw HTTPFailure.shutDown }
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

    /// `shutdown`, waited for `limit` seconds at most: as vow exits, a connection still in a
    /// handshake that never completes (the client waits for its connect timeout) must not hold
    /// the exit back after the script's last statement has ended.
    public func shutdown(within limit: Double) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            self.shutdown()
            done.signal()
        }
        _ = done.wait(timeout: .now() + limit)
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
            let e = HTTPFailure.timeout(limit: spec.timeout, reason: nil).vowError(for: spec)
            resolver.reject(spec.download.map { $0.failed(e) } ?? e)
        }
        resolver.onCancel { task.cancel() }
        promise.whenSettled(on: executor, bookkeeping: true) { _ in timer.cancel() }
        return promise
    }

    func run(_ spec: HTTPRequestSpec) async throws -> Value {
        guard let download = spec.download else { return try await exchange(spec) }
        let lock = try download.lock()
        defer { download.unlock(lock) }
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
        let kept = offset > 0 ? spec.download?.storedValidator() : nil
        if offset > 0 {
            // A range of the body as it is, not of a coded form of it: the part file holds decoded bytes.
            first.headers.append(("Range", "bytes=\(offset)-"))
            if !first.hasHeader("Accept-Encoding") { first.headers.append(("Accept-Encoding", "identity")) }
            // The rest of the same file, or else the whole of the new one (200).
            if let kept, !first.hasHeader("If-Range") { first.headers.append(("If-Range", kept)) }
        }
        let (response, current) = try await lastHop(first, of: spec, start: start) { .now() + .nanoseconds(Int64((spec.timeout + 1) * 1e9)) }
        let headArrived = ContinuousClock.now
        let status = Int(response.status.code)
        if status == 206, let kept, let download = spec.download, let now = Download.validator(response.headers), now != kept {
            // A server that ignores If-Range sent a range of a file that changed: splicing it
            // would make a file that never existed. The part file goes; the whole is fetched.
            unlink(download.partPath)
            unlink(download.validatorPath)
            var whole = spec
            whole.download = download.fromTheStart
            return try await exchange(whole)
        }
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

    /// The error a request `spec` rejects with, for `error`: a `VowError` as it is, an
    /// `HTTPFailure` worded for `spec`, and any other (the client library's) as the failure it
    /// stands for (`HTTPFailure.init(_:of:)`).
    static func describe(_ error: any Error, _ spec: HTTPRequestSpec) -> any Error {
        if error is VowError { return error }
        return (error as? HTTPFailure ?? HTTPFailure(error, of: spec)).vowError(for: spec)
    }
}
