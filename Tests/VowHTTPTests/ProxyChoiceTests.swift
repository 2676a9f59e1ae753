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
}
