import VowPromises
import VowValue

/// `diff A B`, `diff B`: what changed from A (or the input) to B, deeply, as a list.
struct DiffStage: ValueStage {
    static let name = "diff"
    /// In the JavaScript twin, written here (`twinFunction`).
    static let twin = StageTwin.handler("diff")
    static let twinFunction: String? = """
        (v, ...ab) => {
            const [a, b] = ab.length >= 2 ? ab : [v, ab[0]];
            const out = [];
            const isRecord = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
            const key = (k) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : JSON.stringify(k));
            const field = (path, k) => (path === "@" ? key(k) : `${path}.${key(k)}`);
            const walk = (path, x, y) => {
                if (isRecord(x) && isRecord(y)) {
                    for (const k of Object.keys(x)) {
                        if (!(k in y)) out.push({ path: field(path, k), change: "removed", from: x[k] });
                        else walk(field(path, k), x[k], y[k]);
                    }
                    for (const k of Object.keys(y)) if (!(k in x)) out.push({ path: field(path, k), change: "added", to: y[k] });
                } else if (Array.isArray(x) && Array.isArray(y)) {
                    const at = (i) => (path === "@" ? `[${i}]` : `${path}[${i}]`);
                    for (let i = 0; i < Math.min(x.length, y.length); i++) walk(at(i), x[i], y[i]);
                    for (let i = y.length; i < x.length; i++) out.push({ path: at(i), change: "removed", from: x[i] });
                    for (let i = x.length; i < y.length; i++) out.push({ path: at(i), change: "added", to: y[i] });
                } else if (JSON.stringify(x) !== JSON.stringify(y)) {
                    out.push({ path, change: "changed", from: x, to: y });
                }
            };
            walk("@", a, b);
            return out;
        }
        """
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let positionalLimit: Int? = 2
    static let synopsis = "diff [A] B"
    static let summary = "What changed from A (or the input) to B, deeply: a list of {path, change, from, to}."
    static let help = """
        Compares A with B (with one argument, the input with B) and fulfils with the list of
        changes, in the order of A's fields and elements and then B's new ones: each a record with
        `path` (a JMESPath to the place: `items[2].name`, `@` for the whole value), `change`
        (`added`, `removed` or `changed`), and `from` and `to` (the values before and after, as
        the change has them). Records are compared field by field, lists element by element (an
        element inserted in the middle shows as changes up to the end), anything else by value.
        An empty list means the two are the same. `watch` prints these changes between runs.
        """
    static let examples = [
        StageExample("diff {a: 1, b: [1, 2]} {a: 2, b: [1], c: x} | to-json", #"[{"path":"a","change":"changed","from":1,"to":2},{"path":"b[1]","change":"removed","from":2},{"path":"c","change":"added","to":"x"}]"#),
        StageExample("echo {n: 1} | diff {n: 1} | to-json", "[]"),
        StageExample("diff 1 2 | to-json", #"[{"path":"@","change":"changed","from":1,"to":2}]"#),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        guard let first = args[0] else { throw call.error(.type, "missing B (the value to compare with)") }
        let (a, b) = args.count >= 2 ? (first, args[1]!) : (Pick.target(input), first)
        return .value(.list(Self.changes(from: a, to: b).map(\.record)))
    }

    /// One change between two values.
    struct Change: Equatable {
        /// Where, as a JMESPath (`items[2].name`; `@` for the whole value).
        let path: String
        /// `added`, `removed` or `changed`.
        let change: String
        /// The value before (removed, changed).
        let from: Value?
        /// The value after (added, changed).
        let to: Value?

        /// As `diff` gives it.
        var record: Value {
            var r: Record = ["path": .string(path), "change": .string(change)]
            if let from { r["from"] = from }
            if let to { r["to"] = to }
            return .record(r)
        }

        /// As `watch` prints it: `+ path: value`, `- path: value`, `~ path: from → to`.
        var line: String {
            switch change {
            case "added": return "+ \(path): \(JSONWriter.compact(to ?? .null))"
            case "removed": return "- \(path): \(JSONWriter.compact(from ?? .null))"
            default: return "~ \(path): \(JSONWriter.compact(from ?? .null)) → \(JSONWriter.compact(to ?? .null))"
            }
        }
    }

    /// The changes from `a` to `b`, deeply.
    static func changes(from a: Value, to b: Value) -> [Change] {
        var out: [Change] = []
        walk("@", Pick.target(a), Pick.target(b), &out)
        return out
    }

    private static func walk(_ path: String, _ a: Value, _ b: Value, _ out: inout [Change]) {
        switch (a, b) {
        case (.record(let x), .record(let y)):
            for (k, v) in zip(x.keys, x.values) {
                if let w = y[k] { walk(field(path, k), v, w, &out) } else { out.append(Change(path: field(path, k), change: "removed", from: v, to: nil)) }
            }
            for (k, w) in zip(y.keys, y.values) where x[k] == nil { out.append(Change(path: field(path, k), change: "added", from: nil, to: w)) }
        case (.list(let x), .list(let y)):
            let at = { (i: Int) in path == "@" ? "[\(i)]" : "\(path)[\(i)]" }
            for i in 0..<min(x.count, y.count) { walk(at(i), x[i], y[i], &out) }
            if x.count > y.count { for i in y.count..<x.count { out.append(Change(path: at(i), change: "removed", from: x[i], to: nil)) } }
            if y.count > x.count { for i in x.count..<y.count { out.append(Change(path: at(i), change: "added", from: nil, to: y[i])) } }
        default:
            if JSONWriter.compact(a) != JSONWriter.compact(b) { out.append(Change(path: path, change: "changed", from: a, to: b)) }
        }
    }

    /// `path.k`, the key quoted when it is not a plain identifier.
    private static func field(_ path: String, _ k: String) -> String {
        let plain = k.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true && k.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let key = plain ? k : JSONWriter.compact(.string(k))
        return path == "@" ? key : "\(path).\(key)"
    }
}
