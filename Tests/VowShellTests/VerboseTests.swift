import Foundation
import TestSupport
import XCTest

@testable import VowHTTP
@testable import VowRuntime

/// `--verbose`: the exchange on stderr (every redirect hop), the value alone on stdout, secrets
/// masked.
final class VerboseTests: ServerTestCase {
    func test_exchangeOnStderrValueOnStdout() {
        let r = vow(#"fetch $base/redirect/2 --verbose --bearer s3cret --header "Cookie: sid=abc123" | json | pick method"#)
        XCTAssertEqual(r.out, "GET\n")
        let port = base.split(separator: ":").last!
        for line in [
            "> GET /redirect/2 HTTP/1.1", "> Host: 127.0.0.1:\(port)", "< HTTP/1.1 302 Found", "< Location: /redirect/1",
            "> GET /redirect/1 HTTP/1.1", "> GET /echo HTTP/1.1", "< HTTP/1.1 200 OK", "> Authorization: Bearer ***", "> Cookie: sid=***",
        ] {
            XCTAssertTrue(r.err.contains(line + "\n"), "missing \(line) in\n\(r.err)")
        }
        XCTAssertTrue(r.err.contains("* first byte after"), r.err)
        XCTAssertTrue(r.err.contains("bytes of body;"), r.err)
        XCTAssertFalse(r.err.contains("s3cret"), r.err)
        XCTAssertFalse(r.err.contains("abc123"), r.err)
        XCTAssertEqual(r.err.components(separatedBy: "> GET ").count - 1, 3, "three hops")
    }

    /// The request line shows the path as sent: a trailing slash and the query's encoding kept.
    func test_theRequestLineIsThePathAsSent() {
        let r = vow(#"fetch "$base/echo/?a=1&b=x%20y" --verbose | json | pick path"#)
        XCTAssertTrue(r.err.contains("> GET /echo/?a=1&b=x%20y HTTP/1.1\n"), r.err)
    }

    /// A line break from data in a header value is refused before anything is sent, naming the
    /// header and the character, not the server.
    func test_aLineBreakInAHeaderValueIsNamed() {
        let before = Self.server.hits("/echo")
        let header = vow("let v = echo \"a\\r\\nX-Injected: 1\"\nfetch $base/echo --header \"X-V: $v\"")
        XCTAssertEqual(header.status, 1)
        XCTAssertTrue(header.err.contains("the value of header X-V"), header.err)
        XCTAssertTrue(header.err.contains("a carriage return (\\r), which would end the header: refused before sending"), header.err)
        XCTAssertFalse(header.err.contains("sent a response"), header.err)
        let bearer = vow("let v = echo \"t\\nX-Injected: 1\"\nfetch $base/echo --bearer $v")
        XCTAssertTrue(bearer.err.contains("the value of header Authorization holds a line feed (\\n)"), bearer.err)
        XCTAssertFalse(bearer.err.contains("X-Injected"), "a secret's value is not shown: \(bearer.err)")
        XCTAssertEqual(Self.server.hits("/echo"), before, "nothing was sent")
    }

    func test_setCookieValuesAreMasked() {
        let r = vow(#"fetch "$base/cookies/set?token=t0psecret" --verbose | status"#)
        XCTAssertTrue(r.err.contains("< Set-Cookie: token=***; Path=/"), r.err)
        let received = r.err.split(separator: "\n").filter { $0.hasPrefix("<") }
        XCTAssertFalse(received.contains { $0.contains("t0psecret") }, r.err)
    }

    func test_withoutTheFlagNothingIsShown() {
        let r = vow("fetch $base/echo | status")
        XCTAssertEqual(r.out, "200\n")
        XCTAssertEqual(r.err, "")
    }

    func test_masking() {
        XCTAssertEqual(VerboseExchange.masked("Authorization", "Basic dTpw"), "Basic ***")
        XCTAssertEqual(VerboseExchange.masked("authorization", "token"), "***")
        XCTAssertEqual(VerboseExchange.masked("Cookie", "a=1; b=2"), "a=***; b=***")
        XCTAssertEqual(VerboseExchange.masked("X-Other", "visible"), "visible")
    }
}
