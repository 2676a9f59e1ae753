/// UTF-8 validation without making a string: what `String(validating:)` accepts (no overlong
/// forms, no surrogates, nothing past U+10FFFF), for text that is only checked, not copied.
public enum UTF8Check {
    /// Whether all of `bytes` is valid UTF-8. Runs of ASCII are checked eight bytes at a time.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = bytes.baseAddress else { return true }
        let end = bytes.count
        var pos = 0
        while pos < end {
            while pos + 8 <= end {
                let word = UnsafeRawPointer(p + pos).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                pos += 8
            }
            guard pos < end else { return true }
            if p[pos] < 0x80 {
                pos += 1
                continue
            }
            let n = sequenceLength(p, at: pos, end: end)
            guard n > 0 else { return false }
            pos += n
        }
        return true
    }

    /// The length of the valid multi-byte sequence whose lead byte is at `at`, or 0 when the
    /// bytes there are not one.
    @inline(__always)
    static func sequenceLength(_ p: UnsafePointer<UInt8>, at: Int, end: Int) -> Int {
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let more: Int
        switch p[at] {
        case 0xC2...0xDF: more = 1
        case 0xE0:
            more = 2
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: more = 2
        case 0xED:
            more = 2
            high = 0x9F
        case 0xF0:
            more = 3
            low = 0x90
        case 0xF1...0xF3: more = 3
        case 0xF4:
            more = 3
            high = 0x8F
        default: return 0
        }
        guard at + more < end else { return 0 }
        guard p[at + 1] >= low && p[at + 1] <= high else { return 0 }
        var k = 2
        while k <= more {
            guard p[at + k] >= 0x80 && p[at + k] <= 0xBF else { return 0 }
            k += 1
        }
        return more + 1
    }
}
