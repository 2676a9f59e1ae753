import VowValue

/// Checks a value against a JSON Schema (as a description gives a request body's): `type`
/// (`nullable` too), `required`, `properties`, `additionalProperties: false`, `items`, `enum`,
/// `minLength`/`maxLength`, `minimum`/`maximum`, `allOf`, `anyOf`, `oneOf`. What it does not know
/// (formats, patterns, conditionals) it lets pass.
public enum SchemaCheck {
    /// The first place where `value` breaks `schema`: the path in the value (`data.tags[1]`, or
    /// `the body` for the whole) and the rule broken; nil when it fits.
    public static func problem(_ value: Value, _ schema: Value, at path: String = "") -> String? {
        guard case .record(let s) = schema else { return nil }
        let place = path.isEmpty ? "the body" : path
        if let types = typeNames(s) {
            let nullable = s["nullable"] == .bool(true)
            if !(nullable && value.isNull), !types.contains(where: { fits(value, $0) }) {
                return "\(place): expected \(types.map(article).joined(separator: " or ")), got \(describe(value)) (type)"
            }
        }
        if case .list(let choices)? = s["enum"], !choices.contains(value) {
            return "\(place): \(JSONWriter.compact(value)) is not one of \(JSONWriter.compact(.list(choices))) (enum)"
        }
        if case .list(let all)? = s["allOf"] {
            for sub in all { if let p = problem(value, sub, at: path) { return p } }
        }
        for key in ["anyOf", "oneOf"] {
            if case .list(let any)? = s[key], !any.isEmpty, !any.contains(where: { problem(value, $0, at: path) == nil }) {
                return "\(place): fits none of the \(any.count) schemas it may be (\(key))"
            }
        }
        switch value {
        case .record(let r):
            if case .list(let required)? = s["required"] {
                for case .string(let name) in required where r[name] == nil {
                    return "\(place): the field \(name) is missing (required)"
                }
            }
            let properties: Record
            if case .record(let p)? = s["properties"] { properties = p } else { properties = Record() }
            for (i, k) in r.keys.enumerated() {
                let inner = path.isEmpty ? k : "\(path).\(k)"
                if let sub = properties[k] {
                    if let p = problem(r.values[i], sub, at: inner) { return p }
                } else if s["additionalProperties"] == .bool(false) {
                    return "\(inner): no such field (additionalProperties is false)"
                } else if case .record? = s["additionalProperties"], let sub = s["additionalProperties"] {
                    if let p = problem(r.values[i], sub, at: inner) { return p }
                }
            }
        case .list(let items):
            if let sub = s["items"] {
                for (i, item) in items.enumerated() {
                    if let p = problem(item, sub, at: "\(path)[\(i)]") { return p }
                }
            }
        case .string(let text):
            let n = text.count
            if let min = s["minLength"]?.intValue, n < min { return "\(place): \(n) characters, fewer than \(min) (minLength)" }
            if let max = s["maxLength"]?.intValue, n > max { return "\(place): \(n) characters, more than \(max) (maxLength)" }
        case .int, .double:
            if let d = value.doubleValue {
                if let min = s["minimum"]?.doubleValue, d < min { return "\(place): \(JSONWriter.compact(value)) is less than \(JSONWriter.compact(s["minimum"]!)) (minimum)" }
                if let max = s["maximum"]?.doubleValue, d > max { return "\(place): \(JSONWriter.compact(value)) is more than \(JSONWriter.compact(s["maximum"]!)) (maximum)" }
            }
        default: break
        }
        return nil
    }

    /// The types a schema allows (`type: string` or `type: [string, "null"]`), or nil.
    static func typeNames(_ s: Record) -> [String]? {
        switch s["type"] {
        case .string(let t)?: return [t]
        case .list(let ts)?: return ts.compactMap(\.stringValue)
        default: return nil
        }
    }

    /// True when `value` is of the JSON type `type`.
    static func fits(_ value: Value, _ type: String) -> Bool {
        switch type {
        case "string": return value.stringValue != nil
        case "integer": return value.intValue != nil
        case "number": return value.doubleValue != nil
        case "boolean": if case .bool = value { return true } else { return false }
        case "object": if case .record = value { return true } else { return false }
        case "array": if case .list = value { return true } else { return false }
        case "null": return value.isNull
        default: return true
        }
    }

    static func article(_ type: String) -> String {
        ["object", "array", "integer"].contains(type) ? "an \(type)" : "a \(type)"
    }

    /// A value in a few words: its type and, for a short scalar, the value.
    static func describe(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .string(let s): return "the string \(JSONWriter.compact(.string(s.count > 30 ? String(s.prefix(29)) + "…" : s)))"
        case .int, .double: return "the number \(JSONWriter.compact(v))"
        case .bool(let b): return "\(b)"
        case .list: return "an array"
        case .record: return "an object"
        default: return v.typeName
        }
    }
}
