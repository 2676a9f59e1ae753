import JMESPath

/// Finds the value at a simple path (`items[123456].name`) in JSON text in one pass that checks
/// the whole text, building a value only for what the path reaches (any other expression
/// searches the document's tape, `JSONTape`).
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
        guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
        var scan = Scanner(p: base, end: buffer.count, path: path, checkUTF8: !textIsUTF8, maxDepth: maxDepth)
        scan.skipSpace()
        guard scan.value(depth: 0, level: 0) else { return nil }
        scan.skipSpace()
        guard scan.pos == buffer.count else { return nil }
        guard let found = scan.found else { return .null }
        return try? JSON.parse(buffer: UnsafeBufferPointer(rebasing: buffer[found]), maxDepth: maxDepth)
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
}

/// The scan itself: a recursive descent over the bytes that only moves forward.
private struct Scanner {
    let p: UnsafePointer<UInt8>
    let end: Int
    /// The path's steps, keys as UTF-8.
    let keys: [[UInt8]?]
    let indexes: [Int]
    let checkUTF8: Bool
    let maxDepth: Int
    var pos = 0
    /// The bytes of the value the path reached last.
    var found: Range<Int>? = nil

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

    init(p: UnsafePointer<UInt8>, end: Int, path: [JMESPathStep], checkUTF8: Bool, maxDepth: Int) {
        self.p = p
        self.end = end
        self.plain = checkUTF8 ? Self.plainBytes + 256 : Self.plainBytes
        self.checkUTF8 = checkUTF8
        self.maxDepth = maxDepth
        var keys: [[UInt8]?] = []
        var indexes: [Int] = []
        for step in path {
            switch step {
            case .field(let name):
                keys.append(Array(name.utf8))
                indexes.append(-1)
            case .index(let n):
                keys.append(nil)
                indexes.append(n)
            }
        }
        self.keys = keys
        self.indexes = indexes
    }

    @inline(__always) mutating func skipSpace() {
        while pos < end {
            let c = p[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
        }
    }

    /// Scans one value. `level` is how many steps of the path lead here (-1: off the path).
    mutating func value(depth: Int, level: Int) -> Bool {
        guard pos < end else { return false }
        let start = pos
        let onPath = level >= 0 && level < keys.count
        switch p[pos] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { return false }
            pos += 1
            skipSpace()
            if pos < end && p[pos] == UInt8(ascii: "}") {
                pos += 1
                break
            }
            let wanted = onPath ? keys[level] : nil
            while true {
                skipSpace()
                guard pos < end, p[pos] == UInt8(ascii: "\"") else { return false }
                let keyStart = pos
                guard let escaped = string() else { return false }
                var childLevel = -1
                if let wanted, keyEquals(wanted, from: keyStart, escaped: escaped) {
                    childLevel = level + 1
                    // A later duplicate replaces what an earlier one led to.
                    found = nil
                }
                skipSpace()
                guard pos < end, p[pos] == UInt8(ascii: ":") else { return false }
                pos += 1
                skipSpace()
                guard value(depth: depth + 1, level: childLevel) else { return false }
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
            let wanted = onPath && keys[level] == nil ? indexes[level] : -1
            var i = 0
            while true {
                skipSpace()
                guard value(depth: depth + 1, level: i == wanted ? level + 1 : -1) else { return false }
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
        if level == keys.count { found = start..<pos }
        return true
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

    /// Whether the key whose opening quote is at `at` is `wanted` (escapes decoded when it has any).
    func keyEquals(_ wanted: [UInt8], from at: Int, escaped: Bool) -> Bool {
        if !escaped {
            let length = pos - at - 2
            guard length == wanted.count else { return false }
            for k in 0..<length where p[at + 1 + k] != wanted[k] { return false }
            return true
        }
        let raw = UnsafeBufferPointer(start: p, count: end)
        var reader = JSONReader(bytes: raw, maxDepth: maxDepth)
        reader.pos = at
        guard let key = try? reader.string() else { return false }
        return Array(key.utf8) == wanted
    }
}
