// Over 400 lines on purpose: one fixture server whose routes (each a few lines) are read as one list
// of what the tests may ask of it.
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1, on a free port, that the tests start themselves.
///
/// Its routes reflect requests and misbehave on demand, so that every way a server can fail is
/// met for real:
///
/// | route | behaviour |
/// | --- | --- |
/// | `/bench.json` | a 1 KB JSON document (for scripts/bench http) |
/// | `/user.json` | `{"user": {"name": "Ada Lovelace", "login": "ada"}}` |
/// | `/followers/NAME` | `{"name": NAME, "count": 42}` |
/// | `/echo` | any method; reflects `{method, path, query, headers, body, bodyText}` |
/// | `/status/CODE` | answers CODE with a JSON body `{"error": …, "status": CODE}` |
/// | `/redirect/N` | a chain of N redirects ending at `/echo` |
/// | `/redirect-to?url=U&code=C` | one redirect to U (status C, default 302) |
/// | `/loop` | redirects to itself |
/// | `/cookie` | sets a cookie |
/// | `/retry-after?key=K&fails=N&status=S&after=SECONDS` | answers S (429) with Retry-After the first N times per key |
/// | `/gzip` | a gzip-encoded JSON body |
/// | `/gzip-bomb` | 1 GB of zeros, gzip-encoded (about 4.4 MB on the wire) |
/// | `/slow?ms=N` | headers at once, then the body a chunk every 50 ms for N ms |
/// | `/sse?n=N&ms=M` | N server-sent events, one every M ms (a client that leaves early: `hits("sse-abandoned")`) |
/// | `/ndjson?n=N&ms=M` | N lines of NDJSON, one every M ms (`hits("ndjson-abandoned")`) |
/// | `/stall` | never answers |
/// | `/reset` | promises 100000 bytes, sends 10, closes the connection |
/// | `/invalid-json` | a JSON content type with a broken body |
/// | `/invalid-utf8` | bytes that are not UTF-8 |
/// | `/big?bytes=N` | N bytes with a Content-Length; `/big-chunked?bytes=N` without one |
/// | `/count?key=K` | how many requests K has seen |
/// | `/job?key=K&after=MS` | `{id, status, polls}`: `running` until MS ms after K's first request, then `done` |
public final class FixtureServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// Whether the server speaks TLS (with a self-signed certificate).
    public let tls: Bool
    /// `http://127.0.0.1:PORT` (or `https://`).
    public var base: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }

    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup
    let stats: Stats

    /// Counters shared by every connection.
    final class Stats: Sendable {
        let opened = Atomic<Int>(0)
        let closed = Atomic<Int>(0)
        let hits = NIOLockedValueBox<[String: Int]>([:])
        /// When each `/job` key was first asked for.
        let firstSeen = NIOLockedValueBox<[String: Double]>([:])

        func hit(_ key: String) -> Int {
            hits.withLockedValue { h in
                h[key, default: 0] += 1
                return h[key]!
            }
        }
    }

    /// Connections the server has seen opened.
    public var openedConnections: Int { stats.opened.load(ordering: .acquiring) }
    /// Connections the server has seen closed (by either side).
    public var closedConnections: Int { stats.closed.load(ordering: .acquiring) }

    /// How many requests have hit `path` (query excluded).
    public func hits(_ path: String) -> Int { stats.hits.withLockedValue { $0["path:" + path] ?? 0 } }

    /// Starts a server on a free port of 127.0.0.1; with `tls`, HTTPS with a self-signed
    /// certificate for 127.0.0.1, which a client that verifies certificates must refuse.
    public static func start(tls: Bool = false) throws -> FixtureServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let stats = Stats()
        let sslContext: NIOSSLContext? = try tls ? {
            let cert = try NIOSSLCertificate(bytes: Array(selfSignedCertificate.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(selfSignedKey.utf8), format: .pem)
            return try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(cert)], privateKey: .privateKey(key)))
        }() : nil
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                stats.opened.wrappingAdd(1, ordering: .relaxed)
                channel.closeFuture.whenComplete { _ in stats.closed.wrappingAdd(1, ordering: .releasing) }
                if let sslContext {
                    do {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    } catch {
                        return channel.eventLoop.makeFailedFuture(error)
                    }
                }
                return channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(FixtureHandler(stats: stats))
                }
            }
        let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        return FixtureServer(port: channel.localAddress!.port!, channel: channel, group: group, stats: stats, tls: tls)
    }

    private init(port: Int, channel: any Channel, group: MultiThreadedEventLoopGroup, stats: Stats, tls: Bool) {
        self.tls = tls
        self.port = port
        self.channel = channel
        self.group = group
        self.stats = stats
    }

    /// Waits (bounded) until at least `n` connections have been closed; returns whether they were.
    public func waitForClosedConnections(_ n: Int, timeout: Double = 5) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while closedConnections < n {
            if Date() > end { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// Stops listening and closes every connection.
    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// 1 GB of zeros as gzip, about 4.4 MB (made once, with the system's gzip; its trailer declares
/// the 1 GB).
let gzipBomb: [UInt8] = {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", "head -c 1000000000 /dev/zero | gzip -1 -c"]
    let out = Pipe()
    p.standardOutput = out
    try? p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return [UInt8](data)
}()

/// A 1 KB JSON document for the HTTP benchmark.
let benchDocument: [UInt8] = {
    var items: [String] = []
    var i = 0
    while items.joined(separator: ",").utf8.count < 960 {
        items.append("{\"id\":\(i),\"name\":\"item-\(i)\",\"ok\":true}")
        i += 1
    }
    return Array(("{\"items\":[" + items.joined(separator: ",") + "]}").utf8)
}()

/// A gzip stream (mtime 0) of `{"compressed": true, "items": [1, 2, 3]}`.
let gzippedJSON: [UInt8] = [
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff, 0xab, 0x56, 0x4a, 0xce, 0xcf, 0x2d, 0x28, 0x4a,
    0x2d, 0x2e, 0x4e, 0x4d, 0x51, 0xb2, 0x52, 0x28, 0x29, 0x2a, 0x4d, 0xd5, 0x51, 0x50, 0xca, 0x2c, 0x49, 0xcd,
    0x2d, 0x06, 0x72, 0xa3, 0x0d, 0x75, 0x14, 0x8c, 0x74, 0x14, 0x8c, 0x63, 0x6b, 0x01, 0xe9, 0x97, 0xf4, 0x84,
    0x28, 0x00, 0x00, 0x00,
]

/// The body of the fixture's /file route: `n` bytes of a fixed pattern.
public func fileBytes(_ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7 &+ $0 / 251) } }

/// `{"brotli": true, "items": [{"id": 1, "name": "item 1"}, … 100 items]}` (2,709 bytes), brotli
/// quality 11: made with libbrotlienc's BrotliEncoderCompress(11, 22, mode 0).
let brotliJSON: [UInt8] = [
    0x1b, 0x94, 0x0a, 0x38, 0x2d, 0x0a, 0xec, 0x36, 0x96, 0xec, 0x5d, 0x99, 0xe9, 0x14, 0x1d, 0xc9, 0x87, 0x5c,
    0x4d, 0xb9, 0x47, 0x26, 0x62, 0xd2, 0x95, 0xe4, 0xc7, 0x85, 0x9d, 0x37, 0x09, 0x71, 0x5b, 0x24, 0x0d, 0x84,
    0x6d, 0xf6, 0x75, 0xb1, 0x84, 0x0e, 0xff, 0xbc, 0x7f, 0x30, 0xc0, 0xa7, 0x7a, 0x77, 0xe8, 0xed, 0xa3, 0xc5,
    0x59, 0x6d, 0x81, 0xa4, 0x89, 0x14, 0x50, 0x0b, 0x31, 0xc4, 0xc1, 0xd1, 0x88, 0xcf, 0x76, 0xc8, 0x24, 0xa4,
    0x98, 0x7a, 0xf0, 0x1a, 0x7d, 0x3e, 0x8b, 0x57, 0xe3, 0x5f, 0x7f, 0x35, 0xfc, 0xd4, 0x5d, 0x5e, 0xc3, 0x27,
    0xe0, 0x10, 0x1a, 0xc1, 0x63, 0x64, 0x82, 0x4e, 0x31, 0x33, 0xd8, 0x59, 0xdc, 0xdc, 0x0f, 0x3c, 0x5f, 0x78,
    0x84, 0x40, 0x0c, 0xa5, 0x48, 0x8e, 0x95, 0x44, 0x4d, 0x35, 0x19, 0x6d, 0x56, 0x37, 0x77, 0xe0, 0x5b, 0x7c,
    0x42, 0x20, 0x86, 0x52, 0x24, 0xc7, 0x4a, 0xa2, 0xa6, 0x9a, 0x8c, 0x36, 0xab, 0x9b, 0x3b, 0xe8, 0x2d, 0x3d,
    0x21, 0x10, 0x43, 0x29, 0x92, 0x63, 0x25, 0x51, 0x53, 0x4d, 0x46, 0x9b, 0xd5, 0xcd, 0x1d, 0xfc, 0x96, 0x9f,
    0x10, 0x88, 0xa1, 0x14, 0xc9, 0xb1, 0x92, 0xa8, 0xa9, 0x26, 0xa3, 0xcd, 0xea, 0xe6, 0x0e, 0x79, 0x2b, 0x4f,
    0x08, 0xc4, 0x50, 0x8a, 0xe4, 0x58, 0x49, 0xd4, 0x54, 0x93, 0xd1, 0x66, 0x75, 0x73, 0x87, 0xbe, 0xd5, 0x27,
    0x04, 0x62, 0x28, 0x45, 0x72, 0xac, 0x24, 0x6a, 0xaa, 0xc9, 0x68, 0xb3, 0xba, 0xb9, 0xc3, 0xbc, 0x35, 0x4f,
    0x08, 0xc4, 0x50, 0x8a, 0xe4, 0x58, 0x49, 0xd4, 0x54, 0x93, 0xd1, 0x66, 0x75, 0x73, 0x87, 0x7d, 0x6b, 0x9f,
    0x10, 0x88, 0xa1, 0x14, 0xc9, 0xb1, 0x92, 0xa8, 0xa9, 0x26, 0xa3, 0xcd, 0xea, 0xe6, 0x0e, 0xf7, 0xd6, 0x3d,
    0x21, 0x10, 0x43, 0x29, 0x92, 0x63, 0x25, 0x51, 0x53, 0x4d, 0x46, 0x9b, 0xd5, 0xbd, 0x9d, 0xea, 0xb3, 0x8b,
    0xdb, 0x00,
]

/// 10,000,000 zero bytes, brotli-compressed to 27 bytes (the same way).
let brotliBomb: [UInt8] = [
    0xcb, 0xff, 0xff, 0x3f, 0xf8, 0x27, 0x00, 0xe2, 0xb1, 0x40, 0x20, 0xf7, 0xfe, 0x2f, 0xff, 0x2c, 0x31, 0xf0,
    0x4f, 0x00, 0xc4, 0x61, 0x11, 0x80, 0x8e, 0x23, 0x06,
]

final class FixtureHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let stats: FixtureServer.Stats
    var head: HTTPRequestHead?
    var body: [UInt8] = []

    init(stats: FixtureServer.Stats) { self.stats = stats }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = []
        case .body(var buf):
            body += buf.readBytes(length: buf.readableBytes) ?? []
        case .end:
            guard let head else { return }
            respond(context: context, head: head, body: body)
            self.head = nil
        }
    }

    // MARK: Routing

    func respond(context: ChannelHandlerContext, head: HTTPRequestHead, body: [UInt8]) {
        let (path, query) = split(head.uri)
        _ = stats.hit("path:" + path)
        let parts = path.split(separator: "/").map(String.init)
        let keepAlive = head.isKeepAlive
        func send(_ status: HTTPResponseStatus, json: Any, headers: [(String, String)] = []) {
            let data = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) ?? Data()
            write(context, status, [("Content-Type", "application/json")] + headers, Array(data), keepAlive: keepAlive)
        }
        switch parts.first ?? "" {
        case "bench.json":
            write(context, .ok, [("Content-Type", "application/json")], benchDocument, keepAlive: keepAlive)
        case "user.json":
            send(.ok, json: ["user": ["name": "Ada Lovelace", "login": "ada"]])
        case "followers":
            send(.ok, json: ["name": parts.count > 1 ? parts[1] : "", "count": 42])
        case "echo":
            var headers: [String: String] = [:]
            for (k, v) in head.headers { headers[k.lowercased()] = headers[k.lowercased()].map { $0 + ", " + v } ?? v }
            let text = String(decoding: body, as: UTF8.self)
            let parsed = (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) ?? NSNull()
            send(.ok, json: [
                "method": head.method.rawValue, "path": path, "uri": head.uri,
                "query": query, "headers": headers, "body": parsed, "bodyText": text,
            ])
        case "status":
            let code = Int(parts.count > 1 ? parts[1] : "") ?? 500
            let status = HTTPResponseStatus(statusCode: code)
            send(status, json: ["error": status.reasonPhrase, "status": code])
        case "redirect":
            let n = Int(parts.count > 1 ? parts[1] : "") ?? 0
            let target = n <= 1 ? "/echo" : "/redirect/\(n - 1)"
            write(context, .found, [("Location", target)], [], keepAlive: keepAlive)
        case "redirect-to":
            let code = Int(query["code"] ?? "") ?? 302
            write(context, HTTPResponseStatus(statusCode: code), [("Location", query["url"] ?? "/echo")], [], keepAlive: keepAlive)
        case "loop":
            write(context, .found, [("Location", "/loop")], [], keepAlive: keepAlive)
        case "cookies":
            // /cookies: the cookies the request carried; /cookies/set?k=v…: sets each (Path=/)
            // and redirects to /cookies, as httpbin does; /cookies/delete?k: expires k;
            // /cookies/raw?h=HEADER: sends HEADER as a Set-Cookie verbatim.
            let action = parts.count > 1 ? parts[1] : ""
            if action == "set" || action == "delete" || action == "raw" {
                var headers: [(String, String)] = [("Location", "/cookies")]
                for (k, v) in query.sorted(by: { $0.key < $1.key }) {
                    switch action {
                    case "set": headers.append(("Set-Cookie", "\(k)=\(v); Path=/"))
                    case "delete": headers.append(("Set-Cookie", "\(k)=; Max-Age=0; Path=/"))
                    default: headers.append(("Set-Cookie", v))
                    }
                }
                write(context, .found, headers, [], keepAlive: keepAlive)
                break
            }
            var cookies: [String: String] = [:]
            for header in head.headers["Cookie"] {
                for pair in header.split(separator: ";") {
                    let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if kv.count == 2 { cookies[kv[0]] = kv[1] }
                }
            }
            send(.ok, json: ["cookies": cookies, "header": head.headers["Cookie"].joined(separator: "; ")])
        case "cookie":
            send(.ok, json: ["ok": true], headers: [("Set-Cookie", "session=s3cret; Path=/")])
        case "retry-after":
            let key = query["key"] ?? "default"
            let n = stats.hit("retry:" + key)
            let fails = Int(query["fails"] ?? "") ?? 1
            if n <= fails {
                let status = HTTPResponseStatus(statusCode: Int(query["status"] ?? "") ?? 429)
                send(status, json: ["attempt": n], headers: [("Retry-After", query["after"] ?? "1")])
            } else {
                send(.ok, json: ["attempt": n])
            }
        case "job":
            // A job that is done once `after` ms have passed since its first request (per key):
            // {"id": KEY, "status": "running" | "done", "polls": N}.
            let key = query["key"] ?? "default"
            let after = Double(query["after"] ?? "") ?? 1000
            let polls = stats.hit("job:" + key)
            let now = Date().timeIntervalSince1970
            let first = stats.firstSeen.withLockedValue { f -> Double in
                if let t = f[key] { return t }
                f[key] = now
                return now
            }
            let done = (now - first) * 1000 >= after
            send(.ok, json: ["id": key, "status": done ? "done" : "running", "polls": polls])
        case "count":
            let key = query["key"] ?? "default"
            send(.ok, json: ["count": stats.hits.withLockedValue { $0["retry:" + key] ?? 0 }])
        case "pages":
            // A paged API of 3 pages of 3 items, in the three styles at once: a `Link: <…>;
            // rel="next"` header, a `next` URL in the body (relative), and a `cursor` token for
            // /pages?after=TOKEN. Next links keep the query (but `after`); `offsite=1` points them
            // at another origin (localhost), `needs=auth` answers 401 without an Authorization.
            let host = head.headers["Host"].first ?? "127.0.0.1"
            if query["needs"] == "auth", head.headers["Authorization"].isEmpty {
                send(.unauthorized, json: ["error": "no credentials"])
                break
            }
            let n = parts.count > 1 ? Int(parts[1]) ?? 1 : (query["after"].flatMap { Int($0.dropFirst(1)) }.map { $0 + 1 } ?? 1)
            guard (1...3).contains(n) else { send(.notFound, json: ["error": "no page \(n)"]); break }
            let items = (1...3).map { ["id": (n - 1) * 3 + $0] }
            let kept = query.filter { $0.key != "after" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let suffix = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
            let nextPath = n < 3 ? "/pages/\(n + 1)\(suffix)" : nil
            let nextURL = nextPath.map { query["offsite"] == "1" ? "http://localhost:\(host.split(separator: ":").last ?? "80")\($0)" : $0 }
            var links = ["</pages/1\(suffix)>; rel=\"first\""]
            if let nextURL { links.insert("<\(nextURL)>; rel=\"next\"", at: 0) }
            send(.ok, json: [
                "page": n, "items": items, "next": nextURL ?? NSNull(),
                "cursor": n < 3 ? "c\(n)" : NSNull(),
            ] as [String: Any], headers: [("Link", links.joined(separator: ", "))])
        case "records":
            // Kinto's paging: 3 pages of 3 records under `data`, the next page's absolute URL in a
            // `Next-Page` header and the whole count in `Total-Records` (no Link header).
            let host = head.headers["Host"].first ?? "127.0.0.1"
            let n = Int(query["_page"] ?? "1") ?? 1
            guard (1...3).contains(n) else { send(.notFound, json: ["error": "no page \(n)"]); break }
            var headers = [("Total-Records", "9")]
            if n < 3 { headers.append(("Next-Page", "http://\(host)/records?_page=\(n + 1)")) }
            send(.ok, json: ["data": (1...3).map { ["id": (n - 1) * 3 + $0] }], headers: headers)
        case "upload":
            // A multipart/form-data body, parsed: {fields: {name: text}, files: {name: {filename,
            // contentType, size, text}}, parts: N}.
            let type = head.headers["Content-Type"].first ?? ""
            guard let b = type.range(of: "boundary=") else { send(.badRequest, json: ["error": "not multipart: \(type)"]); break }
            let boundary = String(type[b.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard let parts = multipartParts(body, boundary: boundary) else { send(.badRequest, json: ["error": "malformed multipart body"]); break }
            var fields: [String: String] = [:], files: [String: Any] = [:]
            for part in parts {
                if let filename = part.filename {
                    files[part.name] = [
                        "filename": filename, "contentType": part.contentType ?? NSNull(), "size": part.data.count,
                        "text": String(validating: part.data, as: UTF8.self) ?? NSNull(),
                    ] as [String: Any]
                } else {
                    fields[part.name] = String(decoding: part.data, as: UTF8.self)
                }
            }
            send(.ok, json: ["fields": fields, "files": files, "parts": parts.count])
        case "file":
            // N deterministic bytes that honour `Range: bytes=S-` (206, or 416 past the end);
            // `cut=K` sends K bytes of a full response, then closes the connection.
            // `version=b` is another file of the same size, with ETag "b" (else "a"); If-Range is
            // honoured (a validator that is not the current one gets the whole file) unless
            // `if-range=ignored`, as a server without If-Range support does.
            let n = Int(query["bytes"] ?? "") ?? 100_000
            let version = query["version"] ?? "a"
            let all = version == "a" ? fileBytes(n) : fileBytes(n).map { $0 ^ 0x5A }
            let etag = "\"\(version)\""
            let ifRange = head.headers["If-Range"].first
            let rangeHonoured = ifRange == nil || ifRange == etag || query["if-range"] == "ignored"
            if rangeHonoured, let range = head.headers["Range"].first, range.hasPrefix("bytes="), let start = Int(range.dropFirst(6).split(separator: "-").first ?? "") {
                guard start < n else {
                    write(context, HTTPResponseStatus(statusCode: 416), [("Content-Range", "bytes */\(n)")], [], keepAlive: keepAlive)
                    break
                }
                write(context, .partialContent, [("Content-Type", "application/octet-stream"), ("Content-Range", "bytes \(start)-\(n - 1)/\(n)"), ("ETag", etag)],
                    Array(all[start...]), keepAlive: keepAlive)
                break
            }
            if let cut = Int(query["cut"] ?? "") {
                var h = HTTPHeaders()
                h.add(name: "Content-Type", value: "application/octet-stream")
                h.add(name: "Content-Length", value: String(n))
                h.add(name: "ETag", value: etag)
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: h))), promise: nil)
                var buf = context.channel.allocator.buffer(capacity: cut)
                buf.writeBytes(all[..<min(cut, n)])
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buf))), promise: nil)
                let ctx = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .milliseconds(20)) { ctx.value.close(promise: nil) }
                break
            }
            write(context, .ok, [("Content-Type", "application/octet-stream"), ("ETag", etag)], all, keepAlive: keepAlive)
        case "brotli":
            // As httpbin's /brotli: a br body, whatever the request accepts.
            write(context, .ok, [("Content-Type", "application/json"), ("Content-Encoding", "br")], brotliJSON, keepAlive: keepAlive)
        case "brotli-bomb":
            write(context, .ok, [("Content-Type", "application/octet-stream"), ("Content-Encoding", "br")], brotliBomb, keepAlive: keepAlive)
        case "brotli-broken":
            write(context, .ok, [("Content-Type", "application/json"), ("Content-Encoding", "br")], Array(brotliJSON.prefix(100)), keepAlive: keepAlive)
        case "zstd":
            write(context, .ok, [("Content-Type", "application/json"), ("Content-Encoding", "zstd")], [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x58, 0x01, 0x00], keepAlive: keepAlive)
        case "gzip-bomb":
            // 1 GB of zeros, gzip-compressed to about 4.4 MB.
            write(context, .ok, [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")], gzipBomb, keepAlive: keepAlive)
        case "gzip":
            write(context, .ok, [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], gzippedJSON, keepAlive: keepAlive)
        case "slow":
            slow(context, ms: Int(query["ms"] ?? "") ?? 1000)
        case "sse":
            // Server-sent events: a comment, then N events (one with two data lines, one whose
            // data is not JSON), one every MS milliseconds. With RETRY, the first event asks the
            // client to reconnect after RETRY milliseconds; a request with Last-Event-ID resumes
            // after that id, and gets 204 (no more) once all N were sent. With DROP, the
            // connection breaks (closed without ending the body) after DROP events.
            let n = max(1, Int(query["n"] ?? "") ?? 5)
            let resumed = head.headers["Last-Event-ID"].first.flatMap { Int($0) }
            if resumed != nil { _ = stats.hit("path:sse-resumed") }
            let from = (resumed ?? 0) + 1
            if from > n {
                write(context, .noContent, [], [], keepAlive: keepAlive)
                break
            }
            var pieces = [": a comment the client ignores\n\n"]
            for i in from...n {
                var e = "id: \(i)\nevent: tick\n"
                if i == from, let retry = query["retry"] { e += "retry: \(retry)\n" }
                if i == 3 { e += "data: {\"i\": 3,\ndata: \"two\": \"lines\"}\n\n" } else if i == 4 { e += "data: plain text\n\n" } else { e += "data: {\"i\": \(i)}\n\n" }
                pieces.append(e)
            }
            // With STUCK, a resumed connection breaks before any event.
            let drop = resumed != nil && query["stuck"] != nil ? 1 : Int(query["drop"] ?? "").map { $0 + 1 }
            drip(context, contentType: "text/event-stream", pieces: pieces, every: Int(query["ms"] ?? "") ?? 100, key: "sse", breakingAfter: drop)
        case "ndjson":
            let n = Int(query["n"] ?? "") ?? 5
            let pieces = (1...max(1, n)).map { "{\"id\": \($0), \"name\": \"item \($0)\"}\n" }
            drip(context, contentType: "application/x-ndjson", pieces: pieces, every: Int(query["ms"] ?? "") ?? 100, key: "ndjson")
        case "stall":
            break  // never answers; the connection stays open until the client gives up
        case "reset":
            var h = HTTPHeaders()
            h.add(name: "Content-Type", value: "text/plain")
            h.add(name: "Content-Length", value: "100000")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: h))), promise: nil)
            var buf = context.channel.allocator.buffer(capacity: 10)
            buf.writeString("0123456789")
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buf))), promise: nil)
            let ctx = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .milliseconds(20)) { ctx.value.close(promise: nil) }
        case "invalid-json":
            write(context, .ok, [("Content-Type", "application/json")], Array(#"{"a": 1,, "b": 2}"#.utf8), keepAlive: keepAlive)
        case "invalid-utf8":
            write(context, .ok, [("Content-Type", "text/plain")], [0x61, 0xFF, 0xFE, 0x62], keepAlive: keepAlive)
        case "big":
            let n = Int(query["bytes"] ?? "") ?? 1_000_000
            write(context, .ok, [("Content-Type", "application/octet-stream")], [UInt8](repeating: 0x61, count: n), keepAlive: keepAlive)
        case "big-chunked":
            let n = Int(query["bytes"] ?? "") ?? 1_000_000
            var h = HTTPHeaders()
            h.add(name: "Content-Type", value: "application/octet-stream")
            h.add(name: "Transfer-Encoding", value: "chunked")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: h))), promise: nil)
            var left = n
            while left > 0 {
                let k = min(left, 65536)
                var buf = context.channel.allocator.buffer(capacity: k)
                buf.writeRepeatingByte(0x61, count: k)
                context.write(wrapOutboundOut(.body(.byteBuffer(buf))), promise: nil)
                left -= k
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        default:
            send(.notFound, json: ["error": "no route \(path)"])
        }
    }

    /// The parts of a multipart body: name, filename, content type and bytes; nil when malformed.
    func multipartParts(_ body: [UInt8], boundary: String) -> [(name: String, filename: String?, contentType: String?, data: [UInt8])]? {
        let delimiter = Array("--\(boundary)".utf8)
        func find(_ needle: [UInt8], from: Int) -> Int? {
            guard needle.count <= body.count else { return nil }
            var i = from
            while i + needle.count <= body.count {
                if body[i] == needle[0], Array(body[i..<(i + needle.count)]) == needle { return i }
                i += 1
            }
            return nil
        }
        guard var at = find(delimiter, from: 0) else { return nil }
        var parts: [(String, String?, String?, [UInt8])] = []
        while true {
            let afterDelimiter = at + delimiter.count
            if body.count >= afterDelimiter + 2, body[afterDelimiter] == UInt8(ascii: "-"), body[afterDelimiter + 1] == UInt8(ascii: "-") { break }
            guard let headEnd = find(Array("\r\n\r\n".utf8), from: afterDelimiter) else { return nil }
            let head = String(decoding: body[(afterDelimiter + 2)..<headEnd], as: UTF8.self)
            guard let next = find(Array("\r\n--\(boundary)".utf8), from: headEnd + 4) else { return nil }
            var name = "", filename: String? = nil, contentType: String? = nil
            for line in head.components(separatedBy: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    for param in line.split(separator: ";").dropFirst() {
                        let kv = param.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                        guard kv.count == 2 else { continue }
                        let v = kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                        if kv[0] == "name" { name = v } else if kv[0] == "filename" { filename = v }
                    }
                } else if lower.hasPrefix("content-type:") {
                    contentType = line.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
                }
            }
            parts.append((name, filename, contentType, Array(body[(headEnd + 4)..<next])))
            at = next + 2
        }
        return parts
    }

    func slow(_ context: ChannelHandlerContext, ms: Int) {
        var h = HTTPHeaders()
        h.add(name: "Content-Type", value: "text/plain")
        h.add(name: "Transfer-Encoding", value: "chunked")
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: h))), promise: nil)
        let ctx = NIOLoopBound(context, eventLoop: context.eventLoop)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let chunks = max(1, ms / 50)
        @Sendable func tick(_ i: Int) {
            let context = ctx.value
            guard context.channel.isActive else { return }
            if i == chunks {
                context.writeAndFlush(handler.value.wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            var buf = context.channel.allocator.buffer(capacity: 8)
            buf.writeString("chunk\(i)\n")
            context.writeAndFlush(handler.value.wrapOutboundOut(.body(.byteBuffer(buf))), promise: nil)
            context.eventLoop.scheduleTask(in: .milliseconds(50)) { tick(i + 1) }
        }
        tick(0)
    }

    /// Sends `pieces` as chunks of a body, one every `every` milliseconds; a client that closes
    /// the connection before the last is counted as a hit of `KEY-abandoned` (`hits(_:)`).
    func drip(_ context: ChannelHandlerContext, contentType: String, pieces: [String], every ms: Int, key: String, breakingAfter: Int? = nil) {
        var h = HTTPHeaders()
        h.add(name: "Content-Type", value: contentType)
        h.add(name: "Transfer-Encoding", value: "chunked")
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: h))), promise: nil)
        let ctx = NIOLoopBound(context, eventLoop: context.eventLoop)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let stats = self.stats
        @Sendable func tick(_ i: Int) {
            let context = ctx.value
            guard context.channel.isActive else {
                _ = stats.hit("path:" + key + "-abandoned")
                return
            }
            if i == breakingAfter {
                context.close(promise: nil)
                return
            }
            if i == pieces.count {
                context.writeAndFlush(handler.value.wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            var buf = context.channel.allocator.buffer(capacity: pieces[i].utf8.count)
            buf.writeString(pieces[i])
            context.writeAndFlush(handler.value.wrapOutboundOut(.body(.byteBuffer(buf))), promise: nil)
            context.eventLoop.scheduleTask(in: .milliseconds(Int64(ms))) { tick(i + 1) }
        }
        tick(0)
    }

    func write(
        _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ headers: [(String, String)], _ body: [UInt8],
        keepAlive: Bool
    ) {
        var h = HTTPHeaders()
        for (k, v) in headers { h.add(name: k, value: v) }
        h.add(name: "Content-Length", value: String(body.count))
        if !keepAlive { h.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: h))), promise: nil)
        if !body.isEmpty {
            var buf = context.channel.allocator.buffer(capacity: body.count)
            buf.writeBytes(body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buf))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let ctx = NIOLoopBound(context, eventLoop: context.eventLoop)
            done.whenComplete { _ in ctx.value.close(promise: nil) }
        }
    }

    func split(_ uri: String) -> (String, [String: String]) {
        guard let q = uri.firstIndex(of: "?") else { return (uri, [:]) }
        var query: [String: String] = [:]
        for pair in uri[uri.index(after: q)...].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            query[kv[0]] = kv.count > 1 ? kv[1] : ""
        }
        return (String(uri[..<q]), query)
    }
}

/// A self-signed certificate for 127.0.0.1 (test use only; its key is below and public).
let selfSignedCertificate = """
-----BEGIN CERTIFICATE-----
MIIDHDCCAgSgAwIBAgIUXfO3tmBYnu3O2jw7LRt/RSErKn8wDQYJKoZIhvcNAQEL
BQAwFDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyMjIyNDU0NloYDzIxMjYx
MDI5MjI0NTQ2WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwggEiMA0GCSqGSIb3DQEB
AQUAA4IBDwAwggEKAoIBAQDFwNjEteRosc+dic71qlJWLkWJJ0mgHAO4McPwoxr9
yHGRWcRp6P2HT5Cy+mXn6oIMRa0SFxMQPdq1aYolh4Lyj3ZsQVm0dFecGIUsPRfn
py/AaLa6atn4QEf//eCvPM/2hMTlcTJQXAUg5zTaRj0FbyRAGHBhlHr621mween3
9b/cMUXW2AEbdpJiUMDvabEkUyYgI0bRnoNZJWG4CWzewdYapy1MxM1uHxGCnepw
CNMJjSO8FZ3qpSWzpYB4boeTpxfptnyFP21XAprZXZFkwBh0vnxV+Lp2250i4QI7
g0lDQWR/4pyjz2o6b41zjGh6tgz/3XD6h/rbYkJOgoLvAgMBAAGjZDBiMB0GA1Ud
DgQWBBSYJ9HLPxLLbUdafV8KSULw5Ux2CDAfBgNVHSMEGDAWgBSYJ9HLPxLLbUda
fV8KSULw5Ux2CDAPBgNVHRMBAf8EBTADAQH/MA8GA1UdEQQIMAaHBH8AAAEwDQYJ
KoZIhvcNAQELBQADggEBAGnahiemhgFvwnc7ngiISOyM+5MUASF6tKKxHwXugcvw
UVsRngKCII4KjOJbgYcg6fwt0/5Z98BnYYmZbzHL8u25mLUdn2kVUX+ganSqut83
jg4GBETe0BGkUNWlIJaYvUEmTnFIRk5vDrMp4IiE13d6u0sMn/MAho7OASpGvDkV
JyAhSjrnMwxriu0C21e3gYrMhdtnXp+pOgGXTXk58cdyjUIlD+9jVtStLsXkLq8X
a0OOrHBIKXNsB05zRjWvWp0u9dmiEOB+wcTHEMWhH6+9N/Bxk+Ry5ieivVaeMmaV
UwKWXlDkxLo50RVAUrqryWbbNyVCLDJ0HMaP9fFBVBE=
-----END CERTIFICATE-----
"""

/// The key of `selfSignedCertificate`.
let selfSignedKey = """
-----BEGIN PRIVATE KEY-----
MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQDFwNjEteRosc+d
ic71qlJWLkWJJ0mgHAO4McPwoxr9yHGRWcRp6P2HT5Cy+mXn6oIMRa0SFxMQPdq1
aYolh4Lyj3ZsQVm0dFecGIUsPRfnpy/AaLa6atn4QEf//eCvPM/2hMTlcTJQXAUg
5zTaRj0FbyRAGHBhlHr621mween39b/cMUXW2AEbdpJiUMDvabEkUyYgI0bRnoNZ
JWG4CWzewdYapy1MxM1uHxGCnepwCNMJjSO8FZ3qpSWzpYB4boeTpxfptnyFP21X
AprZXZFkwBh0vnxV+Lp2250i4QI7g0lDQWR/4pyjz2o6b41zjGh6tgz/3XD6h/rb
YkJOgoLvAgMBAAECggEADY3mTbVZ7oMhg97KPLRr6FRLl9cFiN/isWFX2MqVMwfm
INxSRiAeIIQnmtzm1zqPp1+vOSozuE1FDGIrgd8D7rQ+nbTs/R1sU9qqZhnZ5Zrj
/wAuZiCkyAs/5B/2oow8hN0c0c0sca2c/GBckwl1bUXs6ifCrC2NMFyQjTQOAVzL
3J2XqjKvMXQ2A8bPkfFfucDtdicZKRqaia4yU2tyTthedKyy30wzL6eyJrd1hBnO
bKq42QJsTP9cCfy+S2vcQiahHzYGLn14nvIm+ELa5gv+ZYVAesl64LhRVKKBc88d
O5JpHCL8gVmWp0UMjZuGrOHfJy4ohseB4Q5ERlqXwQKBgQDwR8xYGqNjrawZaFmL
bbEB1ANLvZmB88bYGHjvENMXvFKgaCQPBa8iF1Ft8b9Se7MTDSUsJvdugi6CsNfZ
h5qsOzRRgqTs2wPkFOuB2doFwPl+ns5jzhY6WcfnGnfiPGoutG3wxzQRX5RxcJgW
0t/3doISBkWswzs7R7RMcMkY5wKBgQDSsM51YkFNLcSTa6vKjNZz3ZxDwVaEV5ZD
vgKd36VAQmygx4hjHz6PiT8Pe1lzgXs4NVS7aofiY+xu9Yl5y4wRQfGQCwVmX+/n
YdjBUtfwWNb9I+umjFUR4hS759JS7YNGLF4Da2XJtWhV+br6dy4ikxpyXdIkIlNS
Wf9EP8/cuQKBgEiQZlX1NYLU4DSMHv7MkbhLnvMwvztPs61vNpZ8LkPsy8dFrB4d
SVayVBUv/OecE+ic/6zl17O3/PPbFFTNbxi0iIhVPBmLyxEGgFkmwYEbVj23F/1s
L6pPkt9oTuwz8p1IQCuG/WKBywK3TjcWWC0TzRREcKZMD4dHkFvFc/XhAoGAQgrX
/KWa8JVbHBbRF8HD6zfZJsfw1bUazgs+iLw08YqgwFkrYF7H3nhYAwNYS8OXm0vk
TocbJxTJZRKkUEBEnJg+HzfFLoz+B1p9dkQAmj9OzLS4xlEQzXU/qJMHM6Vt085O
feXpVyv9E44fVSmMlZvk21qbZ2Y3FgZN5NfX0UkCgYBBPD7uWMQ+CT7+uDxBgSDl
iRNQ0UJJJxzZUeLI9a+Z+dOMB6EUTLJ8NGu5X12HFZ4Mvz452Dcqc9khsXbg82Up
qrGVdD0MIL6vyLnWq4+pdt3WBQr/gV7GZDmNSAmRuXme4I/kYIBDvync/TJ9F5mU
z5MaUkk898eFN9dPKlLAfA==
-----END PRIVATE KEY-----
"""
