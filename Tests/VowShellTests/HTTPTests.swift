import Foundation
import TestSupport
import VowValue
import XCTest

@testable import VowRuntime
@testable import VowShell

/// HTTP against a real server on 127.0.0.1 that the tests start: every acceptance example of the
/// HTTP stages, and every error kind.
final class HTTPTests: ServerTestCase {
    // MARK: The documented examples

    func test_brotliBodiesAreDecoded() {
        assertOutput("fetch $base/brotli | json | pick brotli", "true")
        assertOutput("fetch $base/brotli | json | pick 'items[99].name'", "item 100")
        assertOutput("fetch $base/echo | json | pick 'headers.\"accept-encoding\"'", "gzip, deflate, br")
        var r = vow("fetch $base/brotli-bomb --max-size 1MB")
        XCTAssertTrue(r.err.contains("error[http]: the decoded body is over the limit of 1000000 bytes"), r.err)
        XCTAssertEqual(vow("fetch $base/brotli-bomb | text | len").out, "10000000\n")
        r = vow("fetch $base/brotli-broken")
        XCTAssertTrue(r.err.contains("error[http]: the brotli body ends before its stream does"), r.err)
        r = vow("fetch $base/zstd")
        XCTAssertTrue(r.err.contains("error[http]: the body is in Content-Encoding 'zstd', which vow cannot decode"), r.err)
        XCTAssertFalse(r.err.contains("\u{FFFD}") || r.err.contains("(B5"), "raw bytes printed: \(r.err)")
    }

    func test_fetchJsonPick() {
        assertOutput("fetch $base/user.json | json | pick user.name", "Ada Lovelace")
    }

    func test_fetchThenFetchWithInterpolatedURL() {
        assertOutput("fetch $base/user.json | pick user.login | then fetch \"$base/followers/{}\" | json | pick count", "42")
    }

    func test_getWithQueryAndHeader() {
        assertOutput(#"get $base/echo --query {q: "a b&c"} --header "X-Trace: 1" | json | pick query.q"#, "a b&c")
        assertOutput(#"get $base/echo --query {q: "a b&c"} --header "X-Trace: 1" | json | pick 'headers."x-trace"'"#, "1")
        assertOutput(#"get "$base/echo?x=1" --query {y: [1, 2], z: null} | pick uri"#, "/echo?x=1&y=1&y=2")
    }

    func test_postJson() {
        assertOutput("post $base/echo --json {n: 1} | json | pick body.n", "1")
        assertOutput("post $base/echo --json {n: 1} | pick 'headers.\"content-type\"'", "application/json")
    }

    func test_404RejectsWithHttpErrorAndUnderlinesTheStage() {
        let r = vow("fetch $base/status/404 | json | pick x")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[http]: 404 Not Found — GET \(base)/status/404"), r.err)
        XCTAssertTrue(r.err.contains("^^^^^^^^^^^^^^^^^^^^^^ rejected here"), r.err)
        XCTAssertTrue(r.err.contains("skipped: json, pick x"), r.err)
    }

    func test_404IsCatchable() {
        assertOutput("fetch $base/status/404 | catch pick status", "404")
        assertOutput("fetch $base/status/404 | catch pick body.error", "Not Found")
        assertOutput("fetch $base/status/404 --allow-errors | status", "404")
    }

    func test_connectionRefused() {
        let r = vow("fetch http://127.0.0.1:1/")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[network]: connection refused 127.0.0.1:1"), r.err)
    }

    func test_timeoutOnAStallingServerClosesTheConnection() {
        let closedBefore = Self.server.closedConnections
        let start = Date()
        let r = vow("fetch $base/stall --timeout 200ms")
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[timeout]: no complete response within 200ms"), r.err)
        XCTAssertLessThan(took, 5, "the timeout fired")
        XCTAssertTrue(Self.server.waitForClosedConnections(closedBefore + 1), "the server saw the connection close")
    }

    func test_allCancelsTheSlowSiblingWhenOneFails() {
        let closedBefore = Self.server.closedConnections
        let r = vow("all [fetch \"$base/slow?ms=5000\", fetch $base/status/500]")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[http]: 500 Internal Server Error"), r.err)
        XCTAssertTrue(Self.server.waitForClosedConnections(closedBefore + 1), "the slow request's connection was closed")
    }

    // MARK: Every way a server can fail

    func test_redirectChainIsFollowedAndTheFinalURLKept() {
        assertOutput("fetch $base/redirect/3 | pick '[path, method]' | to-json", #"["/echo","GET"]"#)
        let r = vow("fetch $base/redirect/3", json: true)
        XCTAssertTrue(r.out.contains(#""url":"\#(base)/echo""#), r.out)
    }

    func test_redirectLimitsAndLoops() {
        let loop = vow("fetch $base/loop")
        XCTAssertTrue(loop.err.hasPrefix("error[http]: redirect loop"), loop.err)
        let many = vow("fetch $base/redirect/5 --max-redirects 2")
        XCTAssertTrue(many.err.hasPrefix("error[http]: too many redirects (more than 2)"), many.err)
        assertOutput("fetch $base/redirect/2 --no-follow | status", "302")
    }

    func test_303TurnsAPostIntoAGet() {
        assertOutput("post \"$base/redirect-to?code=303&url=/echo\" --json {a: 1} | pick method", "GET")
        assertOutput("post \"$base/redirect-to?code=307&url=/echo\" --json {a: 1} | pick '[method, body.a]' | to-json", #"["POST",1]"#)
    }

    func test_gzipBodiesAreDecoded() {
        assertOutput("fetch $base/gzip | json | pick items | to-json", "[1,2,3]")
    }

    func test_connectionResetMidBodyIsANetworkError() {
        let r = vow("fetch $base/reset")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[network]: "), r.err)
        XCTAssertTrue(r.err.contains("127.0.0.1:\(Self.server.port)"), r.err)
    }

    func test_invalidJsonBodyIsAJsonError() {
        let r = vow("fetch $base/invalid-json | json")
        XCTAssertTrue(r.err.hasPrefix("error[json]: "), r.err)
        XCTAssertTrue(r.err.contains("line 1, column"), r.err)
    }

    func test_invalidUTF8Body() {
        let r = vow("fetch $base/invalid-utf8 | text")
        XCTAssertTrue(r.err.contains("not valid UTF-8"), r.err)
        assertOutput("fetch $base/invalid-utf8 | len", "4")
    }

    func test_bodyOverMaxSizeRejectsWithoutReadingTheRest() {
        let r = vow("fetch \"$base/big?bytes=2000000\" --max-size 1000")
        XCTAssertTrue(r.err.hasPrefix("error[http]: the body is 2000000 bytes, over the limit of 1000"), r.err)
        let chunked = vow("fetch \"$base/big-chunked?bytes=5000000\" --max-size 1MB")
        XCTAssertTrue(chunked.err.hasPrefix("error[http]: the body is over the limit of 1000000 bytes"), chunked.err)
        assertOutput("fetch \"$base/big?bytes=1000\" --max-size 1000 | len", "1000")
    }

    func test_retryHonoursRetryAfter() {
        let start = Date()
        assertOutput("fetch \"$base/retry-after?key=r1&fails=1&after=1\" | retry 2 | pick attempt", "2")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.9, "waited for Retry-After")
        assertOutput("fetch \"$base/retry-after?key=r2&fails=5&after=0&status=503\" | retry 2 | catch pick status", "503")
    }

    func test_secretsNeverAppearInErrors() {
        let r = vow("fetch $base/status/401 --bearer TOPSECRET --header \"Cookie: a=SECRET2\" | catch to-json")
        XCTAssertFalse(r.out.contains("TOPSECRET"), r.out)
        XCTAssertFalse(r.out.contains("SECRET2"), r.out)
        let c = vow("fetch $base/cookie --allow-errors | then fail x | catch to-json")
        XCTAssertEqual(c.status, 0, c.err)
        let url = vow("fetch http://user:hunter2@127.0.0.1:1/")
        XCTAssertFalse(url.err.contains("hunter2"), url.err)
    }

    func test_authHeaders() {
        assertOutput("get $base/echo --auth ada:pw | pick headers.authorization", "Basic YWRhOnB3")
        assertOutput("get $base/echo --bearer tok | pick headers.authorization", "Bearer tok")
    }

    func test_requestRecordAndFormBody() {
        assertOutput("echo {url: \"$base/echo\", method: put, query: {a: 1}, json: [1]} | fetch | pick '[method, query.a, body[0]]' | to-json", #"["PUT","1",1]"#)
        assertOutput("post $base/echo --form {a: \"x y\", b: \"&\"} | pick bodyText", "a=x+y&b=%26")
    }

    func test_badURLsAndFlagsAreTypeErrors() {
        XCTAssertTrue(vow("fetch 'ht tp://x'").err.hasPrefix("error[type]: fetch: invalid URL"), vow("fetch 'ht tp://x'").err)
        XCTAssertTrue(vow("get $base/echo --header nocolon").err.contains("--header must be K:V"))
        XCTAssertTrue(vow("fetch $base --max-size lots").err.contains("--max-size must be a byte count"))
        XCTAssertTrue(vow("get").err.hasPrefix("error[type]: get: missing URL"), vow("get").err)
    }

    func test_responsesPrintStatusHeadersAndBody() {
        let r = vow("fetch $base/user.json")
        XCTAssertTrue(r.out.hasPrefix("HTTP/1.1 200 OK\n"), r.out)
        XCTAssertTrue(r.out.contains("content-type: application/json\n"), r.out)
        XCTAssertTrue(r.out.contains("\"name\": \"Ada Lovelace\""), r.out)
        let j = vow("fetch $base/user.json", json: true)
        XCTAssertTrue(j.out.hasPrefix(#"{"status":200,"#), j.out)
    }

    func test_cancelledJobAbortsItsRequest() {
        let closedBefore = Self.server.closedConnections
        let r = vow("fetch \"$base/slow?ms=5000\" &\ndelay 100ms\ncancel %1")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(Self.server.waitForClosedConnections(closedBefore + 1), "the server saw the close")
    }

    func test_everyHTTPStageExampleHolds() {
        XCTAssertGreaterThan(checkStageExamples(needsServer: true) { vow($0) }, 10)
    }

    func test_tlsCertificatesAreVerifiedUnlessInsecure() throws {
        let tls = try FixtureServer.start(tls: true)
        defer { tls.shutdown() }
        let refused = runVow("fetch \(tls.base)/user.json")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.hasPrefix("error[network]: TLS: the certificate of 127.0.0.1:\(tls.port) is not trusted"), refused.err)
        let insecure = runVow("fetch \(tls.base)/user.json --insecure | json | pick user.name")
        XCTAssertEqual(insecure.out, "Ada Lovelace\n", insecure.err)
    }
}
