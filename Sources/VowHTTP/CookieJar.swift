import Foundation

/// A cookie a server set (RFC 6265, section 5.3).
public struct StoredCookie: Codable, Sendable, Equatable {
    /// The cookie's name.
    public var name: String
    /// Its value.
    public var value: String
    /// The domain it is sent to (lower-case, no leading dot).
    public var domain: String
    /// Sent to `domain` only, not to its subdomains (no Domain attribute was given).
    public var hostOnly: Bool
    /// The path it is sent under.
    public var path: String
    /// When it expires (seconds since 1970), or nil for a cookie that lasts as long as its jar.
    public var expires: Double?
    /// Sent over HTTPS only.
    public var secure: Bool
    /// Not readable by scripts (kept for display; vow has no scripts in pages).
    public var httpOnly: Bool
    /// When it was first set (seconds since 1970): older cookies are sent first.
    public var created: Double
}

/// The cookies of one session: what responses set, sent back on later requests by RFC 6265's
/// rules (domain and path matching, expiry, Secure). Thread-safe.
public final class CookieJar: Sendable {
    private let cookies: Locked<[StoredCookie]>

    /// The most cookies kept for one domain (RFC 6265 §6.1's floor): past it, the oldest go.
    public static let perDomain = 50
    /// The most cookies kept in all (RFC 6265 §6.1's floor).
    public static let total = 3000
    /// The longest cookie kept, name and value (RFC 6265 §6.1's floor); a longer one is ignored.
    public static let longestCookie = 4096
    /// The longest `Cookie` header sent, as curl's: the cookies that would make it longer are
    /// left out (the most specific and oldest go first, by RFC 6265's order).
    public static let longestHeader = 8190

    /// A jar holding `cookies` (expired ones are dropped).
    public init(_ cookies: [StoredCookie] = []) {
        let now = Date().timeIntervalSince1970
        self.cookies = Locked(cookies.filter { ($0.expires ?? .infinity) > now })
    }

    /// Every cookie that has not expired, in the order they were set.
    public var all: [StoredCookie] {
        let now = Date().timeIntervalSince1970
        return cookies.withLock { $0.filter { ($0.expires ?? .infinity) > now } }
    }

    /// Holds `cookies` from now on instead of what it held (a session merged with its file).
    public func replaceAll(with cookies: [StoredCookie]) {
        let now = Date().timeIntervalSince1970
        self.cookies.withLock { $0 = cookies.filter { ($0.expires ?? .infinity) > now } }
    }

    /// Stores the cookies of the `Set-Cookie` header values of a response to `url`.
    public func store(_ setCookies: [String], from url: String, now: Double = Date().timeIntervalSince1970) {
        guard let u = URLComponents(string: url), let host = u.host?.lowercased(), !setCookies.isEmpty else { return }
        let parsed = setCookies.compactMap { Self.parse($0, host: host, requestPath: u.path, now: now) }
            .filter { $0.name.utf8.count + $0.value.utf8.count <= Self.longestCookie }
        cookies.withLock { jar in
            for c in parsed {
                if let i = jar.firstIndex(where: { $0.name == c.name && $0.domain == c.domain && $0.path == c.path }) {
                    var replaced = c
                    replaced.created = jar[i].created
                    jar.remove(at: i)
                    if (c.expires ?? .infinity) > now { jar.append(replaced) }
                } else if (c.expires ?? .infinity) > now {
                    jar.append(c)
                }
                // A server that sets cookies without end (1,000 of them) does not grow the jar
                // without end: the oldest of the domain go first, then the oldest of all.
                if jar.count(where: { $0.domain == c.domain }) > Self.perDomain, let oldest = jar.firstIndex(where: { $0.domain == c.domain }) {
                    jar.remove(at: oldest)
                }
                if jar.count > Self.total { jar.removeFirst(jar.count - Self.total) }
            }
        }
    }

    /// The `Cookie` header value for a request to `url`, or nil when no cookie applies.
    public func header(for url: String, now: Double = Date().timeIntervalSince1970) -> String? {
        guard let u = URLComponents(string: url), let host = u.host?.lowercased() else { return nil }
        let secure = u.scheme?.lowercased() == "https"
        let path = u.path.isEmpty ? "/" : u.path
        let matching = cookies.withLock { jar in
            jar.filter { c in
                (c.expires ?? .infinity) > now && (!c.secure || secure)
                    && (c.hostOnly ? host == c.domain : Self.domainMatches(host, c.domain))
                    && Self.pathMatches(path, c.path)
            }
        }
        guard !matching.isEmpty else { return nil }
        let ordered = matching.enumerated().sorted { a, b in
            a.element.path.count != b.element.path.count ? a.element.path.count > b.element.path.count
                : a.element.created != b.element.created ? a.element.created < b.element.created : a.offset < b.offset
        }
        var header = ""
        for c in ordered {
            let pair = "\(c.element.name)=\(c.element.value)"
            let added = (header.isEmpty ? 0 : 2) + pair.utf8.count
            if header.utf8.count + added > Self.longestHeader { continue }
            header += (header.isEmpty ? "" : "; ") + pair
        }
        return header.isEmpty ? nil : header
    }

    /// Parses one Set-Cookie value received from `host` for `requestPath`; nil when it must be
    /// ignored (no name-value pair, or a Domain that does not cover the host).
    static func parse(_ header: String, host: String, requestPath: String, now: Double) -> StoredCookie? {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        guard let first = parts.first, let eq = first.firstIndex(of: "=") else { return nil }
        let name = first[..<eq].trimmingCharacters(in: .whitespaces)
        let value = first[first.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        var cookie = StoredCookie(
            name: name, value: value, domain: host, hostOnly: true, path: defaultPath(requestPath),
            expires: nil, secure: false, httpOnly: false, created: now)
        var maxAge: Double?
        var expires: Double?
        for attribute in parts.dropFirst() {
            let kv = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let key = kv[0].lowercased(), v = kv.count > 1 ? kv[1] : ""
            switch key {
            case "expires": if let d = parseDate(v) { expires = d }
            case "max-age":
                if let n = Int(v) { maxAge = n <= 0 ? -.infinity : now + Double(n) }
            case "domain":
                var d = v.lowercased()
                if d.hasPrefix(".") { d.removeFirst() }
                guard !d.isEmpty else { continue }
                // The host must be the domain or inside it; a cookie for another domain is dropped.
                guard domainMatches(host, d) else { return nil }
                // A bare top-level name (`com`) is refused unless it is the host itself.
                if !d.contains("."), d != host { return nil }
                cookie.domain = d
                cookie.hostOnly = false
            case "path":
                cookie.path = v.hasPrefix("/") ? v : defaultPath(requestPath)
            case "secure": cookie.secure = true
            case "httponly": cookie.httpOnly = true
            default: break
            }
        }
        // Max-Age wins over Expires (section 5.3, step 3).
        cookie.expires = maxAge ?? expires
        return cookie
    }

    /// `host` domain-matches `domain` (section 5.1.3): equal, or a subdomain of it (not an IP).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        let isIP = host.allSatisfy { $0.isNumber || $0 == "." } || host.contains(":")
        return !isIP && host.hasSuffix("." + domain)
    }

    /// `requestPath` path-matches `cookiePath` (section 5.1.4).
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// The default path of a request path (section 5.1.4): up to, not including, its last `/`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// An HTTP date in any of the forms servers send (RFC 1123, RFC 850, asctime, and the
    /// dash-separated form many cookies use).
    static func parseDate(_ s: String) -> Double? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy", "EEE, dd-MMM-yy HH:mm:ss zzz"] {
            f.dateFormat = format
            if let d = f.date(from: s) { return d.timeIntervalSince1970 }
        }
        return nil
    }
}
