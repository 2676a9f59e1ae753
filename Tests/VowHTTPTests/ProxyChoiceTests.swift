import XCTest

@testable import VowHTTP

/// Which hosts `no_proxy` sends direct.
final class ProxyChoiceTests: XCTestCase {
    func test_noProxyMatchesHostsDomainsPortsAndStar() {
        XCTAssertTrue(ProxyChoice.bypasses(host: "api.internal.example", port: nil, noProxy: "localhost, .internal.example"))
        XCTAssertTrue(ProxyChoice.bypasses(host: "internal.example", port: nil, noProxy: "internal.example"))
        XCTAssertFalse(ProxyChoice.bypasses(host: "notinternal.example", port: nil, noProxy: "internal.example"))
        XCTAssertTrue(ProxyChoice.bypasses(host: "anything", port: nil, noProxy: "*"))
        XCTAssertFalse(ProxyChoice.bypasses(host: "h.example", port: 80, noProxy: "h.example:8080"))
    }

    /// curl's rules for addresses: CIDR ranges, bare and bracketed IPv6, and no suffix match of
    /// an address.
    func test_noProxyMatchesAddressesByCurlsRules() {
        XCTAssertTrue(ProxyChoice.bypasses(host: "127.0.0.1", port: 8080, noProxy: "127.0.0.0/8"))
        XCTAssertTrue(ProxyChoice.bypasses(host: "10.1.2.3", port: nil, noProxy: "example.com, 10.0.0.0/8"))
        XCTAssertFalse(ProxyChoice.bypasses(host: "11.1.2.3", port: nil, noProxy: "10.0.0.0/8"))
        XCTAssertTrue(ProxyChoice.bypasses(host: "192.168.1.77", port: nil, noProxy: "192.168.1.64/26"))
        XCTAssertFalse(ProxyChoice.bypasses(host: "192.168.1.128", port: nil, noProxy: "192.168.1.64/26"))
        XCTAssertTrue(ProxyChoice.bypasses(host: "::1", port: 8080, noProxy: "::1"))
        XCTAssertTrue(ProxyChoice.bypasses(host: "[::1]", port: 8080, noProxy: "::1"))
        XCTAssertTrue(ProxyChoice.bypasses(host: "::1", port: 8080, noProxy: "[::1]:8080"))
        XCTAssertFalse(ProxyChoice.bypasses(host: "::1", port: 80, noProxy: "[::1]:8080"))
        XCTAssertTrue(ProxyChoice.bypasses(host: "fd00::5", port: nil, noProxy: "fd00::/8"))
        XCTAssertFalse(ProxyChoice.bypasses(host: "127.0.0.1", port: nil, noProxy: ".0.0.1"))
        XCTAssertFalse(ProxyChoice.bypasses(host: "127.0.0.1", port: nil, noProxy: "0.0.1"))
        XCTAssertTrue(ProxyChoice.bypasses(host: "127.0.0.1", port: 9000, noProxy: "127.0.0.1:9000"))
        // Through the environment, as a request reads it.
        XCTAssertNil(try ProxyChoice.choose(
            for: "http://[::1]:8080/x", flag: nil, direct: false, environment: ["http_proxy": "http://p:3128", "no_proxy": "::1"]))
        XCTAssertNotNil(try ProxyChoice.choose(
            for: "http://127.0.0.1:8080/x", flag: nil, direct: false, environment: ["http_proxy": "http://p:3128", "no_proxy": ".0.0.1"]))
    }
}
