import Foundation
import VowValue

/// A named HTTP session (`--session NAME`): a cookie jar and the headers to send (those given with
/// `--header`, `--auth`, `--bearer` alongside `--session`), kept in a file across vow runs:
/// `$XDG_CONFIG_HOME/vow/sessions/NAME.json` (default `~/.config/vow/sessions/`), mode 0600 in a
/// directory of mode 0700. A header belongs to the origin (scheme, host, port) it was given for
/// and goes to that origin only; cookies keep their own RFC 6265 scoping.
///
/// Several vow processes may use one session at once: saving merges what this run changed (the
/// headers and cookies it added, changed or removed since it read the file) into what the file
/// holds now, under a lock (`flock` on `NAME.json.lock`), so that no run's update and no hand
/// edit is lost, and the file is replaced whole (a temporary file renamed over it).
public final class HTTPSession: Sendable {
    /// The session's name as given.
    public let name: String
    /// Where it is kept.
    public let path: String
    /// Its cookies.
    public let jar: CookieJar
    private let storedHeaders: Locked<[StoredHeader]>
    /// What the file held when this run last read or wrote it: what this run changed is told
    /// apart from what others did by it.
    private let baseline: Locked<File>

    /// A header kept in a session, and the origin it was given for (nil in files written before
    /// headers were bound to an origin: such a header is kept, shown, and sent nowhere).
    struct StoredHeader: Codable, Equatable {
        var name: String
        var value: String
        var origin: String?
    }

    /// What a session file holds.
    struct File: Codable {
        var vow = 1
        var headers: [StoredHeader] = []
        var cookies: [StoredCookie] = []
    }

    init(name: String, path: String, file: File) {
        self.name = name
        self.path = path
        self.jar = CookieJar(file.cookies)
        self.storedHeaders = Locked(file.headers)
        self.baseline = Locked(file)
    }

    /// True when the session keeps any header, for any origin.
    public var hasHeaders: Bool { storedHeaders.withLock { !$0.isEmpty } }

    /// The headers a request to `origin` (as `origin(of:)` writes it) is sent; with
    /// `allOrigins`, those of every origin (the last given of each name wins).
    public func headers(for origin: String, allOrigins: Bool = false) -> [(name: String, value: String)] {
        storedHeaders.withLock { stored in
            var out: [(name: String, value: String)] = []
            for h in stored where h.origin == origin || (allOrigins && h.origin != nil) {
                out.removeAll { $0.name.equalsIgnoringASCIICase(h.name) }
                out.append((h.name, h.value))
            }
            return out
        }
    }

    /// Keeps `given` for `origin` from now on, replacing its stored headers of the same names.
    public func remember(_ given: [(name: String, value: String)], for origin: String) {
        guard !given.isEmpty else { return }
        storedHeaders.withLock { stored in
            for h in given {
                stored.removeAll { $0.origin == origin && $0.name.equalsIgnoringASCIICase(h.name) }
            }
            stored += given.map { StoredHeader(name: $0.name, value: $0.value, origin: origin) }
        }
    }

    /// The origin of `url` as sessions key their headers: `scheme://host:port`, scheme and host in
    /// lower case, the port always written (80 and 443 by default); nil for a URL without a host.
    public static func origin(of url: String) -> String? {
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), let host = u.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        let port = u.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(bracketed(host)):\(port)"
    }

    /// Writes the session to its file, merged with what the file holds now (another run may
    /// have saved since this one read it, or a person edited it): this run's additions, changes
    /// and removals go over the file's, the rest of the file stays. Under the session's lock,
    /// through `FileWriter` (a temporary file of mode 0600, renamed over the old one). This run then holds the merged
    /// session (the other runs' cookies included).
    public func save() throws {
        let dir = (path as NSString).deletingLastPathComponent
        try HTTPSessions.makeDirectory(dir)
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw Self.failure("cannot write the session file \(path)", errno) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        var disk = File()
        if let data = FileManager.default.contents(atPath: path), let read = try? JSONDecoder().decode(File.self, from: data) { disk = read }
        let mine = File(headers: storedHeaders.withLock { $0 }, cookies: jar.all)
        let merged = Self.merge(baseline.withLock { $0 }, mine, into: disk)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(merged)
        do throws(VowError) {
            let file = try FileWriter(path, permissions: 0o600)
            do throws(VowError) {
                try file.write(Array(data))
                try file.commit()
            } catch {
                file.abandon()
                throw error
            }
        } catch {
            let code = error.details["errno"]?.intValue.map(Int32.init) ?? EIO
            throw Self.failure("cannot write the session file \(path) (the old one is kept)", code)
        }
        baseline.withLock { $0 = merged }
        storedHeaders.withLock { $0 = merged.headers }
        jar.replaceAll(with: merged.cookies)
    }

    /// An `io` error: `message: no space left on device`.
    static func failure(_ message: String, _ code: Int32) -> VowError {
        VowError(.io, "\(message): \(String(cString: strerror(code)).lowercased())")
    }

    /// `disk` with what changed from `base` to `mine` applied: entries added or changed in
    /// `mine` set, entries of `base` gone from `mine` removed, every other entry of `disk` kept.
    static func merge(_ base: File, _ mine: File, into disk: File) -> File {
        var out = disk
        out.headers = apply(base.headers, mine.headers, to: disk.headers) { "\($0.origin ?? "")\u{0}\($0.name.lowercased())" }
        out.cookies = apply(base.cookies, mine.cookies, to: disk.cookies) { "\($0.name)\u{0}\($0.domain)\u{0}\($0.path)" }
        return out
    }

    /// The entries of `disk`, with those that `mine` added or changed since `base` set and those
    /// it removed taken away; entries are told apart by `key`.
    private static func apply<T: Equatable>(_ base: [T], _ mine: [T], to disk: [T], key: (T) -> String) -> [T] {
        let before = Dictionary(base.map { (key($0), $0) }, uniquingKeysWith: { _, last in last })
        let now = Dictionary(mine.map { (key($0), $0) }, uniquingKeysWith: { _, last in last })
        var out = disk
        for entry in mine where before[key(entry)] != entry {
            let k = key(entry)
            out.removeAll { key($0) == k }
            out.append(entry)
        }
        for (k, _) in before where now[k] == nil {
            out.removeAll { key($0) == k }
        }
        return out
    }

    /// What `:session` shows: headers and cookies, every secret masked.
    public func describe() -> Value {
        var out = Record()
        out["file"] = .string(path)
        var byOrigin = Record()
        for stored in storedHeaders.withLock({ $0 }) {
            let origin = stored.origin ?? "unknown origin (not sent; give the header again)"
            var h = byOrigin[origin]?.recordValue ?? Record()
            h[stored.name] = .string(isSecretHeader(stored.name) ? mask(stored.value) : TerminalText.visibleLine(stored.value))
            byOrigin[origin] = .record(h)
        }
        out["headers"] = .record(byOrigin)
        out["cookies"] = .list(jar.all.map { c in
            var r = Record()
            r["name"] = .string(c.name)
            r["value"] = .string(mask(c.value))
            r["domain"] = .string((c.hostOnly ? "" : ".") + c.domain)
            r["path"] = .string(c.path)
            r["expires"] = c.expires.map { .string(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0))) } ?? .string("with the session")
            if c.secure { r["secure"] = .bool(true) }
            if c.httpOnly { r["httpOnly"] = .bool(true) }
            return .record(r)
        })
        return .record(out)
    }

    private func mask(_ s: String) -> String { s.isEmpty ? "" : s.count == 1 ? "<1 character>" : "<\(s.count) characters>" }
}

/// The sessions a vow session has opened, by file: each is read once and shared by every request
/// that names it, so concurrent requests see each other's cookies.
public final class HTTPSessions: Sendable {
    private let open = Locked<[String: HTTPSession]>([:])

    /// Makes an empty registry.
    public init() {}

    /// The directory sessions are kept in.
    public static var directory: String { configDirectory("sessions") }

    /// `$XDG_CONFIG_HOME/vow/LEAF` (default `~/.config/vow/LEAF`): where vow keeps what a user
    /// declares once (sessions, APIs).
    public static func configDirectory(_ leaf: String) -> String {
        let env = ProcessInfo.processInfo.environment
        let config = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? NSHomeDirectory()) + "/.config")
        return config + "/vow/" + leaf
    }

    /// The session named `name` (a plain name, kept in `directory`, or a path to a file),
    /// read from its file when it exists.
    public func session(_ name: String) throws -> HTTPSession {
        let path: String
        if name.contains("/") {
            path = (name as NSString).expandingTildeInPath
        } else {
            guard !name.isEmpty, !name.hasPrefix("."), name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                throw VowError.ofStage(.type, "--session: '\(name)' is not a session name (letters, digits, - _ .; or a path with /)")
            }
            path = Self.directory + "/" + name + ".json"
        }
        return try open.withLock { open in
            if let s = open[path] { return s }
            var file = HTTPSession.File()
            if let data = FileManager.default.contents(atPath: path) {
                do {
                    file = try JSONDecoder().decode(HTTPSession.File.self, from: data)
                } catch {
                    throw VowError.ofStage(.io, "--session: \(path) is not a vow session file (\(error))")
                }
            }
            let s = HTTPSession(name: name, path: path, file: file)
            open[path] = s
            return s
        }
    }

    /// Creates `dir` (and its parents) with mode 0700.
    static func makeDirectory(_ dir: String) throws {
        // Made a level at a time, so that what is in the way is named in words (`not a
        // directory`: XDG_CONFIG_HOME is a file), not as Foundation's error number.
        var made = dir.hasPrefix("/") ? "" : "."
        for part in dir.split(separator: "/") {
            made += "/" + part
            var info = stat()
            if stat(made, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else { throw HTTPSession.failure("cannot create the session directory \(dir): \(made) is", ENOTDIR) }
                continue
            }
            if mkdir(made, 0o700) != 0 && errno != EEXIST { throw HTTPSession.failure("cannot create the session directory \(dir)", errno) }
        }
    }
}
