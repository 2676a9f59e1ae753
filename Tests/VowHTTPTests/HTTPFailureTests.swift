import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import VowValue
import XCTest

@testable import VowHTTP

/// Failures as the engine makes them: the client library's errors by type and errno, and how
/// one failure is worded (message, kind, details, the ` — METHOD URL` at its end).
final class HTTPFailureTests: XCTestCase {
    let spec = HTTPRequestSpec(method: "GET", url: "http://user:secret@[::1]:8080/x")

    /// The case name of the failure `error` stands for.
    func classified(_ error: any Error, _ spec: HTTPRequestSpec? = nil) -> String {
        String(describing: HTTPFailure(error, of: spec ?? self.spec)).prefix { $0 != "(" }.description
    }

    func test_theClientLibrarysErrorsAreKnownByTypeCaseAndErrno() {
        XCTAssertEqual(classified(CancellationError()), "cancelled")
        XCTAssertEqual(classified(HTTPClientError.cancelled), "cancelled")
        XCTAssertEqual(classified(HTTPClientError.deadlineExceeded), "timeout")
        XCTAssertEqual(classified(HTTPClientError.connectTimeout), "connectTimeout")
        XCTAssertEqual(classified(HTTPClientError.remoteConnectionClosed), "closedEarly")
        XCTAssertEqual(classified(HTTPClientError.invalidProxyResponse), "tunnelRefused")
        XCTAssertEqual(classified(HTTPClientError.tlsHandshakeTimeout), "failed")
        XCTAssertEqual(classified(HTTPParserError.invalidChunkSize), "malformed")
        XCTAssertEqual(classified(IOError(errnoCode: ECONNREFUSED, reason: "connect")), "refused")
        XCTAssertEqual(classified(IOError(errnoCode: ECONNRESET, reason: "read")), "reset")
        XCTAssertEqual(classified(IOError(errnoCode: EHOSTUNREACH, reason: "connect")), "unreachable")
        XCTAssertEqual(classified(IOError(errnoCode: EPIPE, reason: "write")), "system")
        XCTAssertEqual(classified(ChannelError.eof), "failed")
        XCTAssertEqual(classified(NIOSSLError.uncleanShutdown), "tls")
    }

    func test_anErrorOfAnUnknownTypeIsKnownByItsWords() {
        struct Foreign: Error, CustomStringConvertible { let description: String }
        XCTAssertEqual(classified(Foreign(description: "Connection refused")), "refused")
        XCTAssertEqual(classified(Foreign(description: "x:CERTIFICATE_VERIFY_FAILED at y")), "untrustedCertificate")
        XCTAssertEqual(classified(Foreign(description: "something else")), "failed")
    }

    func test_aConnectionFailureNamesHostAndPortAndEndsWithTheRequestOnce() throws {
        let e = try XCTUnwrap(HTTPEngine.describe(IOError(errnoCode: ECONNRESET, reason: "read"), spec) as? VowError)
        XCTAssertEqual(e.kind, .network)
        XCTAssertEqual(e.message, "connection reset by [::1]:8080 — GET http://user:***@[::1]:8080/x")
        XCTAssertEqual(e.details.keys, ["host", "port", "url", "reason"])
        XCTAssertEqual(e.details["url"], "http://user:***@[::1]:8080/x")
    }

    func test_vowsOwnTimeoutKeepsMethodLimitAndURL() {
        var timed = spec
        timed.timeout = 0.3
        let e = HTTPFailure.timeout(limit: timed.timeout, reason: nil).vowError(for: timed)
        XCTAssertEqual(e.kind, .timeout)
        XCTAssertEqual(e.message, "no complete response within 300ms — GET http://user:***@[::1]:8080/x")
        XCTAssertEqual(e.details.keys, ["method", "limit", "url"])
    }

    func test_aProxyAskingForCredentialsIsNamedWithItsStatus() throws {
        var proxied = spec
        proxied.proxy = ProxyChoice(url: "http://proxy.example:3128")
        let e = try XCTUnwrap(HTTPEngine.describe(HTTPClientError.proxyAuthenticationRequired, proxied) as? VowError)
        XCTAssertTrue(e.message.hasPrefix("the proxy proxy.example:3128 asks for credentials"), e.message)
        XCTAssertEqual(e.details["proxy"], "proxy.example:3128")
        XCTAssertEqual(e.details["status"], 407)
    }

    func test_aMessageThatNeedsNoRequestHasNone() {
        XCTAssertEqual(HTTPFailure.shutDown.vowError(for: spec).message, "the HTTP client is shut down")
        XCTAssertEqual(
            HTTPFailure.invalidLocation(status: 301, location: "::").vowError(for: spec).message,
            "301: redirect to an invalid Location '::'")
    }

    /// HTTP/2 failures in words, not the library's types and source locations.
    func test_http2ErrorsAreInWords() {
        let reset = HTTPFailure.http2Words(
            typeName: "NIOHTTP2.NIOHTTP2Errors.StreamClosed",
            reason: #"StreamClosed(streamID: HTTP2StreamID(1), errorCode: HTTP2ErrorCode<0x8 Cancel>, location: "NIOHTTP2/HTTP2StreamChannel.swift:892")"#)
        XCTAssertEqual(reset, "the server reset the stream (CANCEL)")
        XCTAssertEqual(HTTPFailure.http2Words(typeName: "NIOHTTP2.NIOHTTP2Errors.UnableToParseFrame", reason: "UnableToParseFrame()"), "unable to parse frame")
        XCTAssertEqual(
            HTTPFailure.http2Words(typeName: "NIOHTTP2.NIOHTTP2Errors.ExcessivelyLargeHeaderBlock", reason: "x"), "response headers too large (over 16 KiB)")
        let refused = HTTPFailure.http2Words(typeName: "NIOHTTP2.NIOHTTP2Errors.StreamClosed", reason: "errorCode: HTTP2ErrorCode<0x7 RefusedStream>")
        XCTAssertEqual(refused, "the server reset the stream (REFUSED_STREAM)")
        let message = HTTPFailure.http2(words: reset, reason: "raw").vowError(method: "GET", url: "https://127.0.0.1:8443/x").message
        XCTAssertEqual(message, "HTTP/2 error from 127.0.0.1:8443: the server reset the stream (CANCEL) — GET https://127.0.0.1:8443/x")
        XCTAssertFalse(message.contains("NIOHTTP2"))
    }
}
