// A small strict JSON reader for backtick literals and quoted identifiers.
//
// Literals are parsed once, at compile time, into `Literal`, which knows no host type; evaluation
// turns a `Literal` into the host's value. Nesting is capped so that hostile input cannot
// overflow the stack.

/// A JSON value from a literal in the expression, independent of any host value type.
indirect enum Literal: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([Literal])
    case object([(key: String, value: Literal)])

    /// The host's form of this literal.
    func value<V: JMESPathValue>(_: V.Type) -> V {
        switch self {
        case .null: return .jmesNull
        case .bool(let b): return .jmesBool(b)
        case .int(let i): return .jmesInt(i)
        case .double(let d): return .jmesDouble(d)
        case .string(let s): return .jmesString(s)
        case .array(let a): return .jmesArray(a.map { $0.value(V.self) })
        case .object(let o): return .jmesObject(o.map { (key: $0.key, value: $0.value.value(V.self)) })
        }
    }
}

/// Reads one JSON text (surrounding whitespace allowed). Errors are plain messages; the caller
/// attaches the position of the literal in the expression.
struct JSONReader {
    /// The deepest nesting of arrays and objects a literal may have.
    static let maxDepth = 256

    private let bytes: [UInt8]
    private var pos = 0

    private init(_ text: String) { bytes = Array(text.utf8) }

    /// Parses a whole JSON document.
    static func parse(_ text: String) -> Result<Literal, JSONReaderError> {
        var r = JSONReader(text)
        do throws(JSONReaderError) {
            r.skipSpace()
            let v = try r.value(depth: 0)
            r.skipSpace()
            if r.pos != r.bytes.count { throw r.fail("unexpected text after the JSON value") }
            return .success(v)
        } catch {
            return .failure(error)
        }
    }

    /// Decodes a JSON string literal, quotes included (used for quoted identifiers).
    static func parseString(_ text: String) -> Result<String, JSONReaderError> {
        var r = JSONReader(text)
        do throws(JSONReaderError) {
            guard r.pos < r.bytes.count, r.bytes[r.pos] == UInt8(ascii: "\"") else {
                throw r.fail("expected a quoted string")
            }
            let s = try r.string()
            if r.pos != r.bytes.count { throw r.fail("unexpected text after the string") }
            return .success(s)
        } catch {
            return .failure(error)
        }
    }

    private func fail(_ message: String) -> JSONReaderError {
        JSONReaderError(message: message, byteOffset: pos)
    }

    private mutating func skipSpace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONReaderError) -> Literal {
        guard pos < bytes.count else { throw fail("expected a JSON value, found the end of the literal") }
        switch bytes[pos] {
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { throw fail("JSON nested more than \(Self.maxDepth) levels deep") }
            pos += 1
            var fields: [(key: String, value: Literal)] = []
            skipSpace()
            if pos < bytes.count && bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(fields) }
            while true {
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw fail("expected a quoted object key") }
                let key = try string()
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw fail("expected ':' after an object key") }
                pos += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                if let i = fields.firstIndex(where: { $0.key == key }) { fields[i].value = v } else { fields.append((key, v)) }
                skipSpace()
                guard pos < bytes.count else { throw fail("unterminated object: expected ',' or '}'") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(fields) }
                throw fail("expected ',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw fail("JSON nested more than \(Self.maxDepth) levels deep") }
            pos += 1
            var items: [Literal] = []
            skipSpace()
            if pos < bytes.count && bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard pos < bytes.count else { throw fail("unterminated array: expected ',' or ']'") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
                throw fail("expected ',' or ']' in an array")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw fail("expected a JSON value")
        }
    }

    private mutating func word(_ w: String) throws(JSONReaderError) {
        let expected = Array(w.utf8)
        let n = expected.count
        guard pos + n <= bytes.count, bytes[pos..<pos + n].elementsEqual(expected) else {
            throw fail("expected '\(w)'")
        }
        pos += n
    }

    private mutating func number() throws(JSONReaderError) -> Literal {
        let start = pos
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        let intStart = pos
        while pos < bytes.count && isDigit(bytes[pos]) { pos += 1 }
        guard pos > intStart else { throw fail("expected digits in a number") }
        if bytes[intStart] == UInt8(ascii: "0") && pos - intStart > 1 { throw fail("leading zeros are not allowed in a number") }
        var integral = true
        if pos < bytes.count && bytes[pos] == UInt8(ascii: ".") {
            integral = false
            pos += 1
            let s = pos
            while pos < bytes.count && isDigit(bytes[pos]) { pos += 1 }
            guard pos > s else { throw fail("expected digits after '.'") }
        }
        if pos < bytes.count && (bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E")) {
            integral = false
            pos += 1
            if pos < bytes.count && (bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-")) { pos += 1 }
            let s = pos
            while pos < bytes.count && isDigit(bytes[pos]) { pos += 1 }
            guard pos > s else { throw fail("expected digits in an exponent") }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        if integral, let i = Int(text) { return .int(i) }
        guard let d = Double(text) else { throw fail("invalid number '\(text)'") }
        return .double(d)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// Reads a string starting at the opening quote.
    private mutating func string() throws(JSONReaderError) -> String {
        pos += 1
        var out: [UInt8] = []
        while true {
            guard pos < bytes.count else { throw fail("unterminated string") }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { pos += 1; break }
            if b < 0x20 { throw fail("control character in a string (escape it)") }
            if b != UInt8(ascii: "\\") { out.append(b); pos += 1; continue }
            pos += 1
            guard pos < bytes.count else { throw fail("unterminated escape in a string") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): out.append(e)
            case UInt8(ascii: "\\"): out.append(e)
            case UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired UTF-16 surrogate in \\u escape")
                    }
                    pos += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid low surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw fail("unpaired UTF-16 surrogate in \\u escape")
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw fail("invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hex4() throws(JSONReaderError) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw fail("expected 4 hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[pos]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("expected 4 hex digits after \\u")
            }
            v = v * 16 + d
            pos += 1
        }
        return v
    }
}

/// A JSON literal that does not parse.
struct JSONReaderError: Error {
    /// What was wrong.
    let message: String
    /// Where, in UTF-8 bytes from the start of the literal's text.
    let byteOffset: Int
}
