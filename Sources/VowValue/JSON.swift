// The reader of JSON text into values. Its number rules are `JSONText`'s, shared with the tape and
// the writers.
/// A JSON syntax error: what was expected, and where (line, column, a snippet with a caret).
public struct JSONError: Error, Sendable, CustomStringConvertible {
    /// What was wrong or expected.
    public let message: String
    /// Byte offset of the culprit.
    public let offset: Int
    /// 1-based line.
    public let line: Int
    /// 1-based column, in characters.
    public let column: Int
    /// The line, shortened around the column, and a caret under the culprit.
    public let snippet: String

    /// `message at line L, column C` and the snippet.
    public var description: String { "\(message) at line \(line), column \(column)\n\(snippet)" }
}

/// Reads JSON into `Value`s, straight from UTF-8 bytes.
///
/// Key order is kept, a duplicate key keeps its last value, integers that fit 64 bits stay exact,
/// and nesting deeper than `maxDepth` is an error rather than a stack overflow.
public enum JSON {
    /// Parses UTF-8 bytes.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONError) -> Value {
        try bytes.withUnsafeBufferPointer { buf throws(JSONError) in try parse(buffer: buf, maxDepth: maxDepth) }
    }

    /// Parses a string, reading its UTF-8 storage in place.
    public static func parse(_ text: String, maxDepth: Int = 512) throws(JSONError) -> Value {
        var text = text
        let result = text.withUTF8 { buf in
            Result { () throws(JSONError) -> Value in try parse(buffer: buf, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Parses UTF-8 bytes in memory that stays valid for the call.
    public static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = 512) throws(JSONError) -> Value {
        var r = JSONReader(bytes: buffer, maxDepth: maxDepth)
        // A UTF-8 byte order mark before the document (as some Windows tools write) is skipped,
        // as jq does.
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { r.pos = 3 }
        r.skipSpace()
        let v = try r.value(depth: 0)
        r.skipSpace()
        if r.pos < buffer.count { throw r.fail("unexpected text after the JSON value") }
        return v
    }
}

struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var pos = 0
    /// The keys and the values of the records and lists being read, innermost last: a record or
    /// a list is made from its part when it closes, with exactly the room its members take
    /// (growing as they come left a quarter of a list, and half of a two-field record, empty).
    var pendingKeys: [String] = []
    var pendingValues: [Value] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func fail(_ message: String, at offset: Int? = nil) -> JSONError {
        let off = min(offset ?? pos, bytes.count)
        var lineStart = off
        while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        var lineEnd = off
        while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
        let line = bytes[0..<lineStart].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let before = String(decoding: bytes[lineStart..<off], as: UTF8.self)
        let column = before.count + 1
        var text = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
        var caret = column - 1
        if caret > 40 {
            let cut = caret - 30
            text = "…" + String(text.dropFirst(cut))
            caret = caret - cut + 1
        }
        if text.count > 70 { text = String(text.prefix(70)) + "…" }
        let found = off < bytes.count ? "" : " (the input ended)"
        return JSONError(
            message: message + found, offset: off, line: line, column: column,
            snippet: "    \(text)\n    \(String(repeating: " ", count: caret))^")
    }

    /// The members of `pending` from `first` on, taken out, in an array of their own with
    /// just their room (never the pending array's buffer, which is used again).
    static func take<T>(_ pending: inout [T], from first: Int) -> [T] {
        var taken: [T] = []
        taken.reserveCapacity(pending.count - first)
        taken.append(contentsOf: pending[first...])
        pending.removeSubrange(first...)
        return taken
    }

    mutating func skipSpace() {
        while pos < bytes.count {
            let c = bytes[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { break }
        }
    }

    mutating func value(depth: Int) throws(JSONError) -> Value {
        guard pos < bytes.count else { throw fail("expected a value") }
        switch bytes[pos] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
            pos += 1
            skipSpace()
            if pos < bytes.count && bytes[pos] == UInt8(ascii: "}") {
                pos += 1
                return .record(Record())
            }
            let first = pendingValues.count
            let firstKey = pendingKeys.count
            while true {
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                let key = try string()
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw fail("expected ':' after the key") }
                pos += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                pendingKeys.append(key)
                pendingValues.append(v)
                skipSpace()
                guard pos < bytes.count else { throw fail("expected ',' or '}' after the member") }
                if bytes[pos] == UInt8(ascii: ",") {
                    pos += 1
                    continue
                }
                if bytes[pos] == UInt8(ascii: "}") {
                    pos += 1
                    return .record(Record(read: Self.take(&pendingKeys, from: firstKey), Self.take(&pendingValues, from: first)))
                }
                throw fail("expected ',' or '}' after the member")
            }
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
            pos += 1
            skipSpace()
            if pos < bytes.count && bytes[pos] == UInt8(ascii: "]") {
                pos += 1
                return .list([])
            }
            let first = pendingValues.count
            while true {
                skipSpace()
                let element = try value(depth: depth + 1)
                pendingValues.append(element)
                skipSpace()
                guard pos < bytes.count else { throw fail("expected ',' or ']' after the element") }
                if bytes[pos] == UInt8(ascii: ",") {
                    pos += 1
                    continue
                }
                if bytes[pos] == UInt8(ascii: "]") {
                    pos += 1
                    return .list(Self.take(&pendingValues, from: first))
                }
                throw fail("expected ',' or ']' after the element")
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("expected a value (an object, array, string, number, true, false or null)")
        }
    }

    mutating func word(_ w: String, _ v: Value) throws(JSONError) -> Value {
        let expected = Array(w.utf8)
        let n = expected.count
        guard pos + n <= bytes.count, bytes[pos..<pos + n].elementsEqual(expected) else {
            throw fail("expected a value (an object, array, string, number, true, false or null)")
        }
        pos += n
        return v
    }

    mutating func number() throws(JSONError) -> Value {
        let start = pos
        var isInteger = true
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        guard pos < bytes.count, bytes[pos] >= 0x30 && bytes[pos] <= 0x39 else { throw fail("expected a digit") }
        if bytes[pos] == 0x30 {
            pos += 1
        } else {
            while pos < bytes.count && bytes[pos] >= 0x30 && bytes[pos] <= 0x39 { pos += 1 }
        }
        if pos < bytes.count && bytes[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < bytes.count, bytes[pos] >= 0x30 && bytes[pos] <= 0x39 else { throw fail("expected a digit after '.'") }
            while pos < bytes.count && bytes[pos] >= 0x30 && bytes[pos] <= 0x39 { pos += 1 }
        }
        if pos < bytes.count && (bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E")) {
            isInteger = false
            pos += 1
            if pos < bytes.count && (bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-")) { pos += 1 }
            guard pos < bytes.count, bytes[pos] >= 0x30 && bytes[pos] <= 0x39 else { throw fail("expected a digit in the exponent") }
            while pos < bytes.count && bytes[pos] >= 0x30 && bytes[pos] <= 0x39 { pos += 1 }
        }
        return JSONText.number(bytes.baseAddress!, start, pos, isInteger: isInteger)
    }

    /// Four hex digits (digits only: no sign, unlike `UInt32(_:radix:)`).
    mutating func hex4() throws(JSONError) -> UInt32 {
        guard let v = Self.hex4(bytes, at: pos) else { throw fail("expected four hex digits after \\u") }
        pos += 4
        return v
    }

    /// The four hex digits at `at` in `bytes` as a number, or nil.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = bytes[at + k]
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c - 0x30
            case 0x41...0x46: d = c - 0x41 + 10
            case 0x61...0x66: d = c - 0x61 + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    mutating func string() throws(JSONError) -> String {
        let open = pos
        pos += 1
        var out: [UInt8] = []
        var runStart = pos
        // Every byte OR-ed together: below 0x80, the string is ASCII and needs no validation
        // (the generic validating initialiser is the slow part of reading a string).
        var high: UInt8 = 0
        while true {
            guard pos < bytes.count else { throw fail("unclosed string", at: open) }
            let c = bytes[pos]
            high |= c
            if c == UInt8(ascii: "\"") {
                if out.isEmpty {
                    // No escapes: the text is the bytes between the quotes.
                    let raw = UnsafeBufferPointer(rebasing: bytes[runStart..<pos])
                    pos += 1
                    if high < 0x80 { return String(decoding: raw, as: UTF8.self) }
                    guard let s = String(validating: raw, as: UTF8.self) else { throw fail("invalid UTF-8 in a string", at: open) }
                    return s
                }
                out.append(contentsOf: bytes[runStart..<pos])
                pos += 1
                break
            }
            if c < 0x20 { throw fail("control character in a string (escape it)") }
            if c == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[runStart..<pos])
                pos += 1
                guard pos < bytes.count else { throw fail("unclosed string", at: open) }
                let e = bytes[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                            throw fail("lone high surrogate \\u\(String(code, radix: 16))")
                        }
                        pos += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("expected a low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw fail("lone low surrogate \\u\(String(code, radix: 16))")
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(code)!)).utf8))
                default: throw fail("invalid escape '\\\(String(decoding: [e], as: UTF8.self))'", at: pos - 2)
                }
                runStart = pos
                continue
            }
            pos += 1
        }
        if high < 0x80, !out.contains(where: { $0 >= 0x80 }) { return String(decoding: out, as: UTF8.self) }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in a string", at: open) }
        return s
    }
}
