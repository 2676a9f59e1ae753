/// What the twin's writer reads of and does to the text it has written: byte by byte, as the
/// text of a million-stage pipeline is tens of megabytes (Foundation's `replacingOccurrences`,
/// `contains` and a `Regex` over it took three quarters of the time to write such a twin).
enum TwinText {
    /// `text` with each line after the first indented by two spaces (each `\n` followed by
    /// them), as a statement sits in the twin's async function.
    static func indented(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        var first = true
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if !first { out += "\n  " }
            first = false
            out += Substring(line)
        }
        return out
    }

    /// True when `needle` occurs in `text`, its bytes compared (as Foundation's `contains`
    /// compares UTF-16, where `String.contains` compares characters). A scan for the needle's
    /// first byte: the standard library's generic `firstRange(of:)` made a million-stage twin
    /// take 33 s to write, where this takes 7.
    static func contains(_ text: Substring, _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard let head = n.first else { return true }
        let bytes = text.utf8
        var i = bytes.startIndex
        while let at = bytes[i...].firstIndex(of: head) {
            if bytes[at...].starts(with: n) { return true }
            i = bytes.index(after: at)
        }
        return false
    }

    /// The highest `N` of the script arguments `$N` (N from 1, no leading zero) that `text`
    /// names, nil for none: `$` and the number, not followed by an ASCII letter, digit or `_`
    /// (as a word boundary ends it; anything else, a byte of a non-ASCII character included,
    /// ends it too, which at worst declares an argument the twin does not read).
    static func highestNumberedArgument(in text: String) -> Int? {
        var highest: Int? = nil
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "$"), i + 1 < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[i + 1]) else {
                i += 1
                continue
            }
            var j = i + 1
            var value = 0
            var overflow = false
            while j < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) {
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (plus, o2) = times.addingReportingOverflow(Int(bytes[j] - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                value = plus
                j += 1
            }
            if !overflow, j == bytes.count || !isWordByte(bytes[j]) { highest = max(highest ?? value, value) }
            i = j
        }
        return highest
    }

    /// An ASCII letter, digit or `_`.
    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
    }
}
