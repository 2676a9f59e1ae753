import Foundation
import Synchronization
import VowValue

/// The identifiers the latest responses of a collection held (`GET kinto/buckets` answering
/// `{data: [{id: shop}, …]}`: `shop` for `/buckets`), by the collection's URL, for the REPL to
/// offer as the values of a path parameter (`kinto/buckets/` and Tab: `kinto/buckets/shop`).
/// Recorded only while `recording` (the REPL sets it), from JSON bodies of up to 1 MiB.
public final class SeenIdentifiers: Sendable {
    private let byURL = Locked([String: [String]]())
    private let on = Atomic(false)

    /// Makes an empty record, not recording.
    public init() {}

    /// True while responses are looked at.
    public var recording: Bool {
        get { on.load(ordering: .relaxed) }
        set { on.store(newValue, ordering: .relaxed) }
    }

    /// Looks at a successful response to `url` (its query left out): the `id` of each record in
    /// its JSON body's list (or its `data`, `items` or `results` list), at most 100, replacing
    /// what that URL held before.
    public func record(url: String, response: HTTPResponse) {
        guard recording, response.status < 300, response.body.count <= 1 << 20,
            let first = response.body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let body = try? JSON.parse(response.body)
        else { return }
        var list: [Value] = []
        switch body {
        case .list(let l): list = l
        case .record(let r):
            for key in ["data", "items", "results"] { if case .list(let l)? = r[key] { list = l; break } }
        default: break
        }
        let ids: [String] = list.prefix(100).compactMap { v in
            guard case .record(let r) = v, let id = r["id"] else { return nil }
            return id.stringValue ?? id.intValue.map(String.init)
        }
        guard !ids.isEmpty else { return }
        let key = Self.withoutQuery(url)
        byURL.withLock { $0[key] = ids }
    }

    /// What the latest response to `url` held, in its order; empty when none was seen.
    public func identifiers(at url: String) -> [String] {
        let key = Self.withoutQuery(url)
        return byURL.withLock { $0[key] ?? [] }
    }

    static func withoutQuery(_ url: String) -> String {
        var u = String(url.prefix { $0 != "?" && $0 != "#" })
        while u.hasSuffix("/") { u.removeLast() }
        return u
    }
}
