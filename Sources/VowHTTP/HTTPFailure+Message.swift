import Foundation
import NIOHTTP1
import VowValue

extension HTTPFailure {
    /// The error vow reports for this failure of `request`.
    func vowError(for request: HTTPRequestSpec) -> VowError {
        if let proxy = request.proxy, let failure = proxyFailure {
            // The connection that failed was the proxy's: it is named, not the target (which
            // may well be up).
            let at = "\(bracketed(proxy.host)):\(proxy.port)"
            let shown = redactURL(request.url)
            return VowError(
                .network, "the proxy \(at) cannot be reached: \(failure) — \(request.method) \(shown)",
                details: ["proxy": .string(at), "url": .string(shown), "reason": .string(String(describing: self))])
        }
        return vowError(method: request.method, url: request.url)
    }

    /// A failure to reach whatever the connection went to, in words, when this is one.
    private var proxyFailure: String? {
        switch self {
        case .refused: "connection refused"
        case .reset: "connection reset"
        case .unreachable: "unreachable"
        case .connectTimeout: "connecting timed out"
        case .dns: "its host name does not resolve"
        default: nil
        }
    }

    /// The error vow reports for this failure of a request of `method` to `url`: its kind, its
    /// message, ended by ` — METHOD URL` (the URL's password masked) unless the message names
    /// the URL itself or none is needed, and its details. A failure of the connection names the
    /// host and port of `url`.
    func vowError(method: String, url: String) -> VowError {
        let shown = redactURL(url)
        var message = sentence(url, shown: shown)
        if endsWithRequest { message += " — \(method) \(shown)" }
        return VowError(kind, message, details: details(url, shown: shown, method: method))
    }

    /// The host and port a request went to, as messages and details name them.
    struct Target {
        let host: String
        let port: Int

        init(_ url: String) {
            let parsed = URL(string: url)
            host = parsed?.host ?? "?"
            port = parsed?.port ?? (parsed?.scheme?.lowercased() == "https" ? 443 : 80)
        }

        /// `host:port`, an IPv6 address in brackets.
        var written: String { "\(bracketed(host)):\(port)" }
    }

    /// The kind of error.
    var kind: VowError.Kind {
        switch self {
        case .cancelled: .cancelled
        case .timeout: .timeout
        case .dns, .refused, .reset, .unreachable, .connectTimeout, .closedEarly, .system, .malformed, .protocolError,
            .untrustedCertificate, .wrongName, .tls, .http2, .tunnelRefused, .proxyCredentials, .failed, .shortBody, .eventStreamExhausted, .shutDown:
            .network
        case .corruptCompression, .status, .proxyRefused, .redirectLoop, .tooManyRedirects, .invalidLocation, .tooBig,
            .decodedTooBig, .lineTooLong, .unknownCoding, .noDecoder, .truncatedCoding, .trailingCoded, .corruptCoding,
            .rangeMismatch, .rangeRefused:
            .http
        case .invalidURL: .type
        case .unreadableAuthorities: .io
        }
    }

    /// Whether the message ends with ` — METHOD URL`.
    private var endsWithRequest: Bool {
        switch self {
        case .invalidLocation, .eventStreamExhausted, .invalidURL, .shutDown, .unreadableAuthorities: false
        default: true
        }
    }

    /// The message before ` — METHOD URL` for a request to `url` (`shown`: its password masked).
    private func sentence(_ url: String, shown: String) -> String {
        // Parsed only for a failure that names them.
        var target: Target { Target(url) }
        var to: String { target.written }
        switch self {
        case .cancelled: return "request cancelled"
        case .timeout(let limit, _): return "no complete response within \(TimeText.duration(limit))"
        case .dns: return "cannot resolve host '\(target.host)'"
        case .refused: return "connection refused \(to)"
        case .reset: return "connection reset by \(to)"
        case .unreachable: return "\(to) is unreachable"
        case .connectTimeout: return "connecting to \(to) timed out"
        case .closedEarly: return "\(to) closed the connection before the response was complete"
        case .system(let errno, _): return "request to \(to) failed: \(String(cString: strerror(errno)))"
        case .malformed(let e, _): return "\(to) \(Self.wrongdoing(e))"
        case .protocolError(let reason): return "protocol error from \(to): \(reason)"
        case .untrustedCertificate:
            return "TLS: the certificate of \(to) is not trusted (CERTIFICATE_VERIFY_FAILED: self-signed, expired, or for another name); "
                + "--cacert FILE trusts its authority, --insecure skips the check"
        case .wrongName:
            return "TLS: the certificate of \(to) is for another name: it does not list '\(target.host)' (--insecure skips the check)"
        case .tls(let reason): return "TLS failure with \(to): \(reason)"
        case .http2(let words, _): return "HTTP/2 error from \(to): \(words)"
        case .tunnelRefused(let proxy, _):
            return "the proxy \(proxy) refused to open a tunnel to \(to) (it answered CONNECT with an error status; "
                + "many proxies allow CONNECT to port 443 only)"
        case .proxyCredentials(let proxy, _):
            return "the proxy \(proxy) asks for credentials (407 Proxy Authentication Required): give them in the proxy URL, "
                + "http://user:pass@host:port"
        case .corruptCompression:
            return "the body from \(to) is not valid gzip or deflate data (its compressed data is corrupt), though its Content-Encoding says it is"
        case .failed(let reason): return "request to \(to) failed: \(reason)"
        case .status(let r): return "\(r.status) \(r.statusText)"
        case .proxyRefused(let r, let proxy, let reason):
            return "the proxy \(proxy) refused the request: \(r.status) \(r.statusText)" + (reason.map { " (\(TerminalText.visibleLine($0)))" } ?? "")
        case .redirectLoop(_, let next, _): return "redirect loop: \(redactURL(next)) was already visited"
        case .tooManyRedirects(_, let limit, _): return "too many redirects (more than \(limit))"
        case .invalidLocation(let status, let location): return "\(status): redirect to an invalid Location '\(location)'"
        case .tooBig(let limit, let size?, _): return "the body is \(size) bytes, over the limit of \(limit) (--max-size)"
        case .tooBig(let limit, nil, _): return "the body is over the limit of \(limit) bytes (--max-size)"
        case .decodedTooBig(let limit, _): return "the decoded body is over the limit of \(limit) bytes (--max-size)"
        case .lineTooLong(let event, let limit):
            return "a \(event ? "event" : "line") of the stream is over the limit of \(limit) bytes (--max-size)"
        case .unknownCoding(let coding):
            return "the body is in Content-Encoding '\(coding)', which vow cannot decode (it decodes gzip, deflate and br)"
        case .noDecoder(let brotli): return brotli ? "brotli: out of memory" : "zlib: cannot start decoding"
        case .truncatedCoding(let coding): return "the \(Self.named(coding)) body ends before its stream does"
        case .trailingCoded(let coding): return "the \(Self.named(coding)) body has bytes after the end of its compressed stream"
        case .corruptCoding(let coding, let detail):
            return "the body is not valid \(Self.named(coding)) data (\(detail)), though its Content-Encoding says it is"
        case .rangeMismatch(let range, let offset): return "--continue: the server sent the range '\(range)', not bytes from \(offset)"
        case .rangeRefused: return "--continue: the server refused the range (416) and the partial file does not match its size"
        case .shortBody(let received, let announced): return "the body ended after \(received) of \(announced) bytes"
        case .eventStreamExhausted(let times): return "the event stream of \(shown) closed \(times) times in a row without an event"
        case .invalidURL(let stage): return "\(stage): invalid URL '\(shown)' (expected http:// or https://)"
        case .shutDown: return "the HTTP client is shut down"
        case .unreadableAuthorities(let path, let reason): return "cannot read the certificate authorities in \(path): \(reason)"
        }
    }

    /// A content coding as messages name it: `br` is brotli.
    private static func named(_ coding: String) -> String {
        coding == "br" ? "brotli" : coding
    }

    /// What a server did wrong, in words, for the HTTP parser's error `e` (after the server's
    /// host and port: "127.0.0.1:80 closed the connection …").
    static func wrongdoing(_ e: HTTPParserError) -> String {
        switch e {
        case .invalidEOFState, .closedConnection:
            return "closed the connection before the body was complete (it sent fewer bytes than its Content-Length or chunks announced)"
        case .invalidContentLength, .unexpectedContentLength:
            return "sent a Content-Length that cannot be used (not a number, repeated with another value, or beside Transfer-Encoding: chunked)"
        case .invalidChunkSize:
            return "sent a chunked body with an invalid chunk size"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected:
            return "sent a response head with invalid characters (a NUL or another control byte in its status line or a header: not a valid HTTP response)"
        case .invalidVersion, .invalidStatus, .invalidConstant:
            return "did not answer with a valid HTTP status line (not a valid HTTP response: \(e))"
        case .unknown:
            // What llhttp cannot name: most often a NUL or another byte forbidden in a response head.
            return "sent a response head that cannot be read (a NUL or another forbidden byte, or broken framing): not a valid HTTP response"
        default:
            return "sent what is not a valid HTTP response (\(e))"
        }
    }

    /// The details record, for a request of `method` to `url` (`shown`: its password masked).
    private func details(_ url: String, shown: String, method: String) -> Record {
        switch self {
        case .timeout(let limit, nil):
            return ["method": .string(method), "limit": .double(limit), "url": .string(shown)]
        case .timeout(let limit, let reason?):
            return Self.connection(url, shown: shown, reason: reason).adding("limit", .double(limit))
        case .tunnelRefused(let proxy, let reason):
            return Self.connection(url, shown: shown, reason: reason).adding("proxy", .string(proxy))
        case .proxyCredentials(let proxy, let reason):
            return Self.connection(url, shown: shown, reason: reason).adding("proxy", .string(proxy)).adding("status", .int(407))
        case .decodedTooBig(let limit, nil):
            return ["limit": .int(limit)]
        case .cancelled(let reason), .dns(let reason), .refused(let reason), .reset(let reason), .unreachable(let reason),
            .connectTimeout(let reason), .closedEarly(let reason), .system(_, let reason), .malformed(_, let reason),
            .protocolError(let reason), .untrustedCertificate(let reason), .wrongName(let reason), .tls(let reason), .http2(_, let reason), .corruptCompression(let reason),
            .failed(let reason), .decodedTooBig(_, let reason?):
            return Self.connection(url, shown: shown, reason: reason)
        case .status(let r):
            return Self.response(r)
        case .proxyRefused(let r, let proxy, _):
            return Self.response(r).adding("proxy", .string(proxy))
        case .redirectLoop(let r, _, let visited), .tooManyRedirects(let r, _, let visited):
            return Self.response(r).adding("redirects", .list(visited.map { .string(redactURL($0)) }))
        case .tooBig(let limit, let size, let status):
            var d = Record()
            if let status { d["status"] = .int(status) }
            d["limit"] = .int(limit)
            if let size { d["size"] = .int(size) }
            return d
        case .lineTooLong(_, let limit):
            return ["limit": .int(limit)]
        case .unknownCoding(let coding):
            return ["encoding": .string(coding)]
        case .invalidLocation, .noDecoder, .truncatedCoding, .trailingCoded, .corruptCoding, .rangeMismatch, .rangeRefused,
            .shortBody, .eventStreamExhausted, .invalidURL, .shutDown, .unreadableAuthorities:
            return Record()
        }
    }

    /// The details of a failure of the connection to `url` (`shown`: its password masked): where
    /// it went, and the client's words.
    private static func connection(_ url: String, shown: String, reason: String) -> Record {
        let target = Target(url)
        return ["host": .string(target.host), "port": .int(target.port), "url": .string(shown), "reason": .string(reason)]
    }

    /// The details of a failure with a response: its status, URL, method, headers (secrets
    /// masked), body (JSON when it parses, else text, else bytes) and `Retry-After` in seconds.
    private static func response(_ r: HTTPResponse) -> Record {
        var d = Record()
        d["status"] = .int(r.status)
        d["statusText"] = .string(r.statusText)
        d["url"] = .string(redactURL(r.url))
        d["method"] = .string(r.method)
        d["headers"] = .record(r.headerRecord(redacting: isSecretHeader))
        if let parsed = try? JSON.parse(r.body) {
            d["body"] = parsed
        } else if let text = String(validating: r.body, as: UTF8.self) {
            d["body"] = .string(text)
        } else {
            d["body"] = Value.bytes(r.body).toJSONValue()
        }
        if let after = r.header("Retry-After"), let seconds = parseRetryAfter(after) {
            d["retryAfter"] = .double(seconds)
        }
        return d
    }
}

/// A Retry-After value: seconds, or an HTTP date.
func parseRetryAfter(_ s: String) -> Double? {
    let t = s.trimmingCharacters(in: .whitespaces)
    if let n = Double(t), n >= 0 { return n }
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "GMT")
    f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    if let d = f.date(from: t) { return max(0, d.timeIntervalSinceNow) }
    return nil
}
