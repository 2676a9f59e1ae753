import AsyncHTTPClient
import Foundation
import VowValue

/// Which proxy a request goes through: `--proxy URL`, `--no-proxy`, or the environment as curl
/// reads it (`http_proxy` for http://, `https_proxy` for https://, `all_proxy` for both, each
/// also in upper case; `no_proxy` lists hosts that go direct).
public struct ProxyChoice: Sendable, Hashable {
    /// `http`, `https` (both sent as an HTTP proxy; https targets through CONNECT) or `socks5`.
    public let scheme: String
    /// The proxy's host.
    public let host: String
    /// The proxy's port.
    public let port: Int
    /// `user:pass` from the proxy URL, sent as Proxy-Authorization (basic).
    public let credentials: String?

    /// Parses a proxy URL (`http://host:port`, `socks5://host`, `host:port`); nil when it is not one.
    public init?(url: String) {
        let text = url.contains("://") ? url : "http://" + url
        guard let c = URLComponents(string: text), let host = c.host, !host.isEmpty, let scheme = c.scheme?.lowercased(),
            ["http", "https", "socks5", "socks5h", "socks"].contains(scheme)
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = c.port ?? (scheme.hasPrefix("socks") ? 1080 : scheme == "https" ? 443 : 80)
        if let user = c.user { credentials = user + ":" + (c.password ?? "") } else { credentials = nil }
    }

    /// The client library's proxy setting.
    var setting: HTTPClient.Configuration.Proxy {
        if scheme.hasPrefix("socks") { return .socksServer(host: host, port: port) }
        let auth = credentials.map { c -> HTTPClient.Authorization in
            let parts = c.split(separator: ":", maxSplits: 1).map(String.init)
            return .basic(username: parts[0].removingPercentEncoding ?? parts[0], password: (parts.count > 1 ? parts[1] : "").removingPercentEncoding ?? "")
        }
        return .server(host: host, port: port, authorization: auth)
    }

    /// The proxy for a request to `url`: `flag` (`--proxy`) wins, `direct` (`--no-proxy`) goes
    /// without, else the environment decides. A malformed proxy URL is an error naming where it
    /// came from.
    public static func choose(for url: String, flag: String?, direct: Bool, environment: [String: String], stage: String) throws -> ProxyChoice? {
        if direct { return nil }
        if let flag {
            guard let p = ProxyChoice(url: flag) else { throw VowError(.type, "\(stage): --proxy: not a proxy URL: \(redactURL(flag))") }
            return p
        }
        func env(_ name: String) -> String? {
            for key in [name.lowercased(), name.uppercased()] {
                if let v = environment[key], !v.isEmpty { return v }
            }
            return nil
        }
        // No proxy in the environment (the common case, checked on every request): no need to
        // read the URL, nor to build the names' other spellings.
        let set = { (key: String) in !(environment[key]?.isEmpty ?? true) }
        guard set("http_proxy") || set("HTTP_PROXY") || set("https_proxy") || set("HTTPS_PROXY")
            || set("all_proxy") || set("ALL_PROXY")
        else { return nil }
        guard let target = URLComponents(string: url), let host = target.host?.lowercased() else { return nil }
        let scheme = target.scheme?.lowercased() ?? "http"
        guard let (name, value) = [("\(scheme)_proxy", env("\(scheme)_proxy")), ("all_proxy", env("all_proxy"))]
            .first(where: { $0.1 != nil }).map({ ($0.0, $0.1!) })
        else { return nil }
        if let noProxy = env("no_proxy"), bypasses(host: host, port: target.port, noProxy: noProxy) { return nil }
        guard let p = ProxyChoice(url: value) else { throw VowError(.type, "\(stage): \(name) is not a proxy URL: \(redactURL(value))") }
        return p
    }

    /// True when `no_proxy` (comma-separated: `*`, host names, domain suffixes with or without a
    /// leading dot, IP addresses, each optionally with `:port`) names the host.
    static func bypasses(host: String, port: Int?, noProxy: String) -> Bool {
        for raw in noProxy.split(separator: ",") {
            var entry = raw.trimmingCharacters(in: .whitespaces).lowercased()
            if entry == "*" { return true }
            if entry.isEmpty { continue }
            if let colon = entry.lastIndex(of: ":"), !entry.hasPrefix("["), let p = Int(entry[entry.index(after: colon)...]) {
                if port != nil, p != port { continue }
                entry = String(entry[..<colon])
            }
            if entry.hasPrefix(".") { entry.removeFirst() }
            if host == entry || host.hasSuffix("." + entry) { return true }
        }
        return false
    }
}
