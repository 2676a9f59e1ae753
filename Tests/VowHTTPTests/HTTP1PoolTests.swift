import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import TestSupport
import VowPromises
import VowValue
import XCTest

@testable import VowHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The pool of kept-alive `http://` connections: reuse, its bound per origin, a connection the
/// server closed between two requests, `Connection: close`, and cancelling.
final class HTTP1PoolTests: XCTestCase {
    /// Sends `method url` through `pool` and waits for the outcome.
    func send(_ pool: HTTP1Pool, _ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], timeout: Double = 10)
        -> Result<Collected, any Error>
    {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Collected, any Error>?>(nil)
        let request = makeRequest(method, url, headers: headers, timeout: timeout) { r in
            outcome.withLock { $0 = r }
            done.signal()
        }
        pool.execute(request)
        done.wait()
        return outcome.withLock { $0! }
    }

    func makeRequest(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], timeout: Double = 10,
        done: @escaping @Sendable (Result<Collected, any Error>) -> Void
    ) -> HTTP1Request {
        let u = URL(string: url)!
        var h = HTTPHeaders([("Host", "127.0.0.1:\(u.port!)")])
        for (k, v) in headers { h.add(name: k, value: v) }
        let path = u.path.isEmpty ? "/" : u.path + (u.query.map { "?" + $0 } ?? "")
        return HTTP1Request(
            origin: .init(host: u.host!, port: u.port!), head: HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: h),
            body: nil, gatherer: ResponseGatherer(HTTPRequestSpec(method: method.rawValue, url: url)),
            deadline: .now() + .milliseconds(Int64(timeout * 1000)), done: done)
    }

    /// Runs `body` with a fixture server of its own and a pool, both shut down after it.
    func withFixture(perOrigin: Int = 64, idleTimeout: TimeAmount = .seconds(60), _ body: (FixtureServer, HTTP1Pool) throws -> Void) throws {
        let server = try FixtureServer.start()
        defer { server.shutdown() }
        let pool = HTTP1Pool(perOrigin: perOrigin, idleTimeout: idleTimeout)
        defer { pool.shutdown() }
        try body(server, pool)
    }

    func body(_ r: Result<Collected, any Error>) throws -> String {
        String(decoding: try r.get().body, as: UTF8.self)
    }

    func test_requestsOneAfterAnotherShareOneConnection() throws {
        try withFixture { server, pool in
            for i in 0..<10 {
                let text = try body(send(pool, .GET, server.base + "/echo?i=\(i)"))
                XCTAssertTrue(text.contains("\"i\":\"\(i)\""), text)
            }
            XCTAssertEqual(server.openedConnections, 1)
        }
    }

    func test_atMostPerOriginConnectionsOpenAndTheOtherRequestsWaitTheirTurn() throws {
        try withFixture(perOrigin: 2) { server, pool in
            let group = DispatchGroup()
            let bodies = Locked<[Int: String]>([:])
            for i in 0..<8 {
                group.enter()
                pool.execute(
                    makeRequest(.GET, server.base + "/slow?ms=100&i=\(i)") { r in
                        bodies.withLock { $0[i] = (try? r.get()).map { String(decoding: $0.body, as: UTF8.self) } ?? "failed: \(r)" }
                        group.leave()
                    })
            }
            XCTAssertEqual(group.wait(timeout: .now() + 20), .success)
            XCTAssertEqual(bodies.withLock { $0.count }, 8)
            for (i, b) in bodies.withLock({ $0 }) { XCTAssertFalse(b.hasPrefix("failed"), "request \(i): \(b)") }
            XCTAssertLessThanOrEqual(server.openedConnections, 2)
        }
    }

    /// What a request tells its outcome to may hold the request (an exchange holds the request
    /// to cancel it): the request lets go of it once it settles, so neither outlives the other.
    func test_aSettledRequestLetsGoOfWhatItTold() throws {
        final class Exchange: @unchecked Sendable {
            var request: HTTP1Request?
        }
        try withFixture { server, pool in
            weak var gone: Exchange?
            let done = DispatchSemaphore(value: 0)
            do {
                let exchange = Exchange()
                gone = exchange
                exchange.request = makeRequest(.GET, server.base + "/echo") { _ in
                    _ = exchange
                    done.signal()
                }
                pool.execute(exchange.request!)
            }
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            Thread.sleep(forTimeInterval: 0.05)
            XCTAssertNil(gone, "the exchange and its request keep each other alive")
        }
    }

    func test_anIPv6TargetIsWrittenInBrackets() {
        let e = HTTPEngine.describe(IOError(errnoCode: ECONNREFUSED, reason: "connect"), HTTPRequestSpec(method: "GET", url: "http://[::1]:1/x"))
        XCTAssertTrue("\(e)".contains("connection refused [::1]:1 "), "\(e)")
    }

    func test_aConnectionLeftIdleIsClosed() throws {
        try withFixture(idleTimeout: .milliseconds(500)) { server, pool in
            XCTAssertNoThrow(try send(pool, .GET, server.base + "/echo").get())
            XCTAssertEqual(server.closedConnections, 0, "kept alive at first")
            XCTAssertTrue(server.waitForClosedConnections(1), "closed once idle for the timeout")
            XCTAssertNoThrow(try send(pool, .GET, server.base + "/echo").get(), "a later request opens another")
            XCTAssertEqual(server.openedConnections, 2)
        }
    }

    func test_aResponseWithConnectionCloseIsNotReused() throws {
        try withFixture { server, pool in
            for _ in 0..<3 {
                XCTAssertNoThrow(try send(pool, .GET, server.base + "/echo", headers: [("Connection", "close")]).get())
            }
            XCTAssertEqual(server.openedConnections, 3)
        }
    }

    func test_aCancelledRequestClosesItsConnection() throws {
        try withFixture { server, pool in
            let done = DispatchSemaphore(value: 0)
            let outcome = Locked<Result<Collected, any Error>?>(nil)
            let request = makeRequest(.GET, server.base + "/stall") { r in
                outcome.withLock { $0 = r }
                done.signal()
            }
            pool.execute(request)
            Thread.sleep(forTimeInterval: 0.2)
            request.fail(CancellationError())
            XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
            XCTAssertTrue(outcome.withLock { $0.map { (try? $0.get()) == nil } ?? false }, "the request failed")
            XCTAssertTrue(server.waitForClosedConnections(1), "the server saw the connection close")
        }
    }

    func test_theDeadlineEndsARequestThatGetsNoAnswer() throws {
        try withFixture { server, pool in
            let r = send(pool, .GET, server.base + "/stall", timeout: 0.3)
            guard case .failure(let error) = r else { return XCTFail("a stalled request fulfilled") }
            let described = HTTPEngine.describe(error, HTTPRequestSpec(method: "GET", url: server.base + "/stall"))
            XCTAssertEqual((described as? VowError)?.kind, VowError.Kind.timeout, "\(described)")
        }
    }

    /// Runs `body` after a first GET through a pool to a `OneShotServer`, which then closes that
    /// kept-alive connection when the next request arrives.
    func afterOneShot(_ body: (OneShotServer, HTTP1Pool, String) throws -> Void) throws {
        let server = try OneShotServer()
        defer { server.stop() }
        let pool = HTTP1Pool()
        defer { pool.shutdown() }
        let url = "http://127.0.0.1:\(server.port)/x"
        XCTAssertEqual(try self.body(send(pool, .GET, url)), "first")
        try body(server, pool, url)
    }

    func test_aKeptAliveConnectionTheServerClosedSendsAnIdempotentRequestAgain() throws {
        try afterOneShot { server, pool, url in
            XCTAssertEqual(try body(send(pool, .GET, url)), "again", "the GET went again on a new connection")
            XCTAssertEqual(server.accepted, 2)
        }
    }

    func test_aKeptAliveConnectionTheServerClosedFailsAPost() throws {
        try afterOneShot { _, pool, url in
            guard case .failure(let error) = send(pool, .POST, url) else { return XCTFail("the POST was sent again") }
            let described = HTTPEngine.describe(error, HTTPRequestSpec(method: "POST", url: url))
            XCTAssertTrue("\(described)".contains("closed the connection before the response was complete"), "\(described)")
        }
    }
}

/// A raw TCP server: on its first connection it answers one request with `first` and closes the
/// connection when the second request arrives; every later connection gets `again`.
final class OneShotServer: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let count = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    /// Connections accepted so far.
    var accepted: Int { count.load(ordering: .acquiring) }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard bound == 0, listen(fd, 8) == 0 else { throw VowError(.io, "cannot listen") }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = Int(UInt16(bigEndian: addr.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    private func serve() {
        while !stopped.load(ordering: .acquiring) {
            let c = accept(fd, nil, nil)
            if c < 0 { return }
            let n = count.add(1, ordering: .acquiringAndReleasing).newValue
            DispatchQueue.global().async {
                defer { close(c) }
                guard Self.readRequest(c) else { return }
                if n == 1 {
                    Self.reply(c, "first")
                    _ = Self.readRequest(c)  // the next request: closed without an answer
                } else {
                    Self.reply(c, "again")
                }
            }
        }
    }

    /// Reads up to the end of a request head (these requests have no body).
    private static func readRequest(_ c: Int32) -> Bool {
        var seen: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(c, &buf, buf.count)
            if n <= 0 { return false }
            seen += buf[0..<n]
            if seen.count >= 4, (0...(seen.count - 4)).contains(where: { seen[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }) {
                return true
            }
        }
    }

    private static func reply(_ c: Int32, _ text: String) {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)".utf8)
        _ = bytes.withUnsafeBytes { write(c, $0.baseAddress, bytes.count) }
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
