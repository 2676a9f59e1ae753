import Foundation
import TestSupport
import XCTest

@testable import VowHTTP
@testable import VowRuntime

/// `--session NAME`: cookies (RFC 6265) and headers kept across runs in a file of mode 0600,
/// against the fixture server; the cookie jar's rules one by one.
final class SessionTests: ServerTestCase {
    var config: URL!
    var saved: String?

    override func setUpWithError() throws {
        config = FileManager.default.temporaryDirectory.appendingPathComponent("vow-sessions-\(UUID().uuidString)")
        saved = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
        setenv("XDG_CONFIG_HOME", config.path, 1)
    }

    override func tearDownWithError() throws {
        if let saved { setenv("XDG_CONFIG_HOME", saved, 1) } else { unsetenv("XDG_CONFIG_HOME") }
        try? FileManager.default.removeItem(at: config)
    }

    func test_cookiesLastAcrossRuns() throws {
        // The cookie comes on a redirect (set → /cookies): it is already sent on the next hop.
        XCTAssertEqual(vow(#"fetch "$base/cookies/set?k=v" --session s1 | json | pick cookies.k"#).out, "v\n")
        XCTAssertEqual(vow("fetch $base/cookies --session s1 | json | pick cookies.k").out, "v\n")
        // Without the session, or with another, nothing is sent.
        XCTAssertEqual(vow("fetch $base/cookies | json | pick cookies.k").out, "null\n")
        XCTAssertEqual(vow("fetch $base/cookies --session s2 | json | pick cookies.k").out, "null\n")
        // The server expires it: gone from the session too.
        XCTAssertEqual(vow(#"fetch "$base/cookies/delete?k" --session s1 | json | pick cookies.k"#).out, "null\n")
        XCTAssertEqual(vow("fetch $base/cookies --session s1 | json | pick cookies.k").out, "null\n")
    }

    func test_theFileIsPrivate() throws {
        _ = vow(#"fetch "$base/cookies/set?k=v" --session s1"#)
        let dir = config.appendingPathComponent("vow/sessions")
        let file = dir.appendingPathComponent("s1.json")
        let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir.path)[.posixPermissions] as? Int
        XCTAssertEqual(fileMode, 0o600)
        XCTAssertEqual(dirMode, 0o700)
    }

    func test_headersGivenWithTheSessionAreKept() {
        _ = vow(#"fetch $base/echo --session api --bearer s3cret --header "X-Team: blue""#)
        let later = vow(#"fetch $base/echo --session api | json | pick '[headers.authorization, headers."x-team"]' | to-json"#)
        XCTAssertEqual(later.out, #"["Bearer s3cret","blue"]"# + "\n", later.err)
        // A header given again replaces the stored one.
        _ = vow(#"fetch $base/echo --session api --header "X-Team: red""#)
        XCTAssertEqual(vow(#"fetch $base/echo --session api | json | pick 'headers."x-team"'"#).out, "red\n")
    }

    func test_readOnlyUsesWithoutUpdating() {
        _ = vow(#"fetch "$base/cookies/set?a=1" --session s1"#)
        XCTAssertEqual(vow(#"fetch "$base/cookies/set?b=2" --session-read-only s1 | json | pick cookies | to-json"#).out, #"{"a":"1","b":"2"}"# + "\n")
        XCTAssertEqual(vow("fetch $base/cookies --session s1 | json | pick cookies | to-json").out, #"{"a":"1"}"# + "\n")
    }

    func test_secretsAreMaskedInTheSessionView() {
        _ = vow(#"fetch "$base/cookies/set?token=abcdef" --session s1 --bearer s3cret"#)
        let shown = vow(":session s1")
        XCTAssertFalse(shown.out.contains("s3cret"), shown.out)
        XCTAssertFalse(shown.out.contains("abcdef"), shown.out)
        XCTAssertTrue(shown.out.contains("\"name\": \"token\""), shown.out)
        XCTAssertTrue(shown.out.contains("<6 characters>"), shown.out)
    }

    func test_badSessionsAreNamed() throws {
        XCTAssertTrue(vow("fetch $base/echo --session 'x y'").err.contains("is not a session name"))
        let dir = config.appendingPathComponent("vow/sessions")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "not json".write(to: dir.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let r = vow("fetch $base/echo --session broken")
        XCTAssertTrue(r.err.contains("is not a vow session file"), r.err)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("broken.json"), encoding: .utf8), "not json", "a broken file was overwritten")
    }

    // MARK: The jar's rules (RFC 6265)

    func test_domainAndHostOnly() {
        let jar = CookieJar()
        jar.store(["a=1", "b=2; Domain=example.com", "c=3; Domain=.example.com", "d=4; Domain=other.org"], from: "http://www.example.com/")
        XCTAssertEqual(jar.header(for: "http://www.example.com/"), "a=1; b=2; c=3")
        XCTAssertEqual(jar.header(for: "http://example.com/"), "b=2; c=3", "a is host-only")
        XCTAssertEqual(jar.header(for: "http://api.www.example.com/"), "b=2; c=3")
        XCTAssertNil(jar.header(for: "http://badexample.com/"))
        XCTAssertNil(jar.header(for: "http://other.org/"), "a cookie for another domain is refused")
        let ip = CookieJar()
        ip.store(["x=1; Domain=0.0.1"], from: "http://127.0.0.1/")
        XCTAssertNil(ip.header(for: "http://127.0.0.1/"), "an IP address has no parent domain")
    }

    func test_pathsAndOrder() {
        let jar = CookieJar()
        jar.store(["root=1; Path=/", "deep=2; Path=/api/v1", "def=3"], from: "http://h.example/api/v1/items", now: 100)
        XCTAssertEqual(jar.header(for: "http://h.example/api/v1/items/7", now: 200), "deep=2; def=3; root=1")
        XCTAssertEqual(jar.header(for: "http://h.example/api/v10", now: 200), "root=1", "/api/v1 does not cover /api/v10")
        XCTAssertEqual(jar.header(for: "http://h.example/", now: 200), "root=1")
        XCTAssertEqual(CookieJar.defaultPath("/api/v1/items"), "/api/v1")
        XCTAssertEqual(CookieJar.defaultPath("/items"), "/")
    }

    func test_expiryAndSecure() {
        let jar = CookieJar()
        let now = 1_000_000.0
        jar.store([
            "short=1; Max-Age=10", "old=2; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            "both=3; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=100", "tls=4; Secure",
        ], from: "https://h.example/", now: now)
        XCTAssertEqual(jar.header(for: "https://h.example/", now: now + 5), "short=1; both=3; tls=4", "Max-Age wins over Expires")
        XCTAssertEqual(jar.header(for: "https://h.example/", now: now + 50), "both=3; tls=4")
        XCTAssertEqual(jar.header(for: "http://h.example/", now: now + 50), "both=3", "Secure cookies need https")
        jar.store(["both=; Max-Age=0"], from: "https://h.example/", now: now + 60)
        XCTAssertEqual(jar.header(for: "https://h.example/", now: now + 61), "tls=4")
        jar.store(["tls=5; Secure"], from: "https://h.example/", now: now + 70)
        XCTAssertEqual(jar.header(for: "https://h.example/", now: now + 71), "tls=5", "a cookie of the same name, domain and path is replaced")
        XCTAssertEqual(CookieJar.parseDate("Wed, 21-Oct-2015 07:28:00 GMT"), 1_445_412_480)
        XCTAssertEqual(CookieJar.parseDate("Wed, 21 Oct 2015 07:28:00 GMT"), 1_445_412_480)
    }
}
