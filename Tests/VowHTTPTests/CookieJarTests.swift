import XCTest

@testable import VowHTTP

/// The cookie jar's rules (RFC 6265): domains, host-only cookies, paths, order, expiry, Secure.
final class CookieJarTests: XCTestCase {
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

    /// A server that sets 1,000 cookies: the jar keeps the newest 50 of its domain, and the
    /// Cookie header stays under curl's 8,190 bytes; a cookie over 4,096 bytes is ignored.
    func test_aFloodOfCookiesIsCapped() {
        let jar = CookieJar()
        jar.store((0..<1000).map { "c\($0)=\(String(repeating: "v", count: 40))" }, from: "http://flood.example/")
        XCTAssertEqual(jar.all.count, CookieJar.perDomain)
        XCTAssertEqual(jar.all.first?.name, "c950", "the oldest went first")
        XCTAssertEqual(jar.all.last?.name, "c999")
        let header = jar.header(for: "http://flood.example/") ?? ""
        XCTAssertLessThanOrEqual(header.utf8.count, CookieJar.longestHeader)
        XCTAssertTrue(header.hasPrefix("c950="), header)
        // Another domain's cookies are not pushed out by the flood.
        let mixed = CookieJar()
        mixed.store(["keep=1"], from: "http://other.example/")
        mixed.store((0..<200).map { "f\($0)=1" }, from: "http://flood.example/")
        XCTAssertEqual(mixed.header(for: "http://other.example/"), "keep=1")
        // Long cookies: the header is cut at the limit, whole cookies only.
        let long = CookieJar()
        long.store((0..<10).map { "l\($0)=\(String(repeating: "x", count: 2000))" } + ["huge=" + String(repeating: "y", count: 5000)], from: "http://long.example/")
        XCTAssertFalse(long.all.contains { $0.name == "huge" })
        let cut = long.header(for: "http://long.example/") ?? ""
        XCTAssertLessThanOrEqual(cut.utf8.count, CookieJar.longestHeader)
        XCTAssertEqual(cut.split(separator: ";").count, 4)
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
