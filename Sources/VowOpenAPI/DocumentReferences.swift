import VowValue

/// The references of a description to itself (`$ref: "#/components/schemas/Note"`, JSON Pointers
/// into the document), followed: what the tree readers (`OpenAPI3Tree`, `Swagger2`) share.
struct DocumentReferences {
    /// The whole document.
    let root: Value
    /// How deep `inlined` goes: a schema that holds itself is cut there, as anything-goes.
    let depth: Int

    /// What `ref` points at in the document (`#/a/b`, `~1` and `~0` read as JSON Pointer has
    /// them), or nil.
    func resolve(_ ref: String) -> Value? {
        guard ref.hasPrefix("#/") else { return nil }
        var v = root
        for part in ref.dropFirst(2).split(separator: "/") {
            let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard case .record(let r) = v, let next = r[key] else { return nil }
            v = next
        }
        return v
    }

    /// `v` with every `$ref` in it followed, to `depth`.
    func inlined(_ v: Value, at level: Int = 0) -> Value {
        guard level < depth else { return .record(Record()) }
        switch v {
        case .record(let r):
            if let ref = r["$ref"]?.stringValue {
                return inlined(resolve(ref) ?? .record(Record()), at: level + 1)
            }
            var out = Record()
            for (i, k) in r.keys.enumerated() { out[k] = inlined(r.values[i], at: level + 1) }
            return .record(out)
        case .list(let l): return .list(l.map { inlined($0, at: level + 1) })
        default: return v
        }
    }

    /// The record `v` is, or points at (through up to eight references), or nil.
    func followed(_ v: Value?) -> Record? {
        guard var v else { return nil }
        for _ in 0..<8 {
            guard case .record(let r) = v, let ref = r["$ref"]?.stringValue, let next = resolve(ref) else { break }
            v = next
        }
        if case .record(let r) = v { return r }
        return nil
    }
}
