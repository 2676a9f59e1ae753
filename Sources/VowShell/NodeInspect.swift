import VowRuntime
import VowValue

/// Node's `util.inspect` of plain data (what node prints for an unhandled rejection's reason):
/// strings in single quotes (double or back quotes when the text holds single quotes), keys bare
/// when they are identifiers, and node's line breaking: an object on one line when it fits in 80
/// columns and holds fewer than three levels below it, else one entry a line, indented by two.
/// Arrays of more than six entries are not grouped into columns as node groups them.
enum NodeInspect {
    /// `v` as `util.inspect(v)` prints it.
    static func inspect(_ v: Value) -> String {
        var state = State()
        return state.format(v, depth: 0)
    }

    /// An `AggregateError` (what `Promise.any` rejects with) holding `errors`, as node prints it.
    static func inspectAggregate(_ errors: Value) -> String {
        var state = State()
        state.aggregatesAreErrors = true
        state.maxDepth = 5
        state.indentation = 2
        let list = state.format(errors, depth: 1)
        state.indentation = 0
        return state.reduce(["[errors]: " + list], open: "{", close: "}", depth: 0, base: "[AggregateError: All promises were rejected]")
    }

    private struct State {
        var indentation = 0
        var currentDepth = 0
        /// In the errors of an AggregateError, a record of kind `aggregate` stands for an
        /// AggregateError of its own (`any` over an `any`), which node shows as it shows the
        /// outer one.
        var aggregatesAreErrors = false
        /// node's `depth`: what is nested deeper shows as `[Object]`, `[Array]` or
        /// `[AggregateError]`. node's report of an unhandled rejection inspects with depth 5.
        var maxDepth = Int.max

        mutating func format(_ v: Value, depth: Int) -> String {
            switch v {
            case .null: return "null"
            case .opaque(is UndefinedValue): return "undefined"
            case .bool(let b): return b ? "true" : "false"
            case .int(let i): return String(i)
            case .double(let d): return d == 0 && d.sign == .minus ? "-0" : JSONWriter.compact(.double(d))
            case .string(let s): return string(s)
            case .list(let items):
                if items.isEmpty { return "[]" }
                if depth > maxDepth { return "[Array]" }
                currentDepth = depth
                let out = items.map { item -> String in
                    indentation += 2
                    defer { indentation -= 2 }
                    return format(item, depth: depth + 1)
                }
                return reduce(out, open: "[", close: "]", depth: depth)
            case .record(let r):
                if r.keys.isEmpty { return "{}" }
                let isAggregate = aggregatesAreErrors && r["kind"] == .string("aggregate") && { if case .list? = r["errors"] { true } else { false } }()
                if depth > maxDepth { return isAggregate ? "[AggregateError]" : "[Object]" }
                currentDepth = depth
                if isAggregate, case .list(let inner)? = r["errors"] {
                    indentation += 2
                    let list = format(.list(inner), depth: depth + 1)
                    indentation -= 2
                    currentDepth = depth
                    return reduce(["[errors]: " + list], open: "{", close: "}", depth: depth, base: "[AggregateError: All promises were rejected]")
                }
                var out: [String] = []
                for (i, k) in r.keys.enumerated() {
                    indentation += 2
                    let s = format(r.values[i], depth: depth + 1)
                    indentation -= 2
                    out.append("\(key(k)): \(s)")
                }
                return reduce(out, open: "{", close: "}", depth: depth)
            default:
                return string(JSONWriter.compact(v))
            }
        }

        /// node's `reduceToSingleString` with `compact: 3`, `breakLength: 80`.
        func reduce(_ out: [String], open: String, close: String, depth: Int, base: String = "") -> String {
            let prefix = base.isEmpty ? "" : base + " "
            if currentDepth - depth < 3 {
                let start = out.count + indentation + open.count + base.count + 10
                var total = out.count + start
                var fits = total + out.count <= 80
                if fits {
                    for o in out {
                        total += o.count
                        if total > 80 { fits = false; break }
                    }
                }
                let joined = out.joined(separator: ", ")
                if fits && !joined.contains("\n") { return "\(prefix)\(open) \(joined) \(close)" }
            }
            let pad = "\n" + String(repeating: " ", count: indentation)
            return prefix + open + pad + "  " + out.joined(separator: "," + pad + "  ") + pad + close
        }

        /// A key: bare when it is an identifier, else quoted.
        func key(_ k: String) -> String {
            let ident = k.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } ?? false
                && k.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            return ident ? k : quoted(k)
        }

        /// A string value; a long one with line breaks is split after each, as node splits it.
        func string(_ s: String) -> String {
            let length = s.utf16.count
            if length > 16, length > 80 - indentation - 4, s.contains("\n") {
                var pieces: [String] = []
                var current = ""
                for c in s {
                    current.append(c)
                    if c == "\n" { pieces.append(current); current = "" }
                }
                if !current.isEmpty { pieces.append(current) }
                return pieces.map(quoted).joined(separator: " +\n" + String(repeating: " ", count: indentation + 2))
            }
            return quoted(s)
        }
    }

    /// node's `strEscape`: single quotes unless the text holds one (then double quotes, or back
    /// quotes when it holds both), control characters escaped.
    static func quoted(_ s: String) -> String {
        var quote: Character = "'"
        if s.contains("'") {
            if !s.contains("\"") { quote = "\"" } else if !s.contains("`") && !s.contains("${") { quote = "`" }
        }
        var out = String(quote)
        for u in s.unicodeScalars {
            switch u {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\u{B}": out += "\\v"
            case "\\": out += "\\\\"
            default:
                if Character(u) == quote {
                    out += "\\" + String(u)
                } else if u.value < 0x20 || u.value == 0x7F {
                    out += "\\x" + (u.value < 16 ? "0" : "") + String(u.value, radix: 16, uppercase: true)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out.append(quote)
        return out
    }
}

extension Runner {
    /// The error record the JavaScript twin rejects with for `error`: `{kind, message, …}` with
    /// the fields a stage adds. vow's own fields (`stage`, `at`, `input`, `context`, `skipped`)
    /// are not the twin's: it notes `stage` and `at` only for a `catch` or `finally` to see.
    static func twinRecord(_ error: VowError) -> Value {
        var r = Record()
        r["kind"] = .string(error.kind.rawValue)
        r["message"] = .string(error.message)
        for (i, k) in error.details.keys.enumerated() where r[k] == nil && !vowOnlyFields.contains(k) {
            r[k] = error.details.values[i]
        }
        return .record(r)
    }

    /// The fields of vow's error records that its twin's records do not have: the origin, and
    /// where in a larger run it happened (`each`'s element, `retry`'s attempts and time).
    static let vowOnlyFields: Set<String> = ["stage", "at", "input", "context", "skipped", "element", "attempts", "elapsed", "exitStatus"]

    /// node's inspection of what the twin rejects with for `error`: an `AggregateError` for
    /// `any`'s aggregate error, the error record otherwise.
    static func twinReason(_ error: VowError) -> String {
        if error.kind == .aggregate, case .list(let inner)? = error.details["errors"] {
            // vow's own fields are not the twin's, in an inner aggregate's errors too.
            func twinOnly(_ e: Value) -> Value {
                guard case .record(let rec) = e else { return e }
                var r = Record()
                for (i, k) in rec.keys.enumerated() where !vowOnlyFields.contains(k) {
                    if k == "errors", case .list(let more) = rec.values[i] { r[k] = .list(more.map(twinOnly)) } else { r[k] = rec.values[i] }
                }
                return .record(r)
            }
            return NodeInspect.inspectAggregate(.list(inner.map(twinOnly)))
        }
        return NodeInspect.inspect(twinRecord(error))
    }

    /// What `vow --js` prints for an unhandled rejection: node's report, with the `let`
    /// statement's place (its file and line, the statement, a caret) where node names the place
    /// in its own sources that threw, and without node's version line.
    static func nodeReport(_ u: UnhandledLet) -> String {
        "\n\(u.sourceName):\(u.line)\n\(u.statement)\n^\n" + twinReason(u.error)
    }

    /// What vow's mode prints for an unhandled rejection: which `let` and where, then the error
    /// as a statement's error prints.
    func vowReport(_ u: UnhandledLet) -> String {
        "unhandled rejection: the promise of \(u.what) (\(u.sourceName):\(u.line)) rejected and nothing waited for it\n"
            + renderer.error(u.error)
    }
}
