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
    public static func choose(for url: String, flag: String?, direct: Bool, environment: [String: String]) throws -> ProxyChoice? {
        if direct { return nil }
        if let flag {
            guard let p = ProxyChoice(url: flag) else { throw VowError.ofStage(.type, "--proxy: not a proxy URL: \(redactURL(flag))") }
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
        guard let p = ProxyChoice(url: value) else { throw VowError.ofStage(.type, "\(name) is not a proxy URL: \(redactURL(value))") }
        return p
    }

    /// Whether `no_proxy` sends a request to `host` (and `port`) direct, by curl's rules: `*`
    /// alone is every host; a name matches itself and its subdomains (a leading dot or not); an
    /// IP address matches itself only, never as a suffix (`.0.0.1` is not 127.0.0.1); a CIDR
    /// range (`127.0.0.0/8`, `fd00::/8`) matches the addresses in it; IPv6 addresses are written
    /// bare (`::1`) or in brackets. An entry may end with `:PORT` (`[::1]:8080` for IPv6),
    /// matching that port only.
    static func bypasses(host rawHost: String, port: Int?, noProxy: String) -> Bool {
        let host = rawHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        let hostAddress = Self.address(host)
        for raw in noProxy.split(separator: ",") {
            var entry = raw.trimmingCharacters(in: .whitespaces).lowercased()
            if entry == "*" { return true }
            if entry.isEmpty { continue }
            var entryPort: Int? = nil
            if entry.hasPrefix("["), let close = entry.firstIndex(of: "]") {
                let after = entry[entry.index(after: close)...]
                if after.hasPrefix(":") { entryPort = Int(after.dropFirst()) }
                entry = String(entry[entry.index(after: entry.startIndex)..<close])
            } else if entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":"), let p = Int(entry[entry.index(after: colon)...]) {
                entryPort = p
                entry = String(entry[..<colon])
            }
            if let entryPort, let port, entryPort != port { continue }
            if let slash = entry.firstIndex(of: "/") {
                guard let hostAddress, let network = Self.address(String(entry[..<slash])), network.count == hostAddress.count,
                    let bits = Int(entry[entry.index(after: slash)...]), bits >= 0, bits <= network.count * 8
                else { continue }
                if Self.samePrefix(hostAddress, network, bits: bits) { return true }
                continue
            }
            if let entryAddress = Self.address(entry) {
                if entryAddress == hostAddress { return true }
                continue
            }
            // A name never matches an address by its suffix.
            if hostAddress != nil { continue }
            if entry.hasPrefix(".") { entry.removeFirst() }
            if host == entry || host.hasSuffix("." + entry) { return true }
        }
        return false
    }

    /// The bytes of an IPv4 or IPv6 address written as text, or nil for a name.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// Whether the first `bits` bits of `a` and `b` agree.
    static func samePrefix(_ a: [UInt8], _ b: [UInt8], bits: Int) -> Bool {
        for k in 0..<(bits + 7) / 8 {
            let mask: UInt8 = k < bits / 8 ? 0xFF : UInt8(truncatingIfNeeded: 0xFF << (8 - bits % 8))
            if a[k] & mask != b[k] & mask { return false }
        }
        return true
    }
}
