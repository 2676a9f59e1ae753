/// Decimal text to the nearest double, quickly, for the numbers of JSON text.
///
/// `Double(String)` goes through the C library's `strtod` and takes about 150 ns a number, most
/// of a large document's reading when it is full of fractions. Most numbers are decided exactly
/// far faster: a significand of at most 2^53 with a power of ten up to 10^22 is one correctly
/// rounded multiplication or division (Clinger), and any significand of up to 19 digits is
/// decided by one or two 64×128-bit products with a table of powers of five (Eisel and Lemire's
/// method), which also says when it cannot decide. What is left (more than 19 significant
/// digits, the rare undecided product) goes to `Double(String)`, so the result is always the
/// one `Double(String)` gives: the double nearest the text, halves to even.
enum DecimalToDouble {
    /// The double nearest the JSON number text `p[start..<end]` (already checked to be one),
    /// or nil when only `Double(String)` can say. An infinity is returned as it is.
    static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        guard let d = decimal(p, start, end), let magnitude = nearest(d.significand, d.exponent) else { return nil }
        return d.negative ? -magnitude : magnitude
    }

    /// The JSON number text `p[start..<end]` as ± significand × 10^exponent, the significand
    /// its digits without the leading zeros; nil when it has more than 19 of them. Runs of digits
    /// are read eight at a time.
    static func decimal(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (significand: UInt64, exponent: Int, negative: Bool)? {
        var i = start
        let negative = p[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var w: UInt64 = 0
        var digits = 0
        var scale = 0  // the power of ten the fraction's digits take away
        // The integer part: a lone zero, or digits without a leading zero.
        if p[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            let run = digitsEnd(p, i, end)
            digits = run - i
            guard digits <= 19 else { return nil }
            w = value(p, i, run)
            i = run
        }
        if i < end, p[i] == UInt8(ascii: ".") {
            i += 1
            var first = i
            if digits == 0 {
                // Leading zeros of a fraction below 1 are not significant.
                while i < end, p[i] == UInt8(ascii: "0") { i += 1 }
                scale = i - first
                first = i
            }
            let run = digitsEnd(p, i, end)
            let n = run - first
            guard digits + n <= 19 else { return nil }
            if n > 0 { w = w &* powersOfTen[n] &+ value(p, first, run) }
            digits += n
            scale += n
            i = run
        }
        var exponent = 0
        if i < end, p[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var exponentNegative = false
            if p[i] == UInt8(ascii: "-") {
                exponentNegative = true
                i += 1
            } else if p[i] == UInt8(ascii: "+") {
                i += 1
            }
            while i < end, p[i] &- 0x30 < 10 {
                // Far beyond any double's range either way: stop growing.
                if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] &- 0x30) }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        return (w, exponent - scale, negative)
    }

    /// 10^0 to 10^19.
    private static let powersOfTen: [UInt64] = (0...19).map { k in (0..<k).reduce(1) { r, _ in r * 10 } }

    /// Where the run of digits from `i` ends (at most at `end`).
    @inline(__always) private static func digitsEnd(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        var i = i
        while i + 8 <= end {
            let other = JSONText.nonDigitMask(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
            if other != 0 { return i + other.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < end, p[i] &- 0x30 < 10 { i += 1 }
        return i
    }

    /// The digits `p[from..<to]` (at most 19) as a number, eight at a time.
    @inline(__always) private static func value(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> UInt64 {
        var w: UInt64 = 0
        var k = from
        while k + 8 <= to {
            // Eight digits, the first in the lowest byte: pairs, then fours, then all eight.
            var v = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self) & 0x0F0F_0F0F_0F0F_0F0F
            v = (v &* 2561) >> 8 & 0x00FF_00FF_00FF_00FF
            v = (v &* 6_553_601) >> 16 & 0x0000_FFFF_0000_FFFF
            v = (v &* 42_949_672_960_001) >> 32
            w = w &* 100_000_000 &+ v
            k += 8
        }
        while k < to {
            w = w &* 10 &+ UInt64(p[k] &- 0x30)
            k += 1
        }
        return w
    }

    /// Exact powers of ten that a double holds.
    private static let exactPowers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// The double nearest w × 10^q (w below 10^19), or nil when the method cannot decide.
    static func nearest(_ w: UInt64, _ q: Int) -> Double? {
        if w == 0 || q < smallestPowerOfTen { return 0 }
        if q > largestPowerOfTen { return .infinity }
        if w <= 1 << 53, q >= -22, q <= 22 {
            // Both exact: one correctly rounded operation.
            return q >= 0 ? Double(w) * exactPowers[q] : Double(w) / exactPowers[-q]
        }
        let lz = w.leadingZeroBitCount
        let wn = w << UInt64(lz)
        let index = 2 * (q - smallestPowerOfTen)
        let (high, low) = powersOfFive.withUnsafeBufferPointer { table -> (UInt64, UInt64) in
            var (h, l) = wn.multipliedFullWidth(by: table[index])
            if h & 0x1FF == 0x1FF {
                // The product's low bits could change the rounding: add the next 64 bits.
                let second = wn.multipliedFullWidth(by: table[index + 1]).high
                let (sum, carry) = l.addingReportingOverflow(second)
                l = sum
                if carry { h &+= 1 }
            }
            return (h, l)
        }
        if low == .max, q < -27 || q > 55 { return nil }
        let upper = high >> 63
        let shift = upper + 9
        var mantissa = high >> shift
        var power2 = (((152_170 + 65_536) * q) >> 16) + 63 + Int(upper) - lz + 1023
        if power2 <= 0 {
            // Subnormal, or zero.
            if -power2 + 1 >= 64 { return 0 }
            mantissa >>= UInt64(-power2 + 1)
            mantissa += mantissa & 1
            mantissa >>= 1
            power2 = mantissa < 1 << 52 ? 0 : 1
            return Double(bitPattern: UInt64(power2) << 52 | (mantissa & ((1 << 52) - 1)))
        }
        if low <= 1, q >= -4, q <= 23, mantissa & 3 == 1, mantissa << shift == high {
            // Exactly halfway: to even.
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        if power2 >= 0x7FF { return .infinity }
        return Double(bitPattern: UInt64(power2) << 52 | mantissa)
    }
}
