import Foundation
import VowHTTP
import VowOpenAPI
import VowValue

/// An API declared once by name (`api add kinto http://127.0.0.1:8888/v1 --bearer T`): its base
/// URL and the headers (credentials among them) every request to it carries.
public struct APIProfile: Sendable, Equatable {
    /// The name a URL's first segment gives (`kinto/buckets`).
    public let name: String
    /// The base URL, without a trailing slash.
    public let base: String
    /// The headers sent with every request to it, in order.
    public let headers: [Header]
    /// True when it was declared for this run only (`api add … --no-save`).
    public let transient: Bool
    /// What its description (`--openapi`) says of it, when it was given one.
    public var description: APIDescription? = nil

    /// One header.
    public struct Header: Sendable, Equatable {
        /// Its name.
        public let name: String
        /// Its value.
        public let value: String
    }

    /// True for a name an API may have: letters, digits, `-` and `_`, so that a host name
    /// (`example.com/x`, `localhost:8080/x`) is never taken for one.
    public static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    /// As `api show` gives it: the secrets among the header values masked.
    public var record: Value {
        let shown: [Value] = headers.map { h in
            let secret = ["authorization", "cookie", "proxy-authorization", "x-api-key"].contains(h.name.lowercased())
            return .string("\(h.name): \(secret ? String(repeating: "•", count: 8) : h.value)")
        }
        var r: Record = ["name": .string(name), "base": .string(base), "headers": .list(shown), "saved": .bool(!transient)]
        if let description {
            r["description"] = .record([
                "title": .string(description.title), "format": .string(description.format), "operations": .int(description.operations.count),
            ])
        }
        return .record(r)
    }

    /// As it is kept in its file.
    var json: Value {
        var r: Record = ["base": .string(base), "headers": .list(headers.map { .list([.string($0.name), .string($0.value)]) })]
        if let description {
            r["description"] = .record([
                "title": .string(description.title), "format": .string(description.format),
                "operations": .list(description.operations.map(\.stored)),
            ])
        }
        return .record(r)
    }
}

/// The APIs a session knows: the ones kept under `~/.config/vow/apis/` (`XDG_CONFIG_HOME`),
/// read when first asked for, and the ones a script declares for its own run.
///
/// Sendable: `state` is touched only under its lock.
public final class APIProfiles: @unchecked Sendable {
    private struct State {
        var loaded: [String: APIProfile]?
        var transient: [String: APIProfile] = [:]
    }
    private let state = Locked(State())
    private let directoryOverride: String?

    /// A store kept in `directory` (the default: the user's configuration directory).
    public init(directory: String? = nil) { self.directoryOverride = directory }

    /// Where the APIs are kept, a file each (`NAME.json`, mode 0600, in a directory of mode 0700).
    public var directory: String {
        directoryOverride ?? HTTPSessions.configDirectory("apis")
    }

    /// Every API known, by name (one declared for this run over a kept one of the same name).
    public func all() -> [String: APIProfile] {
        state.withLock { s in
            if s.loaded == nil { s.loaded = Self.read(directory) }
            return s.loaded!.merging(s.transient) { _, mine in mine }
        }
    }

    /// The API `url` names by its first segment (`kinto/buckets`, `kinto`), and the URL it
    /// stands for; nil when the first segment names no API, or the URL has a scheme.
    public func resolve(_ url: String) -> (profile: APIProfile, url: String)? {
        let name = url.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard APIProfile.isName(String(name)), let profile = all()[String(name)] else { return nil }
        return (profile, profile.base + url.dropFirst(name.count))
    }

    /// Declares `profile`: kept in its file, or for this run only when it is transient.
    public func add(_ profile: APIProfile) throws {
        if profile.transient {
            state.withLock { $0.transient[profile.name] = profile }
            return
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let writer = try FileWriter(directory + "/\(profile.name).json", permissions: 0o600)
        do {
            try writer.write(Array((JSONWriter.compact(profile.json) + "\n").utf8))
            try writer.commit()
        } catch {
            writer.abandon()
            throw error
        }
        state.withLock { s in
            if s.loaded == nil { s.loaded = Self.read(directory) }
            s.loaded![profile.name] = profile
        }
    }

    /// Forgets the API `name`; false when there was none.
    public func remove(_ name: String) throws -> Bool {
        let known = all()[name]
        guard let known else { return false }
        if known.transient {
            state.withLock { _ = $0.transient.removeValue(forKey: name) }
        } else {
            let path = directory + "/\(name).json"
            if unlink(path) != 0, errno != ENOENT { throw VowError.file("remove", path, errno) }
            state.withLock { _ = $0.loaded?.removeValue(forKey: name) }
        }
        return true
    }

    /// The APIs kept in `directory`; a file that is not one is left out.
    private static func read(_ directory: String) -> [String: APIProfile] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [:] }
        var out: [String: APIProfile] = [:]
        for file in names where file.hasSuffix(".json") {
            let name = String(file.dropLast(5))
            guard APIProfile.isName(name), let bytes = try? Files.read(directory + "/" + file), case .record(let r)? = try? JSON.parse(bytes),
                let base = r["base"]?.stringValue
            else { continue }
            var headers: [APIProfile.Header] = []
            if case .list(let pairs)? = r["headers"] {
                for case .list(let pair) in pairs where pair.count == 2 {
                    if let n = pair[0].stringValue, let v = pair[1].stringValue { headers.append(.init(name: n, value: v)) }
                }
            }
            var profile = APIProfile(name: name, base: base, headers: headers, transient: false)
            if case .record(let d)? = r["description"], case .list(let ops)? = d["operations"] {
                profile.description = APIDescription(
                    title: d["title"]?.stringValue ?? "", format: d["format"]?.stringValue ?? "", operations: ops.compactMap(APIOperation.init(stored:)))
            }
            out[name] = profile
        }
        return out
    }
}
