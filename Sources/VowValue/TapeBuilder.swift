#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads JSON text into a tape's words (`JSONTape`) in one forward pass that checks all of it as
/// `JSON.parse` does: the same grammar, whitespace, escapes, surrogate pairs, UTF-8 and depth
/// cap, so that it accepts exactly the texts the reader accepts.
///
/// Strings are scanned eight bytes at a time while none of them needs a look. Each object
/// compares its plain keys as it goes (up to 32 of them): one with two equal keys, or with a key
/// that is not plain ASCII, is marked careful, and only careful objects pay for the reader's
/// rule on equal keys when they are searched or printed.
struct TapeBuilder {
    /// The words made, and the sizes too large for their words.
    struct Built {
        let words: UnsafeMutablePointer<UInt64>
        let count: Int
        let longSizes: [Int: Int]
    }

    let p: UnsafePointer<UInt8>
    let end: Int
    let checkUTF8: Bool
    let maxDepth: Int
    var pos = 0
    var words: UnsafeMutablePointer<UInt64>
    var count = 0
    var capacity: Int
    var longSizes: [Int: Int] = [:]
    /// From how many words a size goes to `longSizes`.
    var longSize = Int(TapeWord.sizeMask)
    /// The plain keys of the objects being read, (start << 32 | length), 32 an object, for as
    /// many levels of nesting as `keyLevels` (grown when a document nests deeper).
    var keys: UnsafeMutablePointer<UInt64>
    var keyLevels = 8

    /// The most keys of one object compared with each other.
    static let comparedKeys = 32

    /// The tape of `p[0..<n]`, or nil when the text is not JSON. `checkUTF8`: the bytes of
    /// strings are checked (not needed when the text comes from a String). `longSize`: from how
    /// many words an object's or a list's size is kept in `longSizes` (lower only in tests).
    static func build(
        _ p: UnsafePointer<UInt8>, _ n: Int, checkUTF8: Bool, maxDepth: Int, longSize: Int = Int(TapeWord.sizeMask)
    ) -> Built? {
        var b = TapeBuilder(p: p, end: n, checkUTF8: checkUTF8, maxDepth: maxDepth)
        b.longSize = longSize
        defer { b.keys.deallocate() }
        b.skipSpace()
        guard b.pos < n, b.value(depth: 0, keyBits: 0) else {
            free(b.words)
            return nil
        }
        b.skipSpace()
        guard b.pos == n else {
            free(b.words)
            return nil
        }
        // Give back what the guess took beyond the words made.
        let words = realloc(b.words, max(1, b.count) * 8)!.assumingMemoryBound(to: UInt64.self)
        return Built(words: words, count: b.count, longSizes: b.longSizes)
    }

    private init(p: UnsafePointer<UInt8>, end: Int, checkUTF8: Bool, maxDepth: Int) {
        self.p = p
        self.end = end
        self.checkUTF8 = checkUTF8
        self.maxDepth = maxDepth
        // About one value in sixteen bytes of typical data; the buffer grows as needed.
        capacity = max(64, end / 16)
        words = malloc(capacity * 8)!.assumingMemoryBound(to: UInt64.self)
        HugePages.prefer(words, capacity * 8)
        keys = .allocate(capacity: Self.comparedKeys * keyLevels)
    }

    @inline(__always) mutating func append(_ w: UInt64) {
        if count == capacity { grow() }
        words[count] = w
        count += 1
    }

    private mutating func grow() {
        capacity += capacity / 2 + 64
        words = realloc(words, capacity * 8)!.assumingMemoryBound(to: UInt64.self)
        HugePages.prefer(words, capacity * 8)
    }

    @inline(__always) mutating func skipSpace() {
        while pos < end {
            let c = p[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
        }
    }

    @inline(__always) func word(_ kind: TapeKind, at offset: Int, _ low: UInt64) -> UInt64 {
        UInt64(kind.rawValue) << TapeWord.kindShift | UInt64(offset) << TapeWord.offsetShift | low
    }

    /// Reads the value at `pos` (not a space); `keyBits` is `TapeWord.oddKey` for a member
    /// whose key is not plain.
    mutating func value(depth: Int, keyBits: UInt64) -> Bool {
        let start = pos
        switch p[pos] {
        case UInt8(ascii: "{"):
            return object(depth: depth, keyBits: keyBits)
        case UInt8(ascii: "["):
            return array(depth: depth, keyBits: keyBits)
        case UInt8(ascii: "\""):
            guard let flags = string() else { return false }
            let length = UInt64(min(pos - start - 2, Int(TapeWord.lengthMask)))
            append(word(.string, at: start, keyBits | flags | length))
        case UInt8(ascii: "t"):
            guard literal(0x6575_7274, 4) else { return false }  // "true"
            append(word(.true, at: start, keyBits))
        case UInt8(ascii: "f"):
            guard literal(0x736C_6166, 4), pos < end, p[pos] == UInt8(ascii: "e") else { return false }  // "fals" "e"
            pos += 1
            append(word(.false, at: start, keyBits))
        case UInt8(ascii: "n"):
            guard literal(0x6C6C_756E, 4) else { return false }  // "null"
            append(word(.null, at: start, keyBits))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let integer = number() else { return false }
            let length = UInt64(min(pos - start, Int(TapeWord.lengthMask)))
            append(word(.number, at: start, keyBits | (integer ? TapeWord.integer : 0) | length))
        default:
            return false
        }
        return true
    }

    /// Four bytes at `pos` equal to `text` (little-endian); moves past them.
    @inline(__always) mutating func literal(_ text: UInt32, _ n: Int) -> Bool {
        guard pos + n <= end, UnsafeRawPointer(p + pos).loadUnaligned(as: UInt32.self) == text else { return false }
        pos += n
        return true
    }

    /// Sets the size of the object or list whose word is at `at`, now that it is read.
    @inline(__always) mutating func close(_ at: Int, _ kind: TapeKind, _ start: Int, _ bits: UInt64) {
        var size = UInt64(count - at)
        if count - at >= longSize {
            longSizes[at] = count - at
            size = TapeWord.sizeMask
        }
        words[at] = word(kind, at: start, bits | size)
    }

    mutating func object(depth: Int, keyBits: UInt64) -> Bool {
        guard depth < maxDepth else { return false }
        let start = pos
        let at = count
        append(0)
        pos += 1
        skipSpace()
        if pos < end && p[pos] == UInt8(ascii: "}") {
            pos += 1
            close(at, .object, start, keyBits)
            return true
        }
        var careful = false
        if depth >= keyLevels {
            let levels = max(keyLevels * 2, depth + 1)
            let more = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.comparedKeys * levels)
            more.update(from: keys, count: Self.comparedKeys * keyLevels)
            keys.deallocate()
            keys = more
            keyLevels = levels
        }
        var n = 0
        while true {
            skipSpace()
            guard pos < end, p[pos] == UInt8(ascii: "\"") else { return false }
            let keyStart = pos
            guard let flags = string() else { return false }
            let plain = flags & (TapeWord.escaped | TapeWord.ascii) == TapeWord.ascii
            if !plain {
                careful = true
            } else if !careful {
                // The first 32 plain keys, compared with each other.
                let keyLength = pos - keyStart - 2
                if n == Self.comparedKeys {
                    careful = true
                } else {
                    // Found again for each key: a deeper object may have grown the buffer.
                    let compared = keys + Self.comparedKeys * depth
                    for k in 0..<n {
                        let other = compared[k]
                        if Int(other & 0xFFFF_FFFF) == keyLength, memcmp(p + Int(other >> 32), p + keyStart + 1, keyLength) == 0 {
                            careful = true
                            break
                        }
                    }
                    compared[n] = UInt64(keyStart + 1) << 32 | UInt64(keyLength)
                    n += 1
                }
            }
            skipSpace()
            guard pos < end, p[pos] == UInt8(ascii: ":") else { return false }
            pos += 1
            skipSpace()
            guard pos < end, value(depth: depth + 1, keyBits: plain ? 0 : TapeWord.oddKey) else { return false }
            skipSpace()
            guard pos < end else { return false }
            if p[pos] == UInt8(ascii: ",") {
                pos += 1
                continue
            }
            guard p[pos] == UInt8(ascii: "}") else { return false }
            pos += 1
            close(at, .object, start, keyBits | (careful ? TapeWord.careful : 0))
            return true
        }
    }

    mutating func array(depth: Int, keyBits: UInt64) -> Bool {
        guard depth < maxDepth else { return false }
        let start = pos
        let at = count
        append(0)
        pos += 1
        skipSpace()
        if pos < end && p[pos] == UInt8(ascii: "]") {
            pos += 1
            close(at, .array, start, keyBits)
            return true
        }
        while true {
            skipSpace()
            guard pos < end, value(depth: depth + 1, keyBits: 0) else { return false }
            skipSpace()
            guard pos < end else { return false }
            if p[pos] == UInt8(ascii: ",") {
                pos += 1
                continue
            }
            guard p[pos] == UInt8(ascii: "]") else { return false }
            pos += 1
            close(at, .array, start, keyBits)
            return true
        }
    }

    /// Whether `c` can be part of a number's text.
    @inline(__always) static func numberCharacter(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c | 0x20 == UInt8(ascii: "e")
    }

    @inline(__always) func isDigit(_ at: Int) -> Bool { at < end && p[at] &- 0x30 < 10 }

    /// Moves past a run of digits, eight bytes at a time while there are eight.
    @inline(__always) mutating func digits() {
        while pos + 8 <= end {
            let other = JSONText.nonDigitMask(UnsafeRawPointer(p + pos).loadUnaligned(as: UInt64.self))
            if other != 0 {
                pos += other.trailingZeroBitCount >> 3
                return
            }
            pos += 8
        }
        while isDigit(pos) { pos += 1 }
    }

    /// A number, as the reader's grammar has it; whether it is written as an integer, or nil.
    mutating func number() -> Bool? {
        if p[pos] == UInt8(ascii: "-") { pos += 1 }
        guard isDigit(pos) else { return nil }
        if p[pos] == 0x30 {
            pos += 1
        } else {
            digits()
        }
        var integer = true
        if pos < end && p[pos] == UInt8(ascii: ".") {
            integer = false
            pos += 1
            guard isDigit(pos) else { return nil }
            digits()
        }
        if pos < end && p[pos] | 0x20 == UInt8(ascii: "e") {
            integer = false
            pos += 1
            if pos < end && (p[pos] == UInt8(ascii: "+") || p[pos] == UInt8(ascii: "-")) { pos += 1 }
            guard isDigit(pos) else { return nil }
            digits()
        }
        return integer
    }

    /// A string from its opening quote to past its closing one: its flags (`TapeWord.escaped`,
    /// `.ascii`, `.asIs`), or nil when the reader would refuse it.
    mutating func string() -> UInt64? {
        pos += 1
        var escaped = false
        var ascii = true
        var special = false  // something the writer escapes: DEL, a C1 control, U+2028–U+202E, U+2066–U+2069
        while true {
            // Eight bytes at a time to the first one that needs a look; a closing quote with
            // nothing before it that needs one ends the string there.
            while pos + 8 <= end {
                let w = UnsafeRawPointer(p + pos).loadUnaligned(as: UInt64.self)
                let quote = JSONText.quoteMask(w)
                let other = JSONText.lookMask(w) & ~quote
                if quote | other == 0 {
                    pos += 8
                    continue
                }
                if quote != 0, other & ((quote & (0 &- quote)) &- 1) == 0 {
                    pos += quote.trailingZeroBitCount >> 3 + 1
                    return flags(escaped: escaped, ascii: ascii, special: special)
                }
                pos += other.trailingZeroBitCount >> 3
                break
            }
            guard pos < end else { return nil }
            let c = p[pos]
            if c == UInt8(ascii: "\"") {
                pos += 1
                return flags(escaped: escaped, ascii: ascii, special: special)
            }
            if c == UInt8(ascii: "\\") {
                escaped = true
                guard escape() else { return nil }
                continue
            }
            if c < 0x20 { return nil }
            if c < 0x7F {
                pos += 1
                continue
            }
            if c == 0x7F {
                special = true
                pos += 1
                continue
            }
            ascii = false
            let n: Int
            if checkUTF8 {
                n = UTF8Check.sequenceLength(p, at: pos, end: end)
                guard n > 0 else { return nil }
            } else {
                n = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4
            }
            if c == 0xC2 && p[pos + 1] <= 0x9F { special = true }
            if c == 0xE2
                && ((p[pos + 1] == 0x80 && (0xA8...0xAE).contains(p[pos + 2])) || (p[pos + 1] == 0x81 && (0xA6...0xA9).contains(p[pos + 2])))
            {
                special = true
            }
            pos += n
        }
    }

    /// A string's flags in its word.
    @inline(__always) func flags(escaped: Bool, ascii: Bool, special: Bool) -> UInt64 {
        (escaped ? TapeWord.escaped : 0) | (ascii ? TapeWord.ascii : 0) | (!escaped && !special ? TapeWord.asIs : 0)
    }

    /// One escape, from its backslash: the escapes and surrogate pairs the reader accepts.
    mutating func escape() -> Bool {
        guard let next = JSONText.escapeEnd(p, end, at: pos) else { return false }
        pos = next
        return true
    }
}
