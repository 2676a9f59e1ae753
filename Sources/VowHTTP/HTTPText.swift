import Foundation

/// Header names whose values never appear in errors.
public let sensitiveHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

/// Words that make a header's name say it carries a secret (`X-Api-Key`, `X-Auth-Token`,
/// `X-Client-Secret`, `X-Password`, `X-Signature`, …).
let secretNameWords = ["key", "token", "secret", "password", "passwd", "auth", "session", "signature", "credential", "cookie"]

/// True when a header's value is masked wherever vow shows it (`--verbose`, `:session`, errors,
/// traces): the standard secret headers, and any whose name contains key, token, secret,
/// password, auth, session, signature or credential (but for the `*-Authenticate` challenges and
/// CORS headers).
public func isSecretHeader(_ name: String) -> Bool {
    let n = name.lowercased()
    if sensitiveHeaders.contains(n) { return true }
    // Names that hold a word of the list and no secret: a challenge, a CORS answer.
    if n == "www-authenticate" || n == "proxy-authenticate" || n.hasPrefix("access-control-") { return false }
    return secretNameWords.contains { n.contains($0) }
}

/// The request target of `url` in origin form, as it is sent: the percent-encoded path (`/` when
/// empty, a trailing slash kept) and query.
func originForm(_ url: URL) -> String {
    var target = url.path(percentEncoded: true)
    if target.isEmpty { target = "/" }
    if let query = url.query(percentEncoded: true) { target += "?" + query }
    return target
}

/// A host as it is written before `:PORT`: an IPv6 address in brackets.
func bracketed(_ host: String) -> String {
    host.contains(":") ? "[\(host)]" : host
}

/// The URL without a password (`user:pass@` becomes `user:***@`).
public func redactURL(_ s: String) -> String {
    guard let at = s.firstIndex(of: "@"), let scheme = s.range(of: "://"), scheme.upperBound < at else { return s }
    let userinfo = s[scheme.upperBound..<at]
    if userinfo.contains("/") { return s }
    if let colon = userinfo.firstIndex(of: ":") {
        return String(s[..<colon]) + ":***" + String(s[at...])
    }
    return s
}
