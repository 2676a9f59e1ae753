#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON document read into a tape: one flat array of 64-bit words, one word a value, in the
/// order the values come in the text, next to the text itself. Nothing else is made: strings
/// and numbers are read from the text when they are asked for, so a document takes its text and
/// eight bytes a value (about half of the text again for typical data) instead of a tree of
/// values (seven to eleven times the text).
///
/// A word is laid out as:
///
/// | bits | what |
/// |---|---|
/// | 61–63 | the kind (`TapeKind`) |
/// | 60 | for a member of an object: its key has an escape or a byte above 0x7F |
/// | 28–59 | where the value starts in the text (the `{`, `[`, opening quote, first character) |
/// | 0–27 | an object or a list: how many words it takes, itself included (the next value is that far on); bit 27 of an object: it may hold two equal keys or keys that are not plain ASCII |
/// | | a string: bit 27 it has escapes, bit 26 its bytes are ASCII, bit 25 it prints as it is written; bits 0–23 its length between the quotes |
/// | | a number: bit 27 it is written as an integer; bits 0–23 the length of its text |
///
/// A member's key is found from its value: back over the colon to the key's closing quote. The
/// tape is read only by `JSONTape.read`, which checks all of the text exactly as `JSON.parse`
/// does and gives nil for any text the reader refuses; what it reads from the text (strings,
/// numbers, keys) is what the reader makes of the same bytes.
///
/// Sendable: every field is a `let`, and nothing writes the words or the text once `read` has built
/// the tape; the compiler cannot see that through the raw pointers `text` and `words`.
public final class JSONTape: @unchecked Sendable {
    /// What keeps the text alive.
    private let storage: Storage
    /// The document's text (valid for the tape's life).
    let text: UnsafePointer<UInt8>
    /// Its length.
    let textCount: Int
    /// The words.
    let words: UnsafeMutablePointer<UInt64>
    /// How many words.
    let count: Int
    /// The size of each object or list whose size does not fit its word, by its index.
    let longSizes: [Int: Int]
    /// The nesting the text was read with (the reader's cap, for reading strings again).
    let maxDepth: Int

    enum Storage {
        case bytes([UInt8])
        case text(String)
        /// The text is lent for as long as its borrower keeps the tape (`lent`).
        case lent
    }

    private init(storage: Storage, text: UnsafePointer<UInt8>, textCount: Int, built: TapeBuilder.Built, maxDepth: Int) {
        self.storage = storage
        self.text = text
        self.textCount = textCount
        self.words = built.words
        self.count = built.count
        self.longSizes = built.longSizes
        self.maxDepth = maxDepth
    }

    deinit { free(words) }

    /// The tape of `bytes` whose words `built` holds (`JSONLinesTape`): the array keeps the
    /// text, and its storage does not move while the tape keeps it and nothing changes it.
    static func assembled(_ bytes: [UInt8], built: TapeBuilder.Built, maxDepth: Int) -> JSONTape {
        let base = bytes.withUnsafeBufferPointer { $0.baseAddress! }
        return JSONTape(storage: .bytes(bytes), text: base, textCount: bytes.count, built: built, maxDepth: maxDepth)
    }

    /// The tape of the `count` bytes at `text`, lent: the caller keeps them while it uses the
    /// tape, which frees the words of `built` when it goes.
    static func lent(_ text: UnsafePointer<UInt8>, count: Int, built: TapeBuilder.Built, maxDepth: Int) -> JSONTape {
        JSONTape(storage: .lent, text: text, textCount: count, built: built, maxDepth: maxDepth)
    }

    /// The largest text a tape can hold (its offsets have 32 bits).
    static let largestText = Int(UInt32.max)

    /// The document in `bytes`, or nil when it is not JSON as `JSON.parse` reads it, or too
    /// large for a tape (more than 4 GiB).
    public static func read(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONTape? {
        read(bytes, maxDepth: maxDepth, longSize: Int(TapeWord.sizeMask))
    }

    /// `read(_:maxDepth:)`, keeping in `longSizes` the sizes from `longSize` words (lower only
    /// in tests, to try what a document of more than 2^27 values does).
    static func read(_ bytes: [UInt8], maxDepth: Int, longSize: Int) -> JSONTape? {
        guard bytes.count > 0, bytes.count <= largestText else { return nil }
        // The array's storage does not move while the tape keeps the array and nothing changes it.
        // A byte order mark before the document is skipped, as `JSON.parse` skips it.
        let skip = byteOrderMark(bytes.withUnsafeBufferPointer { $0 }) ? 3 : 0
        let base = bytes.withUnsafeBufferPointer { $0.baseAddress! + skip }
        guard let built = TapeBuilder.build(base, bytes.count - skip, checkUTF8: true, maxDepth: maxDepth, longSize: longSize) else {
            return nil
        }
        return JSONTape(storage: .bytes(bytes), text: base, textCount: bytes.count - skip, built: built, maxDepth: maxDepth)
    }

    /// The document in `text`, or nil when it is not JSON or too large for a tape.
    public static func read(_ text: String, maxDepth: Int = 512) -> JSONTape? {
        // A string short enough to be kept inside its own value has no storage to point into.
        guard text.utf8.count > 15 else { return read(Array(text.utf8), maxDepth: maxDepth) }
        var text = text
        let (base, n) = text.withUTF8 { buffer in
            byteOrderMark(buffer) ? (buffer.baseAddress! + 3, buffer.count - 3) : (buffer.baseAddress!, buffer.count)
        }
        guard n <= largestText, let built = TapeBuilder.build(base, n, checkUTF8: false, maxDepth: maxDepth) else { return nil }
        return JSONTape(storage: .text(text), text: base, textCount: n, built: built, maxDepth: maxDepth)
    }

    /// Whether `bytes` start with a UTF-8 byte order mark.
    static func byteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// The root value.
    public var root: TapeValue { .node(TapeNode(tape: self, index: 0)) }

    // MARK: words

    @inline(__always) func kind(_ i: Int) -> TapeKind { TapeKind(rawValue: UInt8(truncatingIfNeeded: words[i] >> 61))! }

    @inline(__always) func offset(_ i: Int) -> Int { Int(truncatingIfNeeded: words[i] >> 28 & 0xFFFF_FFFF) }

    @inline(__always) func flag(_ i: Int, _ bit: UInt64) -> Bool { words[i] & bit != 0 }

    /// The index after the value at `i` (and all it holds).
    @inline(__always) func next(_ i: Int) -> Int {
        let w = words[i]
        guard w >> 61 >= TapeKind.array.rawValue else { return i + 1 }
        let size = Int(truncatingIfNeeded: w & TapeWord.sizeMask)
        return i + (size == Int(TapeWord.sizeMask) ? longSizes[i]! : size)
    }

    /// The number of elements of the list, or members of the object, at `i` (an object's
    /// equal keys counted once).
    func count(_ i: Int) -> Int {
        if kind(i) == .object, flag(i, TapeWord.careful) { return members(i).count }
        var n = 0
        var j = i + 1
        let end = next(i)
        while j < end {
            n += 1
            j = next(j)
        }
        return n
    }

    /// The index of the element at `position` of the list at `i`, or nil past its end.
    func element(_ i: Int, _ position: Int) -> Int? {
        var j = i + 1
        let end = next(i)
        var k = 0
        while j < end {
            if k == position { return j }
            k += 1
            j = next(j)
        }
        return nil
    }

    // MARK: keys

    @inline(__always) private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    /// The position of the closing quote of the key of the member whose value is at `i`.
    @inline(__always) func keyEnd(_ i: Int) -> Int {
        var q = offset(i) - 1
        while isSpace(text[q]) { q -= 1 }
        q -= 1  // the colon
        while isSpace(text[q]) { q -= 1 }
        return q
    }

    /// The position of the opening quote of the key that closes at `close`.
    func keyStart(_ i: Int, close: Int) -> Int {
        var k = close - 1
        if !flag(i, TapeWord.oddKey) {
            while text[k] != 0x22 { k -= 1 }
            return k
        }
        // A quote inside the key follows an odd number of backslashes; the opening one does not.
        while true {
            if text[k] == 0x22 {
                var slashes = 0
                while text[k - 1 - slashes] == 0x5C { slashes += 1 }
                if slashes % 2 == 0 { return k }
            }
            k -= 1
        }
    }

    /// The key of the member whose value is at `i`, as the reader makes it.
    func key(_ i: Int) -> String {
        let close = keyEnd(i)
        let open = keyStart(i, close: close)
        if !flag(i, TapeWord.oddKey) { return String(decoding: UnsafeBufferPointer(start: text + open + 1, count: close - open - 1), as: UTF8.self) }
        return readString(at: open)
    }

    /// Whether the plain key of the member at `i` is `wanted` (ASCII, no quote, backslash or
    /// control character), comparing bytes backwards from its closing quote.
    @inline(__always) func plainKeyEquals(_ i: Int, _ wanted: WantedKey) -> Bool {
        let close = keyEnd(i)
        let n = wanted.count
        if n <= 7, close >= 8 {
            // The key and its opening quote are the top n + 1 bytes of the eight before the
            // closing quote.
            return UnsafeRawPointer(text + close - 8).loadUnaligned(as: UInt64.self) & wanted.mask == wanted.tail
        }
        let start = close - n
        guard start >= 1, text[start - 1] == 0x22 else { return false }
        return memcmp(text + start, wanted.bytes, n) == 0
    }

    /// Whether `key` can be looked for as a plain key (`WantedKey`): not empty, ASCII, no quote,
    /// backslash or control character.
    static func isPlainKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }
    }

    /// A plain key to look for, ready to compare (`plainKeyEquals`).
    struct WantedKey {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        /// For up to seven bytes: the quote and the key as the top bytes of a little-endian word.
        let tail: UInt64
        /// Which bytes of that word count.
        let mask: UInt64

        init(_ p: UnsafeBufferPointer<UInt8>) {
            bytes = p.baseAddress!
            count = p.count
            var tail: UInt64 = 0
            var mask: UInt64 = 0
            if count <= 7 {
                // Byte 7 - count is the quote, bytes 8 - count... 7 the key.
                let first = 7 - count
                tail = UInt64(0x22) << UInt64(first * 8)
                mask = UInt64(0xFF) << UInt64(first * 8)
                for k in 0..<count {
                    tail |= UInt64(p[k]) << UInt64((first + 1 + k) * 8)
                    mask |= UInt64(0xFF) << UInt64((first + 1 + k) * 8)
                }
            }
            self.tail = tail
            self.mask = mask
        }
    }

    /// The index of the value of member `key` of the object at `i`, or nil: the last of equal
    /// keys, as a record read from the text keeps the last value (keys equal as Swift's strings
    /// are, the test a record makes).
    func member(_ i: Int, _ key: String) -> Int? {
        let careful = flag(i, TapeWord.careful)
        let end = next(i)
        if Self.isPlainKey(key) {
            var wantedText = key
            return wantedText.withUTF8 { buffer -> Int? in
                let wanted = WantedKey(buffer)
                var found: Int? = nil
                var j = i + 1
                while j < end {
                    if !flag(j, TapeWord.oddKey) {
                        if plainKeyEquals(j, wanted) {
                            if !careful { return j }
                            found = j
                        }
                    } else if self.key(j) == key {
                        found = j
                    }
                    j = next(j)
                }
                return found
            }
        }
        var found: Int? = nil
        var j = i + 1
        while j < end {
            if self.key(j) == key {
                if !careful { return j }
                found = j
            }
            j = next(j)
        }
        return found
    }

    /// The members of the object at `i` in the order a record read from the text has them:
    /// each key at its first place, with the value of its last.
    func members(_ i: Int) -> [(key: String, index: Int)] {
        var out: [(key: String, index: Int)] = []
        var j = i + 1
        let end = next(i)
        if !flag(i, TapeWord.careful) {
            while j < end {
                out.append((key(j), j))
                j = next(j)
            }
            return out
        }
        var position: [String: Int] = [:]
        while j < end {
            let k = key(j)
            if let p = position[k] {
                out[p].index = j
            } else {
                position[k] = out.count
                out.append((k, j))
            }
            j = next(j)
        }
        return out
    }

    // MARK: scalars

    /// The string whose opening quote is at `at`, read by the reader.
    func readString(at: Int) -> String {
        var reader = JSONReader(bytes: UnsafeBufferPointer(start: text, count: textCount), maxDepth: maxDepth)
        reader.pos = at
        return (try? reader.string()) ?? ""
    }

    /// The length between the quotes of the string at `i`.
    @inline(__always) func stringLength(_ i: Int) -> Int {
        let n = Int(truncatingIfNeeded: words[i] & TapeWord.lengthMask)
        if n != Int(TapeWord.lengthMask) { return n }
        // Too long for the word: find the closing quote (one that no backslash escapes).
        var k = offset(i) + 1
        while true {
            if text[k] == 0x5C {
                k += 2
                continue
            }
            if text[k] == 0x22 { return k - offset(i) - 1 }
            k += 1
        }
    }

    /// The string at `i`.
    func string(_ i: Int) -> String {
        let at = offset(i)
        if flag(i, TapeWord.escaped) { return readString(at: at) }
        return String(decoding: UnsafeBufferPointer(start: text + at + 1, count: stringLength(i)), as: UTF8.self)
    }

    /// The length of the text of the number at `i`.
    @inline(__always) func numberLength(_ i: Int) -> Int {
        let n = Int(truncatingIfNeeded: words[i] & TapeWord.lengthMask)
        if n != Int(TapeWord.lengthMask) { return n }
        let at = offset(i)
        var k = at
        while k < textCount, TapeBuilder.numberCharacter(text[k]) { k += 1 }
        return k - at
    }

    /// The number at `i`, as the reader makes it: `.int` or `.double`.
    @inline(__always) func number(_ i: Int) -> Value {
        let at = offset(i)
        return JSONText.number(text, at, at + numberLength(i), isInteger: flag(i, TapeWord.integer))
    }

    /// The value at `i` made into a `Value`, as the reader would have made it.
    public func value(_ i: Int) -> Value {
        switch kind(i) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return number(i)
        case .string: return .string(string(i))
        case .array:
            var list: [Value] = []
            var j = i + 1
            let end = next(i)
            while j < end {
                list.append(value(j))
                j = next(j)
            }
            return .list(list)
        case .object:
            var record = Record(minimumCapacity: 4)
            var j = i + 1
            let end = next(i)
            let careful = flag(i, TapeWord.careful)
            while j < end {
                if careful { record[key(j)] = value(j) } else { record.appendUnchecked(key(j), value(j)) }
                j = next(j)
            }
            return .record(record)
        }
    }
}

/// The kind of a tape's word.
enum TapeKind: UInt8 {
    case null = 0, `false`, `true`, number, string, array, object
}

/// The bits of a tape's word (`JSONTape`).
enum TapeWord {
    static let kindShift: UInt64 = 61
    static let offsetShift: UInt64 = 28
    /// A member whose key has an escape or a byte above 0x7F.
    static let oddKey: UInt64 = 1 << 60
    /// An object's or a list's size in words; all ones: in `longSizes`.
    static let sizeMask: UInt64 = (1 << 27) - 1
    /// An object that may hold equal keys, or keys that are not plain ASCII.
    static let careful: UInt64 = 1 << 27
    /// A string with escapes.
    static let escaped: UInt64 = 1 << 27
    /// A string whose bytes are all ASCII.
    static let ascii: UInt64 = 1 << 26
    /// A string that prints as it is written: no escapes, nothing the writer escapes.
    static let asIs: UInt64 = 1 << 25
    /// A number written as an integer.
    static let integer: UInt64 = 1 << 27
    /// A string's or a number's length; all ones: longer, found in the text.
    static let lengthMask: UInt64 = (1 << 24) - 1
}
