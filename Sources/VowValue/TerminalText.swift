/// Text from outside (a body, a file, a header, a server's message) made safe to show on a
/// terminal: every control character but newline and tab, DEL, and the C1 controls are written
/// as `\u{1b}`, so no byte of data can move the cursor, clear the screen, set the window title or
/// ring the bell; the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) are
/// written so too, so that `invoice\u{202e}fdp.exe` cannot pass for `invoiceexe.pdf`. Only vow's
/// own colours reach the terminal raw. A byte of a file name that is not UTF-8 is shown as `\xff`.
public enum TerminalText {
    /// True for a character that a terminal would act on rather than show.
    @inline(__always)
    static func isControl(_ u: Unicode.Scalar) -> Bool {
        (u.value < 0x20 && u != "\n" && u != "\t") || u.value == 0x7F || (0x80..<0xA0).contains(u.value)
            || (u.value >= 0x202A && (u.value <= 0x202E || (0x2066...0x2069).contains(u.value) || FileName.isByte(u)))
    }

    /// How a control character is shown: `\u{1b}`, or `\xff` for a byte of a file name that is
    /// not UTF-8 (`FileName`).
    static func escaped(_ u: Unicode.Scalar) -> String {
        if FileName.isByte(u) {
            let b = FileName.byte(u)
            return "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16)
        }
        return "\\u{\(String(u.value, radix: 16))}"
    }

    /// `s` with its control characters (newline and tab excepted) written as `\u{XX}`.
    public static func visible(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for u in s.unicodeScalars {
            if isControl(u) {
                out += escaped(u)
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// `s` on one line: as `visible`, and newlines and tabs written as `\n` and `\t` too (a
    /// header value, a table cell, a progress line).
    public static func visibleLine(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { isControl($0) || $0 == "\n" || $0 == "\t" }) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where isControl(u): out += escaped(u)
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
