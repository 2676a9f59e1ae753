import Foundation
import XCTest

@testable import VowRuntime
import VowValue

/// Through squid from Debian with its stock configuration (its ACLs as shipped: CONNECT only to
/// port 443, requests from localhost allowed to the safe ports), started by the test on a port of
/// its own: plain http:// goes in absolute form as curl sends it, and each refusal names the proxy.
final class SquidTests: ServerTestCase {
    nonisolated(unsafe) static var squid: Process?
    nonisolated(unsafe) static var proxy = ""
    nonisolated(unsafe) static var directory = ""

    override class func setUp() {
        super.setUp()
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/squid"),
            let stock = try? String(contentsOfFile: "/etc/squid/squid.conf", encoding: .utf8)
        else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vow-squid-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o777)  // squid writes its logs as the proxy user
        let port = freePort()
        // The stock file, listening on loopback at a port of the test's, its files in the test's directory.
        let config = stock.replacingOccurrences(of: "\nhttp_port 3128\n", with: "\nhttp_port 127.0.0.1:\(port)\n") + """

            pid_filename \(dir)/squid.pid
            access_log stdio:\(dir)/access.log
            cache_log \(dir)/cache.log
            cache_store_log none
            coredump_dir \(dir)
            shutdown_lifetime 0 seconds

            """
        try? config.write(toFile: "\(dir)/squid.conf", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/sbin/squid")
        p.arguments = ["-N", "-f", "\(dir)/squid.conf"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return }
        // Ready when it accepts a connection (a few seconds at most).
        for _ in 0..<100 where !accepts(port) { usleep(100_000) }
        squid = p
        proxy = "http://127.0.0.1:\(port)"
        directory = dir
    }

    override class func tearDown() {
        if let squid {
            squid.terminate()
            squid.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    override func setUpWithError() throws {
        guard Self.squid != nil else { throw XCTSkip("squid is not installed (scripts/setup installs it)") }
    }

    func vowThroughSquid(_ source: String) -> (out: String, err: String, status: Int32) {
        runVow(source, variables: ["base": .string(base), "squid": .string(Self.proxy)])
    }

    func test_plainHTTPGoesInAbsoluteForm() throws {
        let r = vowThroughSquid("fetch $base/echo --proxy $squid | json | pick headers.via")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("squid"), r.out + r.err)
        let log = try String(contentsOfFile: "\(Self.directory)/access.log", encoding: .utf8)
        XCTAssertTrue(log.contains("GET \(base)/echo"), log)
        XCTAssertFalse(log.contains("CONNECT"), log)
    }

    func test_refusalsNameTheProxy() {
        // CONNECT to a port other than 443: squid's stock ACL refuses the tunnel.
        let port = base.split(separator: ":").last!
        let tunnel = vowThroughSquid("fetch https://127.0.0.1:\(port)/ --proxy $squid")
        XCTAssertEqual(tunnel.status, 1)
        XCTAssertTrue(tunnel.err.contains("the proxy \(Self.proxy.dropFirst(7)) refused to open a tunnel"), tunnel.err)
        // A port outside its safe ports: refused in absolute form, with squid's reason.
        let denied = vowThroughSquid("fetch http://127.0.0.1:8/ --proxy $squid")
        XCTAssertTrue(denied.err.contains("the proxy \(Self.proxy.dropFirst(7)) refused the request: 403 Forbidden (ERR_ACCESS_DENIED"), denied.err)
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on now.
func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return Int(UInt16(bigEndian: addr.sin_port))
}

/// True when something accepts a connection on 127.0.0.1:`port`.
func accepts(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
}
