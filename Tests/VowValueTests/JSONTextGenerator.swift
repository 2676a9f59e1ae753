import VowValue

/// A seeded generator of JSON texts (and broken copies of them) and JMESPath expressions over
/// them, for the tape's differential tests: keys that repeat, are spelled with escapes or are
/// canonically equivalent without being equal; strings with every escape, controls, DEL, C1
/// controls, U+2028/2029 and long runs; numbers of every form; wide objects and deep nesting.
struct JSONTextGenerator {
    var random: SplitMix64
    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }

    /// The keys documents use, by what an expression writes for them.
    static let keys = ["a", "b", "id", "items", "name", "é", "K", "a\"b", "", "x y", "tab\t"]
    /// How each key may be spelled in a document: escaped, decomposed (`e` and U+0301, which a
    /// Swift string compares equal to `é`), the Kelvin sign (equal to `K`).
    static let spellings: [String: [String]] = [
        "a": [#""a""#, #""\u0061""#], "b": [#""b""#, #""\u0062""#], "id": [#""id""#], "items": [#""items""#],
        "name": [#""name""#, #""n\u0061me""#], "é": [#""é""#, #""\u00e9""#, #""\u00E9""#, "\"e\u{301}\"", #""e\u0301""#],
        "K": [#""K""#, "\"\u{212A}\"", #""\u212a""#], "a\"b": [#""a\"b""#, #""a\u0022b""#], "": [#""""#],
        "x y": [#""x y""#], "tab\t": [#""tab\t""#, #""tab\u0009""#],
    ]
    static let strings = [
        #""text""#, #""tab\there""#, #""\ud83d\ude00""#, #""ünïcødé""#, #""\/""#, #""""#, #""quote\"d and back\\slash""#,
        "\"del\u{7F}\"", #""del\u007f""#, "\"c1 \u{85} \u{9F}\"", #""c1 \u0085""#, "\"line \u{2028} para \u{2029}\"", #""\u2028\u2029""#,
        #""\b\f\n\r\t\u0001\u001f""#, #""a long string that runs past eight bytes several times over, plain""#,
        "\"a long string with ünïcødé after the first eight bytes\"", #""\u00e9\u00E9\u0041""#, #""emoji😀 and \ud83d\ude00""#,
        "\"e\u{301}\"", "\"\u{212A}\"", #""12""#, #""-1""#, #""true""#,
    ]
    static let numbers = [
        "0", "1", "-0", "-1", "42", "0.5", "-0.0", "1e3", "1E+3", "-2.5E-3", "1.0", "100", "1e16", "12345678901234567",
        "123456789012345678", "1234567890123456789", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "92233720368547758070", "1e400", "-1e400", "1e-400", "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
        "0.1", "0.30000000000000004", "25.010755222666937", "-168.5582353865579", "505.3552881033624", "1e22", "1e23",
        "9007199254740993", "9007199254740993.0", "0.000001", "1e-7", "123.456e-2", "0e10", "-0e-5", "3.14159265358979323846",
    ]

    mutating func space() -> String { ["", " ", "\n", "\t ", "\r\n  "][below(5)] }

    mutating func scalar() -> String {
        switch below(6) {
        case 0, 1: return Self.strings[below(Self.strings.count)]
        case 2, 3: return Self.numbers[below(Self.numbers.count)]
        default: return ["true", "false", "null"][below(3)]
        }
    }

    mutating func key() -> String {
        let key = Self.keys[below(Self.keys.count)]
        let spelled = Self.spellings[key]!
        return spelled[below(spelled.count)]
    }

    /// A document; `depth` is how deep it already is.
    mutating func document(depth: Int = 0) -> String {
        switch depth > 5 ? 0 : below(5) {
        case 0, 1: return scalar()
        case 2:
            let n = below(6)
            return "[" + space() + (0..<n).map { _ in document(depth: depth + 1) + space() }.joined(separator: "," + space()) + "]"
        case 3 where below(8) == 0:
            // Wide: more keys than the tape compares with each other.
            let n = 30 + below(10)
            return "{" + (0..<n).map { i in "\"k\(i % 35)\"" + ":" + scalar() }.joined(separator: ",") + "}"
        default:
            let n = below(6)
            return "{" + space() + (0..<n).map { _ in key() + space() + ":" + space() + document(depth: depth + 1) + space() }
                .joined(separator: "," + space()) + "}"
        }
    }

    /// A copy of `text` with one thing broken (most of them are no longer JSON).
    mutating func broken(_ text: String) -> String {
        var chars = Array(text.unicodeScalars)
        guard !chars.isEmpty else { return "," }
        let at = below(chars.count)
        switch below(4) {
        case 0: chars.remove(at: at)
        case 1: chars.insert([",", "]", "}", "\"", "\\", "\u{01}", "0", "-", ".", "e"][below(10)], at: at)
        case 2: chars = Array(chars[0..<at])
        default: chars[at] = ["[", "{", ":", "x", "\u{7F}", "1", "\u{0}"][below(7)]
        }
        var s = ""
        s.unicodeScalars.append(contentsOf: chars)
        return s
    }

    /// A JMESPath expression over the generator's keys.
    mutating func expression(depth: Int = 0) -> String {
        let field = ["a", "b", "id", "items", "name", #""é""#, #""e\u0301""#, "K", #""a\"b""#, #""x y""#, #""tab\t""#, "k3", "k33"][below(13)]
        if depth > 3 { return field }
        let e = { (g: inout JSONTextGenerator) in g.expression(depth: depth + 1) }
        switch below(28) {
        case 0, 1: return field
        case 2: return e(&self) + "." + field
        case 3: return e(&self) + "[\(below(7) - 3)]"
        case 4: return e(&self) + "[*]." + field
        case 5: return e(&self) + "[]"
        case 6: return e(&self) + ".*"
        case 7: return e(&self) + "[?" + e(&self) + "]"
        case 8: return e(&self) + "[?" + field + [" > `0`]", " == 'text']", " != `null`]"][below(3)] + "." + field
        case 9: return e(&self) + "[\(below(3)):\(below(4))]"
        case 10: return "[" + e(&self) + ", " + e(&self) + "]"
        case 11: return "{k: " + e(&self) + ", j: " + e(&self) + ", k: " + e(&self) + "}"
        case 12: return e(&self) + " | " + e(&self)
        case 13: return e(&self) + [" || ", " && "][below(2)] + e(&self)
        case 14: return "!" + e(&self)
        case 15: return e(&self) + [" == ", " != ", " < ", " >= "][below(4)] + e(&self)
        case 16:
            let f = ["length", "keys", "values", "to_string", "type", "not_null", "sort", "upper", "items", "to_number", "abs",
                     "reverse", "sum", "max", "min", "avg", "to_array", "floor"]
            return f[below(f.count)] + "(" + e(&self) + ")"
        case 17: return ["$", "$.", "$[0]."][below(3)] + field
        case 18: return "let $v = " + e(&self) + " in " + ["$v", "[$v, " + e(&self) + "]", e(&self) + "[?" + field + " == $v]"][below(3)]
        case 19: return "(" + e(&self) + " ? " + e(&self) + " : " + e(&self) + ")"
        case 20: return "(" + e(&self) + [" + ", " * ", " % ", " / "][below(4)] + e(&self) + ")"
        case 21: return "(" + e(&self) + ")[" + ["1:", ":-1", "::-1"][below(3)] + "]"
        case 22: return ["sort_by", "max_by", "min_by", "group_by"][below(4)] + "(" + e(&self) + ", &" + field + ")"
        case 23: return ["merge", "contains", "starts_with", "join"][below(4)] + "(" + e(&self) + ", " + e(&self) + ")"
        case 24: return "map(&" + field + ", " + e(&self) + ")"
        case 25: return "from_items(" + e(&self) + ")"
        case 26: return "`" + scalar() + "`"
        default: return "@"
        }
    }
}
