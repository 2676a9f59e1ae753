import Foundation
import VowValue

/// A private HTTP cache on disk, after RFC 9111: the responses to GET requests that say they may
/// be kept (`max-age`, `Expires`) or that can be revalidated (`ETag`, `Last-Modified`), one file
/// an entry, written whole under a temporary name and renamed, so that two processes using the
/// cache at once never read a torn entry.
///
/// What it implements, rule by rule (docs/http-cache.md lists them with their sections):
/// - only GET, and only the statuses a cache may keep by default (200, 203, 204, 300, 301, 308,
///   404, 405, 410, 414, 501), with explicit freshness or a validator; `no-store` in the request
///   or the response keeps nothing; `Vary: *` keeps nothing;
/// - freshness: `max-age`, else `Expires` − `Date`; no heuristic freshness; the age is RFC 9111's
///   (§4.2.3: the `Age` header, the apparent age, the time in the cache);
/// - a fresh entry is served without a request, unless the response said `no-cache` or the
///   request says `no-cache` or `max-age=0`; a stale one with a validator is revalidated with
///   `If-None-Match` / `If-Modified-Since`, and a 304 refreshes its headers and serves its body;
/// - `Vary`: an entry answers only a request with the same values of the headers it names;
/// - `Authorization`: an entry is kept per credential (the key holds a digest of it), so a
///   response is never served to a request with another credential or none;
/// - the directory is capped (`maxBytes`): the least recently stored entries go first.
///
/// Sendable: its fields are `let`s, `usage` behind its lock; the files are its state.
public final class HTTPCache: Sendable {
    /// Where the entries are.
    public let directory: String
    /// The most bytes the entries may take; the oldest go first past it.
    public let maxBytes: Int
    /// What the entries take, as far as this process knows: found by the first look at the
    /// directory (`trim`), then counted up by each entry stored. Nil until that first look. The
    /// directory is looked at again only when the count passes `maxBytes`, not at every store
    /// (a look stats every entry: at every store, a fan-out over N new URLs took time in N²).
    /// Another process's entries are seen at the next look: the cap can be passed by what others
    /// store meanwhile.
    private let usage = Locked<Int?>(nil)

    /// A cache in `directory`, at most `maxBytes` big.
    public init(directory: String, maxBytes: Int = 256 << 20) {
        self.directory = directory
        self.maxBytes = maxBytes
    }

    /// `$XDG_CACHE_HOME/vow/http`, else `~/.cache/vow/http`; nil when `VOW_HTTP_CACHE=off`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> HTTPCache? {
        if let setting = environment["VOW_HTTP_CACHE"]?.lowercased(), ["off", "0", "no", "false"].contains(setting) { return nil }
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        }
        return HTTPCache(directory: base + "/vow/http")
    }

    /// What the cache holds for a request.
    public enum Lookup: Sendable {
        /// Nothing usable: send the request.
        case miss
        /// A fresh response: serve it, send nothing.
        case fresh(HTTPResponse, age: Double, lifetime: Double)
        /// A stale (or must-revalidate) response with validators: send the request with these
        /// conditional headers; a 304 serves `entry`.
        case stale(Entry, conditions: [(name: String, value: String)])
    }

    /// A stored response and what it was stored for.
    public struct Entry: Sendable {
        let key: String
        let url: String
        let vary: [String: String]
        let status: Int
        let statusText: String
        let version: String
        let headers: [(name: String, value: String)]
        let body: [UInt8]
        let requestTime: Double
        let responseTime: Double
    }

    // MARK: The rules

    /// Whether the cache takes part at all for `spec`: a GET whose request does not say
    /// `no-store`.
    public static func applies(to spec: HTTPRequestSpec) -> Bool {
        spec.method == "GET" && !directives(header("Cache-Control", in: spec.headers)).keys.contains("no-store")
    }

    /// The entry for `spec`, fresh or stale, or a miss.
    public func lookup(_ spec: HTTPRequestSpec, now: Double = Date().timeIntervalSince1970) -> Lookup {
        let key = Self.key(spec)
        guard let entry = read(key), entry.key == key else { return .miss }
        // Vary: the request must carry the same values of the headers the response named.
        for (name, value) in entry.vary where (Self.header(name, in: spec.headers) ?? "") != value { return .miss }
        let response = Self.directives(Self.header("Cache-Control", in: entry.headers))
        let request = Self.directives(Self.header("Cache-Control", in: spec.headers))
        let age = Self.currentAge(entry, now: now)
        let lifetime = Self.freshnessLifetime(entry)
        let mustAsk = response.keys.contains("no-cache") || request.keys.contains("no-cache") || request["max-age"] == "0"
        if !mustAsk, lifetime > age {
            return .fresh(entry.response(cache: "hit"), age: age, lifetime: lifetime)
        }
        var conditions: [(name: String, value: String)] = []
        if let etag = Self.header("ETag", in: entry.headers), Self.header("If-None-Match", in: spec.headers) == nil {
            conditions.append(("If-None-Match", etag))
        }
        if let modified = Self.header("Last-Modified", in: entry.headers), Self.header("If-Modified-Since", in: spec.headers) == nil {
            conditions.append(("If-Modified-Since", modified))
        }
        return conditions.isEmpty ? .miss : .stale(entry, conditions: conditions)
    }

    /// Keeps `response` to `spec` when the rules allow it; returns whether it was kept.
    @discardableResult
    public func store(_ spec: HTTPRequestSpec, _ response: HTTPResponse, requestTime: Double, responseTime: Double) -> Bool {
        guard Self.applies(to: spec), Self.storable.contains(response.status) else { return false }
        let directives = Self.directives(response.header("Cache-Control"))
        if directives.keys.contains("no-store") { return false }
        let varyNames = (response.header("Vary") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        if varyNames.contains("*") { return false }
        var vary: [String: String] = [:]
        for name in varyNames { vary[name] = Self.header(name, in: spec.headers) ?? "" }
        let entry = Entry(
            key: Self.key(spec), url: spec.url, vary: vary, status: response.status, statusText: response.statusText,
            version: response.version, headers: response.headers, body: response.body, requestTime: requestTime, responseTime: responseTime)
        let explicit = Self.freshnessLifetime(entry) > 0
        let validated = response.header("ETag") != nil || response.header("Last-Modified") != nil
        guard explicit || validated, response.body.count <= maxBytes / 8 else { return false }
        return write(entry)
    }

    /// After an unsafe request (`POST`, `PUT`, `PATCH`, `DELETE`…) that did not fail, the stored
    /// responses its target stands for are no longer to be trusted (RFC 9111 §4.4): the
    /// entries of the request's URL, and of the response's `Location` and `Content-Location`
    /// when they are on the same origin, for the request's credential and for none, are
    /// removed. Nothing happens after a safe method or an error status.
    public func invalidate(after spec: HTTPRequestSpec, _ response: HTTPResponse) {
        guard !["GET", "HEAD", "OPTIONS", "TRACE"].contains(spec.method.uppercased()), response.status < 400 else { return }
        var urls = [spec.url]
        let origin = URL(string: spec.url).map { "\($0.scheme ?? "")://\($0.host ?? ""):\($0.port ?? -1)" }
        for name in ["Location", "Content-Location"] {
            guard let v = response.header(name), let u = URL(string: v, relativeTo: URL(string: spec.url))?.absoluteURL else { continue }
            if "\(u.scheme ?? "")://\(u.host ?? ""):\(u.port ?? -1)" == origin { urls.append(u.absoluteString) }
        }
        for url in urls {
            var get = HTTPRequestSpec(method: "GET", url: url)
            get.headers = spec.headers.filter { $0.name.equalsIgnoringASCIICase("Authorization") }
            unlink(path(Self.key(get)))
            get.headers = []
            unlink(path(Self.key(get)))
        }
    }

    /// The response a 304 to a revalidation makes of `entry`: its body, its headers updated by
    /// the 304's (RFC 9111 §4.3.4), stored again with the new times.
    public func refresh(_ entry: Entry, with notModified: HTTPResponse, requestTime: Double, responseTime: Double) -> HTTPResponse {
        let skipped: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-range"]
        let updates = notModified.headers.filter { !skipped.contains($0.name.lowercased()) }
        let updatedNames = Set(updates.map { $0.name.lowercased() })
        let headers = entry.headers.filter { !updatedNames.contains($0.name.lowercased()) } + updates
        let refreshed = Entry(
            key: entry.key, url: entry.url, vary: entry.vary, status: entry.status, statusText: entry.statusText,
            version: entry.version, headers: headers, body: entry.body, requestTime: requestTime, responseTime: responseTime)
        if Self.revalidatesAlike(entry, refreshed) {
            // Stored again, it would be asked about in the same way next time: only its times
            // change, which matter to an entry with no freshness only as the order in which the
            // cap removes entries (the file's time, touched instead).
            utimes(path(entry.key), nil)
        } else {
            _ = write(refreshed)
        }
        return refreshed.response(cache: "revalidated", elapsed: notModified.elapsed)
    }

    /// True when `refreshed`, `entry` refreshed by a 304, makes every later lookup what `entry`
    /// makes it: neither is ever fresh (no `max-age`, no `Expires`, so their times and `Date`
    /// headers never count), and their headers are the same but for `Date` (the same validators
    /// to ask with, the same directives).
    static func revalidatesAlike(_ entry: Entry, _ refreshed: Entry) -> Bool {
        guard freshnessLifetime(entry) == 0, freshnessLifetime(refreshed) == 0 else { return false }
        // By name, and in their order among those of the same name (the sort is stable), which
        // is what a lookup reads (`header` takes the first): a 304's headers go after the rest.
        func kept(_ headers: [(name: String, value: String)]) -> [String] {
            headers.filter { !$0.name.equalsIgnoringASCIICase("Date") }.map { (name: $0.name.lowercased(), value: $0.value) }
                .sorted { $0.name < $1.name }.map { $0.name + ":" + $0.value }
        }
        return kept(entry.headers) == kept(refreshed.headers)
    }

    /// The statuses a cache may keep without being told (RFC 9110 §15.1, "heuristically
    /// cacheable"); vow keeps them only with explicit freshness or a validator.
    static let storable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The directives of a Cache-Control value: lower-case names, values without quotes.
    static func directives(_ value: String?) -> [String: String] {
        var out: [String: String] = [:]
        for part in (value ?? "").split(separator: ",") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = kv.first?.lowercased(), !name.isEmpty else { continue }
            out[name] = kv.count > 1 ? kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
        }
        return out
    }

    /// RFC 9111 §4.2.1: `max-age`, else `Expires` − `Date`; 0 when neither says.
    static func freshnessLifetime(_ entry: Entry) -> Double {
        let d = directives(header("Cache-Control", in: entry.headers))
        if let maxAge = d["max-age"].flatMap(Double.init) { return max(0, maxAge) }
        guard let expiresText = header("Expires", in: entry.headers) else { return 0 }
        // An Expires that is not a date (`0`) is in the past.
        guard let expires = httpDate(expiresText) else { return 0 }
        let date = header("Date", in: entry.headers).flatMap(httpDate) ?? entry.responseTime
        return max(0, expires - date)
    }

    /// RFC 9111 §4.2.3: the age of the response now.
    static func currentAge(_ entry: Entry, now: Double) -> Double {
        let date = header("Date", in: entry.headers).flatMap(httpDate) ?? entry.responseTime
        let apparent = max(0, entry.responseTime - date)
        let ageValue = header("Age", in: entry.headers).flatMap(Double.init) ?? 0
        let corrected = ageValue + (entry.responseTime - entry.requestTime)
        return max(apparent, corrected) + max(0, now - entry.responseTime)
    }

    /// An HTTP date (IMF-fixdate, and the two obsolete forms) as seconds since 1970.
    static func httpDate(_ text: String) -> Double? { HTTPDate.parse(text) }

    /// The first header `name` of `headers`, compared without case (`HTTPResponse.header`).
    static func header(_ name: String, in headers: [(name: String, value: String)]) -> String? {
        HTTPResponse.header(name, in: headers)
    }

    /// What an entry is kept under: the URL, and a digest of the credential sent with it.
    static func key(_ spec: HTTPRequestSpec) -> String {
        let credential = header("Authorization", in: spec.headers).map { "auth:" + String(fnv1a($0), radix: 16) } ?? "anonymous"
        return "GET \(spec.url) \(credential)"
    }

    /// FNV-1a, 64 bits: names files; an entry holds its whole key, which a lookup compares.
    static func fnv1a(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }

    // MARK: Files

    private func path(_ key: String) -> String {
        directory + "/" + Self.fileName(key)
    }

    /// The name of the file of the entry kept under `key`.
    static func fileName(_ key: String) -> String {
        String(fnv1a(key), radix: 16) + ".entry"
    }

    private func read(_ key: String) -> Entry? {
        guard let data = FileManager.default.contents(atPath: path(key)),
            case .record(let r)? = try? JSON.parse(Array(data))
        else { return nil }
        guard let k = r["key"]?.stringValue, let url = r["url"]?.stringValue, let status = r["status"]?.intValue,
            case .list(let hs)? = r["headers"], let body64 = r["body"]?.stringValue, let body = Data(base64Encoded: body64),
            let requestTime = r["requestTime"]?.doubleValue, let responseTime = r["responseTime"]?.doubleValue
        else { return nil }
        var vary: [String: String] = [:]
        if case .record(let v)? = r["vary"] { for key in v.keys { vary[key] = v[key]?.stringValue ?? "" } }
        let headers: [(name: String, value: String)] = hs.compactMap { h in
            guard case .list(let pair) = h, pair.count == 2, let n = pair[0].stringValue, let v = pair[1].stringValue else { return nil }
            return (n, v)
        }
        return Entry(
            key: k, url: url, vary: vary, status: status, statusText: r["statusText"]?.stringValue ?? "",
            version: r["version"]?.stringValue ?? "HTTP/1.1", headers: headers, body: Array(body),
            requestTime: requestTime, responseTime: responseTime)
    }

    private func write(_ entry: Entry) -> Bool {
        var vary = Record()
        for (k, v) in entry.vary { vary[k] = .string(v) }
        let record: Value = [
            "key": .string(entry.key), "url": .string(entry.url), "vary": .record(vary), "status": .int(entry.status),
            "statusText": .string(entry.statusText), "version": .string(entry.version),
            "headers": .list(entry.headers.map { .list([.string($0.name), .string($0.value)]) }),
            "body": .string(Data(entry.body).base64EncodedString()),
            "requestTime": .double(entry.requestTime), "responseTime": .double(entry.responseTime),
        ]
        do {
            // Written whole under another name, then renamed: a reader sees the old entry or the
            // new one, never part of one. Not synced to the disk (Foundation's atomic write
            // syncs every file: three quarters of a fan-out's time went there): a cache may
            // lose an entry to a crash, and an entry that does not read is a miss.
            let data = Array(JSONWriter.compact(record).utf8)
            // A new entry is linked under its name once written (one entry of the directory
            // made, not three); one that replaces another, or a file system without unnamed
            // files, takes the temporary file and the rename.
            if UnnamedFile.create(Self.fileName(entry.key), in: directory, bytes: data, permissions: 0o600) {
                counted(data.count)
                return true
            }
            let file: FileWriter
            do throws(VowError) {
                file = try FileWriter(path(entry.key), permissions: 0o600)
            } catch {
                // The directory is made when an entry cannot be written without it: a look at
                // it before every entry was a tenth of a fan-out's stores.
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                file = try FileWriter(path(entry.key), permissions: 0o600)
            }
            do throws(VowError) {
                try file.write(data)
                try file.commit()
            } catch {
                file.abandon()
                throw error
            }
            counted(data.count)
        } catch {
            return false
        }
        return true
    }

    /// Counts `bytes` more stored, and trims the directory when the count passes the cap (or
    /// when nothing has been counted yet: the first look sets the count).
    private func counted(_ bytes: Int) {
        let looks = usage.withLock { known -> Bool in
            guard let before = known else { return true }
            known = before + bytes
            return before + bytes > maxBytes
        }
        if looks { trim() }
    }

    /// Past `maxBytes`, removes the entries stored longest ago until the directory is within
    /// nine tenths of it, and keeps what they take then (`usage`).
    private func trim() {
        let total = trimmed()
        usage.withLock { $0 = total }
    }

    /// `trim`'s work: the bytes the entries take after it.
    private func trimmed() -> Int {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return 0 }
        var files: [(path: String, size: Int, date: Date)] = []
        for n in names where n.hasSuffix(".entry") {
            let p = directory + "/" + n
            guard let a = try? fm.attributesOfItem(atPath: p) else { continue }
            files.append((p, (a[.size] as? Int) ?? 0, (a[.modificationDate] as? Date) ?? .distantPast))
        }
        var total = files.reduce(0) { $0 + $1.size }
        guard total > maxBytes else { return total }
        // Down to nine tenths of the cap, so that the next look comes a tenth of the cap later
        // and not at the next store (a full cache would be looked at for every entry).
        let goal = maxBytes / 10 * 9
        for f in files.sorted(by: { $0.date < $1.date }) where total > goal {
            try? fm.removeItem(atPath: f.path)
            total -= f.size
        }
        return total
    }
}

extension HTTPCache.Entry {
    /// The stored response as a response value, saying how it came (`cache`).
    func response(cache: String, elapsed: Double = 0) -> HTTPResponse {
        HTTPResponse(
            status: status, statusText: statusText, url: url, method: "GET", headers: headers, elapsed: elapsed, body: body,
            version: version, cache: cache)
    }
}
