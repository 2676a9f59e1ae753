import JMESPath

/// Finds the value at a simple path (`items[123456].name`), or at each path of a multiselect of
/// them (`{s: status, t: total}`, `JSONPathQuery`), in JSON text in one pass that checks the
/// whole text, building a value only for what the paths reach (any other expression searches the
/// document's tape, `JSONTape`).
///
/// `json | pick PATH` is the commonest way a large document is read, and building the whole tree
/// of values is most of its cost. The scan accepts exactly the texts `JSON.parse` accepts (the
/// same grammar, the same string checks, the same depth cap), and the value it gives is the one
/// `JSON.parse` followed by the JMESPath search would give: a duplicate key's last value wins, a
/// field of anything but an object or an index of anything but a list is null. On text the
/// reader refuses it returns nil, and the caller parses again for the error and its position.
public enum JSONPathScan {
    /// The value at `path` in `buffer`, `.null` when the path finds nothing, or nil when the
    /// text is not JSON. `textIsUTF8` says the buffer is known to be valid UTF-8 (a `String`'s
    /// storage); otherwise the bytes of every string are checked as the reader checks them.
    public static func value(
        at path: [JMESPathStep], in buffer: UnsafeBufferPointer<UInt8>, textIsUTF8: Bool, maxDepth: Int = 512
    ) -> Value? {
        value(atPathOf: JSONPathQuery(path: path), in: buffer, textIsUTF8: textIsUTF8, maxDepth: maxDepth)
    }

    /// `value(at:in:textIsUTF8:maxDepth:)` with the path's query made once (`JSONPathQuery(path:)`):
    /// making it took as long as scanning a 250-byte record.
    public static func value(
        atPathOf query: JSONPathQuery, in buffer: UnsafeBufferPointer<UInt8>, textIsUTF8: Bool, maxDepth: Int = 512
    ) -> Value? {
        guard let found = ranges(of: query, in: buffer, textIsUTF8: textIsUTF8, maxDepth: maxDepth) else { return nil }
        guard let range = found[0] else { return .null }
        return try? JSON.parse(buffer: UnsafeBufferPointer(rebasing: buffer[range]), maxDepth: maxDepth)
    }

    /// The value at `path` in `text`.
    public static func value(at path: [JMESPathStep], in text: String, maxDepth: Int = 512) -> Value? {
        var text = text
        return text.withUTF8 { value(at: path, in: $0, textIsUTF8: true, maxDepth: maxDepth) }
    }

    /// The value at `path` in `bytes`.
    public static func value(at path: [JMESPathStep], in bytes: [UInt8], maxDepth: Int = 512) -> Value? {
        bytes.withUnsafeBufferPointer { value(at: path, in: $0, textIsUTF8: false, maxDepth: maxDepth) }
    }

    /// The value of `selection` (`{s: status, t: total}`, made into a query once) on the
    /// document in `buffer`: a record of its keys or a list, each path's value found in the same
    /// one pass (null when it finds nothing), or nil when the text is not JSON.
    public static func value(
        of selection: JSONPathQuery, in buffer: UnsafeBufferPointer<UInt8>, textIsUTF8: Bool, maxDepth: Int = 512
    ) -> Value? {
        guard let found = ranges(of: selection, in: buffer, textIsUTF8: textIsUTF8, maxDepth: maxDepth) else { return nil }
        var values: [Value] = []
        values.reserveCapacity(found.count)
        for range in found {
            guard let range else {
                values.append(.null)
                continue
            }
            guard let v = try? JSON.parse(buffer: UnsafeBufferPointer(rebasing: buffer[range]), maxDepth: maxDepth) else { return nil }
            values.append(v)
        }
        guard let keys = selection.recordKeys else { return .list(values) }
        return .record(Record(read: keys, values))
    }

    /// The value of `selection` on the document in `text`.
    public static func value(of selection: JSONPathQuery, in text: String, maxDepth: Int = 512) -> Value? {
        var text = text
        return text.withUTF8 { value(of: selection, in: $0, textIsUTF8: true, maxDepth: maxDepth) }
    }

    /// The value of `selection` on the document in `bytes`.
    public static func value(of selection: JSONPathQuery, in bytes: [UInt8], maxDepth: Int = 512) -> Value? {
        bytes.withUnsafeBufferPointer { value(of: selection, in: $0, textIsUTF8: false, maxDepth: maxDepth) }
    }

    /// Where the value each of the query's paths reaches lies in `buffer` (nil for a path that
    /// finds nothing), or nil when the text is not JSON.
    static func ranges(
        of query: JSONPathQuery, in buffer: UnsafeBufferPointer<UInt8>, textIsUTF8: Bool, maxDepth: Int
    ) -> [Range<Int>?]? {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
        var scan = Scanner(p: base, end: buffer.count, query: query, checkUTF8: !textIsUTF8, maxDepth: maxDepth)
        scan.skipSpace()
        let all = query.count == 64 ? UInt64.max : (1 << UInt64(query.count)) - 1
        guard scan.value(depth: 0, alive: all) else { return nil }
        scan.skipSpace()
        guard scan.pos == buffer.count else { return nil }
        return scan.found
    }
}

/// The scan itself: a recursive descent over the bytes that only moves forward, following up
/// to 64 paths at once (a bit each in a mask of the paths that lead to the value being read).
private struct Scanner {
    let p: UnsafePointer<UInt8>
    let end: Int
    /// Each path's steps, `stride` a path: a field's key as UTF-8, nil for an index step.
    let keys: [[UInt8]?]
    /// Each path's steps, `stride` a path: an index step's position, -1 for a field step.
    let indexes: [Int]
    /// The number of steps of the longest path.
    let stride: Int
    /// For each depth up to `stride`, the paths that end there (a bit each).
    let endingAt: [UInt64]
    let checkUTF8: Bool
    let maxDepth: Int
    var pos = 0
    /// For each path, the bytes of the value it reached last.
    var found: [Range<Int>?]

    /// For each byte, 1 when a string may hold it as it is (not a quote, a backslash or a
    /// control character); the second half also excludes bytes above 0x7F, for checking UTF-8.
    nonisolated(unsafe) static let plainBytes: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
        for c in 0..<256 {
            let plain = c >= 0x20 && c != 0x22 && c != 0x5C
            table[c] = plain ? 1 : 0
            table[256 + c] = plain && c < 0x80 ? 1 : 0
        }
        return UnsafePointer(table)
    }()
    /// `plainBytes`, the half for this scan.
    let plain: UnsafePointer<UInt8>

    init(p: UnsafePointer<UInt8>, end: Int, query: JSONPathQuery, checkUTF8: Bool, maxDepth: Int) {
        self.p = p
        self.end = end
        self.plain = checkUTF8 ? Self.plainBytes + 256 : Self.plainBytes
        self.checkUTF8 = checkUTF8
        self.maxDepth = maxDepth
        self.stride = query.stride
        self.keys = query.keys
        self.indexes = query.indexes
        self.endingAt = query.endingAt
        self.found = Array(repeating: nil, count: query.count)
    }

    @inline(__always) mutating func skipSpace() {
        while pos < end {
            let c = p[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
        }
    }

    /// Scans one value. `alive`: the paths whose first `depth` steps lead here (a bit each).
    mutating func value(depth: Int, alive: UInt64) -> Bool {
        guard pos < end else { return false }
        let start = pos
        // The paths that end here, and those that go on into this value's members.
        let ending = alive == 0 || depth > stride ? 0 : alive & endingAt[depth]
        let going = alive & ~ending
        switch p[pos] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { return false }
            pos += 1
            skipSpace()
            if pos < end && p[pos] == UInt8(ascii: "}") {
                pos += 1
                break
            }
            while true {
                skipSpace()
                guard pos < end, p[pos] == UInt8(ascii: "\"") else { return false }
                let keyStart = pos
                guard let escaped = string() else { return false }
                var child: UInt64 = 0
                if going != 0 {
                    child = paths(going, depth: depth, namingKeyAt: keyStart, escaped: escaped)
                    // A later duplicate replaces what an earlier one led to.
                    var m = child
                    while m != 0 {
                        found[m.trailingZeroBitCount] = nil
                        m &= m - 1
                    }
                }
                skipSpace()
                guard pos < end, p[pos] == UInt8(ascii: ":") else { return false }
                pos += 1
                skipSpace()
                guard value(depth: depth + 1, alive: child) else { return false }
                guard let more = next(closing: UInt8(ascii: "}")) else { return false }
                if !more { break }
            }
        case UInt8(ascii: "["):
            guard depth < maxDepth else { return false }
            pos += 1
            skipSpace()
            if pos < end && p[pos] == UInt8(ascii: "]") {
                pos += 1
                break
            }
            var i = 0
            while true {
                skipSpace()
                guard value(depth: depth + 1, alive: going == 0 ? 0 : paths(going, depth: depth, indexing: i)) else { return false }
                i += 1
                guard let more = next(closing: UInt8(ascii: "]")) else { return false }
                if !more { break }
            }
        case UInt8(ascii: "\""):
            guard string() != nil else { return false }
        case UInt8(ascii: "t"):
            guard literal(Self.trueText) else { return false }
        case UInt8(ascii: "f"):
            guard literal(Self.falseText) else { return false }
        case UInt8(ascii: "n"):
            guard literal(Self.nullText) else { return false }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard number() else { return false }
        default:
            return false
        }
        var m = ending
        while m != 0 {
            found[m.trailingZeroBitCount] = start..<pos
            m &= m - 1
        }
        return true
    }

    /// Of the paths in `going`, those whose step at `depth` is the key whose opening quote is
    /// at `at` (escapes decoded when it has any, once).
    func paths(_ going: UInt64, depth: Int, namingKeyAt at: Int, escaped: Bool) -> UInt64 {
        var matched: UInt64 = 0
        var decoded: [UInt8]? = nil
        var m = going
        while m != 0 {
            let i = m.trailingZeroBitCount
            m &= m - 1
            guard let wanted = keys[i * stride + depth] else { continue }
            if !escaped {
                let length = pos - at - 2
                guard length == wanted.count else { continue }
                var same = true
                for k in 0..<length where p[at + 1 + k] != wanted[k] {
                    same = false
                    break
                }
                if same { matched |= 1 << UInt64(i) }
            } else {
                if decoded == nil {
                    guard let key = decodedKey(at: at) else { return 0 }
                    decoded = key
                }
                if decoded! == wanted { matched |= 1 << UInt64(i) }
            }
        }
        return matched
    }

    /// Of the paths in `going`, those whose step at `depth` is the index `i`.
    func paths(_ going: UInt64, depth: Int, indexing i: Int) -> UInt64 {
        var matched: UInt64 = 0
        var m = going
        while m != 0 {
            let n = m.trailingZeroBitCount
            m &= m - 1
            if indexes[n * stride + depth] == i { matched |= 1 << UInt64(n) }
        }
        return matched
    }

    /// After a member or an element: true when a `,` says another follows, false when `closing`
    /// ends the container, nil when neither is there.
    mutating func next(closing: UInt8) -> Bool? {
        skipSpace()
        guard pos < end else { return nil }
        if p[pos] == UInt8(ascii: ",") {
            pos += 1
            return true
        }
        guard p[pos] == closing else { return nil }
        pos += 1
        return false
    }

    static let trueText = Array("true".utf8)
    static let falseText = Array("false".utf8)
    static let nullText = Array("null".utf8)

    /// `true`, `false` or `null`, spelled out in full.
    mutating func literal(_ text: [UInt8]) -> Bool {
        guard pos + text.count <= end else { return false }
        for k in 0..<text.count where p[pos + k] != text[k] { return false }
        pos += text.count
        return true
    }

    @inline(__always) func isDigit(_ at: Int) -> Bool { at < end && p[at] >= 0x30 && p[at] <= 0x39 }

    mutating func number() -> Bool {
        if p[pos] == UInt8(ascii: "-") { pos += 1 }
        guard isDigit(pos) else { return false }
        if p[pos] == 0x30 {
            pos += 1
        } else {
            while isDigit(pos) { pos += 1 }
        }
        if pos < end && p[pos] == UInt8(ascii: ".") {
            pos += 1
            guard isDigit(pos) else { return false }
            while isDigit(pos) { pos += 1 }
        }
        if pos < end && (p[pos] == UInt8(ascii: "e") || p[pos] == UInt8(ascii: "E")) {
            pos += 1
            if pos < end && (p[pos] == UInt8(ascii: "+") || p[pos] == UInt8(ascii: "-")) { pos += 1 }
            guard isDigit(pos) else { return false }
            while isDigit(pos) { pos += 1 }
        }
        return true
    }

    /// Scans a string from its opening quote; nil when it is not valid, else whether it has escapes.
    mutating func string() -> Bool? {
        pos += 1
        var escaped = false
        while pos < end {
            // The bytes that need no look: one table load each.
            while pos < end && plain[Int(p[pos])] != 0 { pos += 1 }
            guard pos < end else { break }
            let c = p[pos]
            if c == UInt8(ascii: "\"") {
                pos += 1
                return escaped
            }
            if c == UInt8(ascii: "\\") {
                escaped = true
                guard escape() else { return nil }
                continue
            }
            if c < 0x20 { return nil }
            if c >= 0x80 && checkUTF8 {
                let n = UTF8Check.sequenceLength(p, at: pos, end: end)
                guard n > 0 else { return nil }
                pos += n
                continue
            }
            pos += 1
        }
        return nil
    }

    /// One escape, from its backslash: the escapes and surrogate pairs the reader accepts.
    mutating func escape() -> Bool {
        guard let next = JSONText.escapeEnd(p, end, at: pos) else { return false }
        pos = next
        return true
    }

    /// The UTF-8 of the key whose opening quote is at `at`, its escapes decoded.
    func decodedKey(at: Int) -> [UInt8]? {
        let raw = UnsafeBufferPointer(start: p, count: end)
        var reader = JSONReader(bytes: raw, maxDepth: maxDepth)
        reader.pos = at
        guard let key = try? reader.string() else { return nil }
        return Array(key.utf8)
    }
}
