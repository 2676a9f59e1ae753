/// The rules JSON text is read and written by, in one place for every reader and writer: the
/// tree reader (`JSON`), the tape (`JSONTape`) and the writers (`JSONWriter`) make numbers and
/// escape strings with these functions only, so that what one makes the other makes byte for byte.
enum JSONText {
    // MARK: reading

    /// Where the escape whose backslash is at `at` ends (the position after it), or nil when it
    /// is not one the reader accepts: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, or `\u`
    /// with four hex digits, a high surrogate only with its low one after it, a low one never
    /// alone. The scanners that check text without decoding it (the tape's, a path's) share it.
    static func escapeEnd(_ p: UnsafePointer<UInt8>, _ end: Int, at: Int) -> Int? {
        guard at + 1 < end else { return nil }
        let bytes = UnsafeBufferPointer(start: p, count: end)
        var pos = at + 2
        switch p[at + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return pos
        case UInt8(ascii: "u"):
            guard let code = JSONReader.hex4(bytes, at: pos) else { return nil }
            pos += 4
            if code >= 0xD800 && code <= 0xDBFF {
                guard pos + 1 < end, p[pos] == UInt8(ascii: "\\"), p[pos + 1] == UInt8(ascii: "u"),
                    let low = JSONReader.hex4(bytes, at: pos + 2), low >= 0xDC00 && low <= 0xDFFF
                else { return nil }
                return pos + 6
            }
            return code >= 0xDC00 && code <= 0xDFFF ? nil : pos
        default:
            return nil
        }
    }

    /// The value of the JSON number text `p[start..<end]` (already checked to be one): an
    /// integer when the text is one and fits 64 bits, otherwise the nearest double; beyond a
    /// double's range, the largest finite double, as jq does, so that it prints and reads back
    /// the same (an infinity has no JSON form).
    static func number(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, isInteger: Bool) -> Value {
        if isInteger {
            if end - start <= 18 {
                // Up to 18 characters cannot overflow: accumulate directly.
                var i = start
                let negative = p[i] == UInt8(ascii: "-")
                if negative { i += 1 }
                var n = 0
                while i < end {
                    n = n &* 10 &+ Int(p[i] &- 0x30)
                    i += 1
                }
                return .int(negative ? -n : n)
            }
            if let i = Int(String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)) {
                return .int(i)
            }
        }
        let d = DecimalToDouble.parse(p, start, end)
            ?? Double(String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)) ?? .nan
        if d.isInfinite { return .double(d < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude) }
        return .double(d)
    }

    // MARK: writing

    /// Writes the JSON number text `p[start..<end]` (already checked to be one) as `writeInt`
    /// or `writeDouble` writes the value `number` makes of it, without making the double's text
    /// when it can: a fraction whose digits are already the shortest that read back as its
    /// double (the text most writers of JSON make) is written from its digits.
    static func writeNumber(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, isInteger: Bool, into out: inout JSONOutput) {
        if !isInteger, let d = DecimalToDouble.decimal(p, start, end), let x = DecimalToDouble.nearest(d.significand, d.exponent),
            x >= 1e-3, x < 1e15, Double(Int(x)) != x, shortestDigits(d.significand, d.exponent, x)
        {
            // Written as `description` writes it already (a point, no exponent, no trailing zero,
            // and JSON has no leading zeros): copied.
            if p[end - 1] != UInt8(ascii: "0"), !(start..<end).contains(where: { p[$0] | 0x20 == UInt8(ascii: "e") }) {
                out.append(p + start, end - start)
            } else {
                writeFraction(d.significand, d.exponent, negative: d.negative, into: &out)
            }
            return
        }
        switch number(p, start, end, isInteger: isInteger) {
        case .int(let v): writeInt(v, into: &out)
        case .double(let v): writeDouble(v, into: &out)
        default: break
        }
    }

    /// Whether w × 10^q (which reads as `x`, a normal double between 10^-3 and 10^15) is the
    /// shortest decimal that reads back as `x` and, among the shortest, the nearest to it: what
    /// Swift's `description` writes. A decimal of up to 15 digits always is (any two of them read
    /// as two doubles). A longer one is when neither of its two neighbours one digit shorter
    /// reads as `x` and it is `x` rounded to its last digit, worked out exactly in 128 bits
    /// (a tie, or `x` a power of two, whose interval is lopsided, counts as "might not").
    private static func shortestDigits(_ w: UInt64, _ q: Int, _ x: Double) -> Bool {
        var w = w
        var q = q
        while w != 0, w % 10 == 0 {
            w /= 10
            q += 1
        }
        guard w >= 1_000_000_000_000_000 else { return true }  // up to 15 digits
        guard q < 0, q >= -27, x.significandBitPattern != 0 else { return false }
        func reads(_ v: UInt64, _ e: Int) -> Bool { DecimalToDouble.nearest(v, e).map { $0 == x } ?? true }
        if reads(w / 10, q + 1) || reads(w / 10 + 1, q + 1) { return false }
        // x / 10^q = m × 2^e × 5^-q × 2^-q: rounded to an integer, it must be w.
        let m = UInt128(x.significandBitPattern | 1 << 52)
        let shift = Int(x.exponent) - 52 - q
        var five: UInt128 = 1
        for _ in 0 ..< -q { five *= 5 }
        let n = m * five
        if shift >= 0 { return shift < 64 && n << shift == UInt128(w) }
        let s = -shift
        guard s < 127 else { return false }
        let half = UInt128(1) << (s - 1)
        let rest = n & ((half << 1) - 1)
        if rest == half { return false }
        return (n + half) >> s == UInt128(w)
    }

    /// Writes ± w × 10^q (q < 0, w without trailing zeros) as `description` writes a double
    /// between 10^-3 and 10^15: its digits with the point in place, `0.` before a fraction below 1.
    private static func writeFraction(_ w: UInt64, _ q: Int, negative: Bool, into out: inout JSONOutput) {
        var w = w
        var q = q
        while w != 0, w % 10 == 0 {
            w /= 10
            q += 1
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            let d = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var n = 0
            var m = w
            repeat {
                d[23 - n] = UInt8(truncatingIfNeeded: m % 10) &+ 0x30
                m /= 10
                n += 1
            } while m != 0
            let first = d + 24 - n
            let whole = n + q  // digits before the point
            out.reserve(n + 24)
            if negative { out.append(UInt8(ascii: "-")) }
            if whole <= 0 {
                out.append(UInt8(ascii: "0"))
                out.append(UInt8(ascii: "."))
                for _ in 0 ..< -whole { out.append(UInt8(ascii: "0")) }
                out.append(first, n)
            } else {
                out.append(first, whole)
                out.append(UInt8(ascii: "."))
                out.append(first + whole, n - whole)
            }
        }
    }

    /// For each byte of a string's UTF-8: 0 when it is written as it is, 1 when it is written
    /// as a short escape or `\u00XX`, 2 when it may start a sequence that is escaped (a C1
    /// control, U+2028–U+202E, U+2066–U+2069).
    private static let escapeClass: [UInt8] = (0..<256).map { c -> UInt8 in
        if c < 0x20 || c == 0x22 || c == 0x5C || c == 0x7F { return 1 }
        if c == 0xC2 || c == 0xE2 { return 2 }
        return 0
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes the text `p[0..<n]` (valid UTF-8) as a JSON string: quotes, backslashes and the
    /// short escapes (`\n \r \t \b \f`) as escapes, every other control character, DEL, the C1
    /// controls, U+2028/U+2029 and the bidirectional controls (U+202A–U+202E, U+2066–U+2069) as
    /// `\u` and four lower-case hex digits, so that a string can never inject terminal escape
    /// sequences or reorder what a terminal shows; everything else as it is.
    static func writeString(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout JSONOutput) {
        out.append(0x22)
        escapeClass.withUnsafeBufferPointer { table in
            var i = 0
            while i < n {
                // Room for the next stretch escaped at worst, six bytes a byte.
                let stretch = min(n - i, 4096)
                out.reserve(stretch * 6 + 8)
                var o = out.base + out.count
                let stop = i + stretch
                while i < stop {
                    // Eight bytes at a time up to the first that needs a look (all eight are
                    // stored: the room reserved allows it, and what follows overwrites them).
                    while i + 8 <= stop {
                        let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                        UnsafeMutableRawPointer(o).storeBytes(of: w, toByteOffset: 0, as: UInt64.self)
                        let look = lookMask(w)
                        if look != 0 {
                            let clean = look.trailingZeroBitCount >> 3
                            o += clean
                            i += clean
                            break
                        }
                        o += 8
                        i += 8
                    }
                    guard i < stop else { break }
                    let c = p[i]
                    switch table[Int(c)] {
                    case 0:
                        o.pointee = c
                        o += 1
                        i += 1
                    case 1:
                        o = escape(UInt32(c), at: o)
                        i += 1
                    default:
                        if c == 0xC2, i + 1 < n, p[i + 1] <= 0x9F {
                            o = escape(UInt32(p[i + 1]), at: o)
                            i += 2
                        } else if c == 0xE2, i + 2 < n,
                            (p[i + 1] == 0x80 && (0xA8...0xAE).contains(p[i + 2])) || (p[i + 1] == 0x81 && (0xA6...0xA9).contains(p[i + 2]))
                        {
                            // U+2028–U+202E (the line and paragraph separators, the bidirectional
                            // embeddings and overrides), U+2066–U+2069 (the isolates).
                            o = escape(UInt32(p[i + 1] & 0x3F) << 6 | UInt32(p[i + 2] & 0x3F) | 0x2000, at: o)
                            i += 3
                        } else {
                            o.pointee = c
                            o += 1
                            i += 1
                        }
                    }
                }
                out.advance(o - (out.base + out.count))
            }
        }
        out.append(0x22)
    }

    /// Whether any of the eight bytes in `w` is below 0x20, a quote, a backslash, or 0x7F and above.
    @inline(__always) static func needsLook(_ w: UInt64) -> Bool { lookMask(w) != 0 }

    /// The high bit of each of the eight bytes in `w` (little-endian) that is below 0x20, a
    /// quote, a backslash, or 0x7F and above; each byte is tested on its own (no carries), so the
    /// lowest bit set marks the first such byte.
    @inline(__always) static func lookMask(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let low7 = w & ~highs
        // A byte b < 0x80: b + 0x60 reaches 0x80 unless b < 0x20.
        let control = ~(low7 &+ 0x6060_6060_6060_6060) & highs
        // 0x7F and above: the high bit set, or b & 0x7F + 1 reaching 0x80.
        let high = (w | (low7 &+ ones)) & highs
        let q = w ^ 0x2222_2222_2222_2222
        let quote = ~((q & ~highs) &+ ~highs | q) & highs
        let b = w ^ 0x5C5C_5C5C_5C5C_5C5C
        let backslash = ~((b & ~highs) &+ ~highs | b) & highs
        return control | high | quote | backslash
    }

    /// The high bit of each of the eight bytes in `w` (little-endian) that is a quote, each byte
    /// tested on its own.
    @inline(__always) static func quoteMask(_ w: UInt64) -> UInt64 {
        let highs: UInt64 = 0x8080_8080_8080_8080
        let q = w ^ 0x2222_2222_2222_2222
        return ~((q & ~highs) &+ ~highs | q) & highs
    }

    /// The high bit of each of the eight bytes in `w` (little-endian) that is not an ASCII digit,
    /// each byte tested on its own.
    @inline(__always) static func nonDigitMask(_ w: UInt64) -> UInt64 {
        let highs: UInt64 = 0x8080_8080_8080_8080
        let t = w ^ 0x3030_3030_3030_3030  // a digit becomes 0...9
        // t > 9: t + 0x76 reaches 0x80 (for t < 0x80), or t has its high bit.
        return ((t & ~highs) &+ 0x7676_7676_7676_7676 | t) & highs
    }

    /// Writes the escape of code point `u` at `o`; returns where it ends.
    @inline(__always) private static func escape(_ u: UInt32, at o: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        o[0] = 0x5C
        switch u {
        case 0x22: o[1] = 0x22
        case 0x5C: o[1] = 0x5C
        case 0x0A: o[1] = UInt8(ascii: "n")
        case 0x0D: o[1] = UInt8(ascii: "r")
        case 0x09: o[1] = UInt8(ascii: "t")
        case 0x08: o[1] = UInt8(ascii: "b")
        case 0x0C: o[1] = UInt8(ascii: "f")
        default:
            o[1] = UInt8(ascii: "u")
            hexDigits.withUnsafeBufferPointer { h in
                o[2] = h[Int(u >> 12 & 0xF)]
                o[3] = h[Int(u >> 8 & 0xF)]
                o[4] = h[Int(u >> 4 & 0xF)]
                o[5] = h[Int(u & 0xF)]
            }
            return o + 6
        }
        return o + 2
    }

    /// Writes `s` as a JSON string (`writeString(_:_:into:)`).
    static func writeString(_ s: String, into out: inout JSONOutput) {
        var s = s
        s.withUTF8 { buf in
            if let p = buf.baseAddress {
                writeString(p, buf.count, into: &out)
            } else {
                out.append(0x22)
                out.append(0x22)
            }
        }
    }

    /// Writes an integer in decimal.
    static func writeInt(_ i: Int, into out: inout JSONOutput) {
        out.reserve(20)
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            let d = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var m = i.magnitude
            var k = 24
            repeat {
                k -= 1
                d[k] = UInt8(truncatingIfNeeded: m % 10) &+ 0x30
                m /= 10
            } while m != 0
            if i < 0 {
                k -= 1
                d[k] = UInt8(ascii: "-")
            }
            out.append(UnsafePointer(d + k), 24 - k)
        }
    }

    /// Writes a double: `null` when it is not finite, without a fraction when it is a whole
    /// number below 10^16, otherwise as the shortest text that reads back the same (Swift's
    /// `description` of it).
    static func writeDouble(_ d: Double, into out: inout JSONOutput) {
        if !d.isFinite {
            out.append(Self.null.withUnsafeBufferPointer { $0.baseAddress! }, 4)
        } else if abs(d) < 1e16, Double(Int(d)) == d {
            writeInt(Int(d), into: &out)
        } else {
            out.append(d.description)
        }
    }

    static let null: [UInt8] = Array("null".utf8)
    static let trueText: [UInt8] = Array("true".utf8)
    static let falseText: [UInt8] = Array("false".utf8)

    /// Writes `null`, `true` or `false`.
    static func writeLiteral(_ text: [UInt8], into out: inout JSONOutput) {
        text.withUnsafeBufferPointer { out.append($0.baseAddress!, $0.count) }
    }
}
