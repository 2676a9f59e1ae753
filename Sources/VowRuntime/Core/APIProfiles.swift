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
    /// What its description (`--openapi`) says of it, when it was given one and has been read
    /// (`APIProfiles.described`: a kept API's operations are in a file of their own, read only
    /// when asked for, so that resolving `NAME/PATH` never reads them).
    public var description: APIDescription? = nil
    /// The description's title, format and number of operations, read with the API.
    public var summary: (title: String, format: String, operations: Int)? = nil

    /// Two profiles are the same API: name, base, headers and where they are kept.
    public static func == (a: APIProfile, b: APIProfile) -> Bool {
        a.name == b.name && a.base == b.base && a.headers == b.headers && a.transient == b.transient && a.description == b.description
    }

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
        if let s = summary ?? description.map({ ($0.title, $0.format, $0.operations.count) }) {
            r["description"] = .record(["title": .string(s.title), "format": .string(s.format), "operations": .int(s.operations)])
        }
        return .record(r)
    }

    /// As it is kept in its file.
    var json: Value {
        var r: Record = ["base": .string(base), "headers": .list(headers.map { .list([.string($0.name), .string($0.value)]) })]
        if let s = summary ?? description.map({ ($0.title, $0.format, $0.operations.count) }) {
            r["description"] = .record(["title": .string(s.title), "format": .string(s.format), "operations": .int(s.operations)])
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

    /// The API `name` with its description's operations read (from `NAME.operations`, once a
    /// run), or nil when there is no such API. An API with no description comes as it is.
    public func described(_ name: String) -> APIProfile? {
        guard var profile = all()[name] else { return nil }
        guard profile.description == nil, profile.summary != nil, !profile.transient else { return profile }
        let path = directory + "/\(name).operations"
        guard let bytes = try? Files.read(path), case .list(let ops)? = try? JSON.parse(bytes) else { return profile }
        let s = profile.summary!
        profile.description = APIDescription(title: s.title, format: s.format, operations: ops.compactMap(APIOperation.init(stored:)))
        let loaded = profile
        state.withLock { $0.loaded?[name] = loaded }
        return profile
    }

    /// The API and the operation `reference` names (`kinto.get_bucket`: an API's name, a dot and
    /// an operationId of its description), or nil when there is no such API or operation.
    public func operation(_ reference: String) -> (api: APIProfile, operation: APIOperation)? {
        guard let dot = reference.firstIndex(of: "."), let api = described(String(reference[..<dot])) else { return nil }
        let id = String(reference[reference.index(after: dot)...])
        guard let op = api.description?.operations.first(where: { $0.operationId == id }) else { return nil }
        return (api, op)
    }

    /// Declares `profile`: kept in its file, or for this run only when it is transient.
    public func add(_ profile: APIProfile) throws {
        if profile.transient {
            state.withLock { $0.transient[profile.name] = profile }
            return
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The operations first, in a file of their own; then the API, which names their count.
        let operations = directory + "/\(profile.name).operations"
        if let description = profile.description {
            let w = try FileWriter(operations, permissions: 0o600)
            do {
                try w.write(Array((JSONWriter.compact(.list(description.operations.map(\.stored))) + "\n").utf8))
                try w.commit()
            } catch {
                w.abandon()
                throw error
            }
        } else if unlink(operations) != 0, errno != ENOENT {
            throw VowError.file("remove", operations, errno)
        }
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
            unlink(directory + "/\(name).operations")
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
            if case .record(let d)? = r["description"], let count = d["operations"]?.intValue {
                profile.summary = (d["title"]?.stringValue ?? "", d["format"]?.stringValue ?? "", count)
            }
            out[name] = profile
        }
        return out
    }
}
