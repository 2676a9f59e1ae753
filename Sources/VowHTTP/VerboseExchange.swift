import AsyncHTTPClient
import Foundation
import NIOHTTP1
import VowValue

/// `--verbose`: each hop's request and response heads as curl -v writes them (`>` sent, `<`
/// received, `*` notes), with the time to the first byte and the total; secrets masked.
enum VerboseExchange {
    /// The request line and headers of a request the client library sends to `url`: Host first
    /// (the library adds it, the port when the URL writes one), `headers`, then the
    /// Content-Length it adds for a body of `bodyLength` bytes, unless given.
    static func request(method: String, url: URL, headers: HTTPHeaders, bodyLength: Int? = nil) -> String {
        var shown = HTTPHeaders()
        let host = bracketed(url.host ?? "")
        shown.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
        shown.add(contentsOf: headers)
        if let bodyLength, !headers.contains(name: "Content-Length"), !headers.contains(name: "Transfer-Encoding") {
            shown.add(name: "Content-Length", value: String(bodyLength))
        }
        return request(method: method, target: originForm(url), url: url, headers: shown)
    }

    /// The request line and headers as sent on vow's own connection (`LoopExchange`): `target`
    /// as it is on the request line (the absolute form through a proxy), `headers` every header
    /// sent, Host first.
    static func request(method: String, target: String, url: URL, headers: HTTPHeaders) -> String {
        var lines = ["* \(method) \(redactURL(url.absoluteString))", "> \(method) \(target) HTTP/1.1"]
        for h in headers { lines.append("> \(h.name): \(masked(h.name, h.value))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The status line and headers of a response head read on vow's own connection, with the
    /// time from sending to its arrival.
    static func response(_ head: HTTPResponseHead, firstByte: Duration) -> String {
        var lines = ["< HTTP/\(head.version.major).\(head.version.minor) \(head.status.code) \(TerminalText.visibleLine(head.status.reasonPhrase))"]
        for h in head.headers { lines.append("< \(h.name): \(masked(h.name, h.value))") }
        lines.append("* first byte after \(milliseconds(firstByte))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The status line and headers of the client library's response, with the time from sending
    /// to the response head.
    static func response(_ r: HTTPClientResponse, firstByte: Duration) -> String {
        response(HTTPResponseHead(version: r.version, status: r.status, headers: r.headers), firstByte: firstByte)
    }

    /// The end of the exchange: body size and total time (every hop included).
    static func done(bytes: Int, total: Duration) -> String {
        "* \(bytes) bytes of body; \(milliseconds(total)) in all\n"
    }

    /// A header's value with its secret hidden: the scheme of an Authorization stays, cookie
    /// names stay, values become `***`; a header whose name says it holds a secret
    /// (`isSecretHeader`) is `***`; any other value has its control characters made visible.
    static func masked(_ name: String, _ value: String) -> String {
        switch name.lowercased() {
        case "authorization", "proxy-authorization":
            let scheme = value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            return value.contains(" ") ? scheme + " ***" : "***"
        case "cookie":
            return value.split(separator: ";").map { pair in
                let kv = pair.split(separator: "=", maxSplits: 1)
                return kv[0].trimmingCharacters(in: .whitespaces) + "=***"
            }.joined(separator: "; ")
        case "set-cookie":
            guard let eq = value.firstIndex(of: "=") else { return "***" }
            let rest = value[eq...].firstIndex(of: ";").map { String(value[$0...]) } ?? ""
            return String(value[..<eq]) + "=***" + rest
        default:
            return isSecretHeader(name) ? "***" : TerminalText.visibleLine(value)
        }
    }

    static func milliseconds(_ d: Duration) -> String {
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return ms < 10 ? String(format: "%.1f ms", ms) : "\(Int(ms.rounded())) ms"
    }
}
