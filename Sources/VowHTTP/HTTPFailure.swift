import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import VowValue

/// Why an HTTP request failed, made where it failed: from the client library's error, by its type
/// and its case or errno (`init(_:of:)`), or by the engine itself (a status, a limit, a redirect, a
/// body it cannot decode, a download it cannot resume). `vowError(method:url:)` words it: the
/// message, the kind and the details, and the ` — METHOD URL` that ends most messages.
///
/// A failure of the connection carries `reason`, the client library's error as it words it, which
/// its details keep.
enum HTTPFailure: Error {
    // MARK: The connection

    /// `request cancelled`: the request was cancelled.
    case cancelled(reason: String)
    /// `no complete response within 30s`: `limit` seconds (`--timeout`) passed. `reason` is the
    /// client's error, or nil when vow's own timer ran out.
    case timeout(limit: Double, reason: String?)
    /// `cannot resolve host 'HOST'`.
    case dns(reason: String)
    /// `connection refused HOST:PORT`.
    case refused(reason: String)
    /// `connection reset by HOST:PORT`.
    case reset(reason: String)
    /// `HOST:PORT is unreachable`: no route to its network or to it.
    case unreachable(reason: String)
    /// `connecting to HOST:PORT timed out`.
    case connectTimeout(reason: String)
    /// `HOST:PORT closed the connection before the response was complete`.
    case closedEarly(reason: String)
    /// `request to HOST:PORT failed: …`, in the system's words for `errno`.
    case system(errno: Int32, reason: String)
    /// `HOST:PORT sent …`, `HOST:PORT closed the connection before the body was complete …`: what
    /// the server did wrong, by the HTTP parser's error.
    case malformed(HTTPParserError, reason: String)
    /// `protocol error from HOST:PORT: …`: a response that does not parse, known by its words only.
    case protocolError(reason: String)
    /// `TLS: the certificate of HOST:PORT is not trusted …`: it failed verification.
    case untrustedCertificate(reason: String)
    /// `TLS: the certificate of HOST:PORT is for another name …`: it does not name the host.
    case wrongName(reason: String)
    /// `HTTP/2 error from HOST:PORT: the stream was reset (CANCEL)`: an HTTP/2 failure, in words.
    case http2(words: String, reason: String)
    /// `TLS failure with HOST:PORT: …`: any other TLS failure.
    case tls(reason: String)
    /// `the proxy PROXY refused to open a tunnel to HOST:PORT …`: it answered CONNECT with an error
    /// status. `proxy` is written `host:port` (`?` when unknown).
    case tunnelRefused(proxy: String, reason: String)
    /// `the proxy PROXY asks for credentials (407 …)`: it answered CONNECT with a 407.
    case proxyCredentials(proxy: String, reason: String)
    /// `the body from HOST:PORT is not valid gzip or deflate data …`: the layer of coding the
    /// client decodes is corrupt.
    case corruptCompression(reason: String)
    /// `request to HOST:PORT failed: …`: anything else, in the client's words.
    case failed(reason: String)

    // MARK: The response

    /// `404 Not Found`: a 4xx or 5xx status, errors not allowed.
    case status(HTTPResponse)
    /// `the proxy PROXY refused the request: 403 Forbidden (REASON)`: the proxy's own refusal
    /// (a 407, or an answer with `Proxy-Status` or `X-Squid-Error`, which gives `reason`).
    case proxyRefused(HTTPResponse, proxy: String, reason: String?)
    /// `redirect loop: URL was already visited`: the response redirects to `to`, one of `visited`.
    case redirectLoop(HTTPResponse, to: String, visited: [String])
    /// `too many redirects (more than LIMIT)`: after `visited`, the response redirects again.
    case tooManyRedirects(HTTPResponse, limit: Int, visited: [String])
    /// `301: redirect to an invalid Location 'LOCATION'` (no ` — METHOD URL`).
    case invalidLocation(status: Int, location: String)
    /// `the body is SIZE bytes, over the limit of LIMIT (--max-size)` when its Content-Length
    /// announced `size`, else `the body is over the limit of LIMIT bytes (--max-size)` as it
    /// arrived. `status` is the response's, when known.
    case tooBig(limit: Int, size: Int?, status: Int?)
    /// `the decoded body is over the limit of LIMIT bytes (--max-size)`. `reason` is the client's
    /// error when its decoder found it, nil when vow's did.
    case decodedTooBig(limit: Int, reason: String?)
    /// `a line (an event) of the stream is over the limit of LIMIT bytes (--max-size)`.
    case lineTooLong(event: Bool, limit: Int)
    /// `the body is in Content-Encoding 'CODING', which vow cannot decode …`.
    case unknownCoding(String)
    /// `brotli: out of memory` or `zlib: cannot start decoding`: no decoder for the coding.
    case noDecoder(brotli: Bool)
    /// `the CODING body ends before its stream does`.
    case truncatedCoding(String)
    /// `the CODING body has bytes after the end of its compressed stream`.
    case trailingCoded(String)
    /// `the body is not valid CODING data (DETAIL), though its Content-Encoding says it is`.
    case corruptCoding(String, detail: String)
    /// `--continue: the server sent the range 'RANGE', not bytes from OFFSET`.
    case rangeMismatch(range: String, offset: Int)
    /// `--continue: the server refused the range (416) and the partial file does not match its size`.
    case rangeRefused
    /// `the body ended after RECEIVED of ANNOUNCED bytes`: fewer bytes than its Content-Length.
    case shortBody(received: Int, announced: Int)
    /// `the event stream of URL closed N times in a row without an event` (no ` — METHOD URL`).
    case eventStreamExhausted(times: Int)

    // MARK: The request and the engine

    /// `STAGE: invalid URL 'URL' (expected http:// or https://)`, a `type` error.
    case invalidURL(stage: String)
    /// `the HTTP client is shut down`.
    case shutDown
    /// `cannot read the certificate authorities in PATH: …` (`--cacert`), an `io` error.
    case unreadableAuthorities(path: String, reason: String)
}

extension HTTPFailure {
    /// The failure that the client library's `error` stands for, in the request `spec` (its
    /// proxy, `--timeout` and `--max-size` are named in messages).
    init(_ error: any Error, of spec: HTTPRequestSpec) {
        let reason = String(describing: error)
        switch error {
        case is CancellationError:
            self = .cancelled(reason: reason)
        case let e as HTTPClientError:
            self = Self.client(e, of: spec, reason: reason)
        case let e as HTTPParserError:
            self = .malformed(e, reason: reason)
        case let e as NIOHTTPDecompression.DecompressionError:
            self = e == .limit ? .decodedTooBig(limit: spec.maxSize, reason: reason) : .corruptCompression(reason: reason)
        case let e as NIOConnectionError:
            // The first attempt's errno says why it failed; with none to say it, the name did not resolve.
            if let first = e.connectionErrors.first?.error as? IOError {
                self = Self.system(first.errnoCode, reason: reason)
            } else {
                self = .dns(reason: reason)
            }
        case let e as IOError:
            self = Self.system(e.errnoCode, reason: reason)
        case is ChannelError:
            self = .failed(reason: reason)
        case let e as NIOSSLExtraError where e == .failedToValidateHostname:
            self = .wrongName(reason: reason)
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError, is NIOSSLCloseTimedOutError, is NIOTLSUnwrappingError:
            // A TLS failure; whether the certificate failed verification only BoringSSL's words tell.
            self = Self.byWords(reason, tls: true)
        default:
            // A type not known here.
            let typeName = String(reflecting: type(of: error))
            if typeName.contains("NIOHTTP2") || typeName.contains("NIOHPACK") {
                self = .http2(words: Self.http2Words(typeName: typeName, reason: reason), reason: reason)
                return
            }
            self = Self.byWords(reason, tls: typeName.contains("SSL") || typeName.contains("TLS"))
        }
    }

    /// The failure an `HTTPClientError` stands for.
    private static func client(_ e: HTTPClientError, of spec: HTTPRequestSpec, reason: String) -> HTTPFailure {
        let proxy = spec.proxy.map { "\(bracketed($0.host)):\($0.port)" } ?? "?"
        switch e {
        case .invalidProxyResponse: return .tunnelRefused(proxy: proxy, reason: reason)
        case .proxyAuthenticationRequired: return .proxyCredentials(proxy: proxy, reason: reason)
        case .deadlineExceeded, .readTimeout: return .timeout(limit: spec.timeout, reason: reason)
        case .connectTimeout: return .connectTimeout(reason: reason)
        case .remoteConnectionClosed: return .closedEarly(reason: reason)
        case .cancelled: return .cancelled(reason: reason)
        default: return .failed(reason: reason)
        }
    }

    /// What an HTTP/2 error of type `typeName` (`NIOHTTP2Errors.StreamClosed`) says, in words:
    /// its name split into words, and the HTTP/2 error code its description carries (`HTTP2ErrorCode<0x8 Cancel>`
    /// is `CANCEL`).
    static func http2Words(typeName: String, reason: String) -> String {
        let name = typeName.split(separator: ".").last.map(String.init) ?? typeName
        var words: String
        switch name {
        case "StreamClosed": words = "the server reset the stream"
        // HPACK's header-list size, which NIOHTTP2 sets at 16 KiB and checks both as the frames come and as they decode.
        case "ExcessivelyLargeHeaderBlock", "MaxHeaderListSizeViolation": words = "response headers too large (over 16 KiB)"
        case "ExcessiveContinuationFrames": words = "response headers too large (too many CONTINUATION frames)"
        case "NoSuchStream": words = "the server answered on a stream that does not exist"
        default:
            // `UnableToParseFrame` is `unable to parse frame`.
            words = ""
            for c in name {
                if c.isUppercase, !words.isEmpty { words += " " }
                words += c.lowercased()
            }
        }
        if let open = reason.range(of: "HTTP2ErrorCode<"), let close = reason[open.upperBound...].firstIndex(of: ">") {
            let inside = reason[open.upperBound..<close].split(separator: " ")
            if let code = inside.last, inside.count == 2 {
                var upper = ""
                for c in code {
                    if c.isUppercase, !upper.isEmpty { upper += "_" }
                    upper += c.uppercased()
                }
                words += " (\(upper))"
            }
        }
        return words
    }

    /// The failure a system error number stands for.
    private static func system(_ errno: Int32, reason: String) -> HTTPFailure {
        switch errno {
        case ECONNREFUSED: .refused(reason: reason)
        case ECONNRESET: .reset(reason: reason)
        case ETIMEDOUT: .connectTimeout(reason: reason)
        case ENETUNREACH, EHOSTUNREACH: .unreachable(reason: reason)
        default: .system(errno: errno, reason: reason)
        }
    }

    /// The failure that an error's words (`reason`) name: the one place they are searched, for
    /// what its type cannot tell. BoringSSL keeps the code of each error it reports private
    /// (`BoringSSLInternalError` shows it only in its description), so a certificate that failed
    /// verification is known by `CERTIFICATE_VERIFY_FAILED` alone; and an error of a type not
    /// known here (on Darwin, the Network framework's, which the client passes on as they are)
    /// has nothing else to go by than its words and whether its type's name says TLS (`tls`).
    static func byWords(_ reason: String, tls: Bool) -> HTTPFailure {
        if reason.contains("resolve") || reason.contains("DNS") { return .dns(reason: reason) }
        if reason.contains("CERTIFICATE_VERIFY_FAILED") { return .untrustedCertificate(reason: reason) }
        if tls || reason.contains("certificate") { return .tls(reason: reason) }
        if reason.lowercased().contains("refused") { return .refused(reason: reason) }
        if reason.contains("NIOHTTPDecoderError") || reason.contains("HTTPParserError") { return .protocolError(reason: reason) }
        return .failed(reason: reason)
    }
}
