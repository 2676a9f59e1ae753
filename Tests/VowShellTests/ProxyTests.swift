import Foundation
import TestSupport
import XCTest

@testable import VowRuntime

/// Proxies: the environment as curl reads it, `--proxy`, `--no-proxy`, `no_proxy`, against a
/// forward proxy on loopback (testdata/forward-proxy.py) that sends every request, whatever host
/// it names, to the fixture server and logs each request line.
final class ProxyTests: ServerTestCase {
    var proxy: Process!
    var proxyURL = ""
    var log: URL!
    let variables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"]
    var saved: [String: String] = [:]

    override func setUpWithError() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("vow-proxy-\(UUID().uuidString).log")
        proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        proxy.arguments = ["python3", projectRoot.appendingPathComponent("testdata/forward-proxy.py").path, base.split(separator: ":").last.map(String.init)!, log.path]
        let out = Pipe(), stdin = Pipe()
        proxy.standardOutput = out
        proxy.standardInput = stdin
        try proxy.run()
        let port = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(Int(port), "the proxy did not start: \(port)")
        proxyURL = "http://127.0.0.1:\(port)"
        for v in variables {
            saved[v] = ProcessInfo.processInfo.environment[v]
            unsetenv(v)
        }
    }

    override func tearDownWithError() throws {
        proxy.terminate()
        proxy.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
        for v in variables {
            if let s = saved[v] { setenv(v, s, 1) } else { unsetenv(v) }
        }
    }

    func vow(_ source: String) -> (out: String, err: String, status: Int32) {
        runVow(source, variables: ["base": .string(base), "proxy": .string(proxyURL)])
    }

    /// The request lines the proxy saw.
    var seen: [String] { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

    func test_theEnvironmentIsRead() {
        for name in ["HTTP_PROXY", "http_proxy", "ALL_PROXY"] {
            setenv(name, proxyURL, 1)
            let r = vow("fetch http://api.example.invalid/echo | json | pick headers.host")
            XCTAssertEqual(r.out, "api.example.invalid\n", "\(name): \(r.err)")
            unsetenv(name)
        }
        // Plain http:// goes to the proxy in absolute form, as curl sends it; CONNECT is for https://.
        XCTAssertEqual(seen.filter { $0 == "GET http://api.example.invalid/echo" }.count, 3, "\(seen)")
    }

    func test_noProxyAndNoProxyFlagGoDirect() {
        setenv("HTTP_PROXY", proxyURL, 1)
        setenv("NO_PROXY", "localhost, .internal.example, 127.0.0.1", 1)
        XCTAssertEqual(vow("fetch $base/echo | status").out, "200\n")
        unsetenv("NO_PROXY")
        XCTAssertEqual(vow("fetch $base/echo --no-proxy | status").out, "200\n")
        XCTAssertEqual(seen, [], "a request that should have gone direct went through the proxy")
    }

    func test_theFlagWins() {
        XCTAssertEqual(vow("fetch http://flag.example.invalid/echo --proxy $proxy | json | pick headers.host").out, "flag.example.invalid\n")
        XCTAssertEqual(seen.count, 1, "\(seen)")
        XCTAssertEqual(seen.first, "GET http://flag.example.invalid/echo", "\(seen)")
    }

    func test_httpsGoesThroughConnect() {
        setenv("HTTPS_PROXY", proxyURL, 1)
        // The tunnel reaches the fixture, which speaks no TLS: the request fails, but through the proxy.
        let r = vow("fetch https://secure.example.invalid/x --timeout 5s")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(seen.contains { $0.hasPrefix("CONNECT secure.example.invalid:443") }, "\(seen)")
    }

    /// A debugging run takes the path of the real one: `--verbose` and `--output` go through the
    /// proxy too (where a proxy is required, a direct connection is a leak).
    func test_verboseAndDownloadsGoThroughTheProxy() throws {
        let r = vow("fetch http://verbose.example.invalid/echo --proxy $proxy --verbose | json | pick headers.host")
        XCTAssertEqual(r.out, "verbose.example.invalid\n", r.err)
        setenv("http_proxy", proxyURL, 1)
        let env = vow("fetch http://env.example.invalid/echo --verbose | json | pick headers.host")
        XCTAssertEqual(env.out, "env.example.invalid\n", env.err)
        unsetenv("http_proxy")
        let file = NSTemporaryDirectory() + "vow-proxy-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let saved = vow("fetch http://download.example.invalid/file --proxy $proxy --output \(file) | pick status")
        XCTAssertEqual(saved.out, "200\n", saved.err)
        for line in ["GET http://verbose.example.invalid/echo", "GET http://env.example.invalid/echo"] {
            XCTAssertTrue(seen.contains(line), "\(line) not in \(seen)")
        }
        // A download goes through the proxy too (through a tunnel: AsyncHTTPClient's way).
        XCTAssertTrue(seen.contains { $0.contains("download.example.invalid") }, "\(seen)")
    }

    /// A proxy URL that cannot be used is named with its password masked; a proxy that is down
    /// is named, not the target.
    func test_aBadOrDeadProxyIsNamedWithItsPasswordMasked() {
        setenv("http_proxy", "http://alice:s3cret@[bad", 1)
        let bad = vow("fetch http://x.example.invalid/")
        XCTAssertTrue(bad.err.contains("http_proxy"), bad.err)
        XCTAssertFalse(bad.err.contains("s3cret"), bad.err)
        setenv("http_proxy", "http://alice:s3cret@127.0.0.1:1", 1)
        let dead = vow("fetch $base/echo")
        XCTAssertTrue(dead.err.contains("the proxy 127.0.0.1:1 cannot be reached: connection refused"), dead.err)
        XCTAssertFalse(dead.err.contains("s3cret"), dead.err)
        unsetenv("http_proxy")
    }

    func test_badProxyURLsAreNamed() {
        setenv("HTTP_PROXY", "ftp://nope", 1)
        XCTAssertTrue(vow("fetch http://x.example.invalid/").err.contains("http_proxy is not a proxy URL: ftp://nope"))
        unsetenv("HTTP_PROXY")
        XCTAssertTrue(vow("fetch http://x.example.invalid/ --proxy 'not a url'").err.contains("--proxy: not a proxy URL"))
    }

    func test_curlCarriesTheProxy() {
        XCTAssertTrue(vow("fetch http://x.example.invalid/ --proxy $proxy --curl").out.contains("--proxy \(proxyURL)"))
        XCTAssertTrue(vow("fetch http://x.example.invalid/ --no-proxy --curl").out.contains("--noproxy '*'"))
        XCTAssertFalse(vow("fetch http://x.example.invalid/ --curl").out.contains("proxy"))
    }
}
