/// How many terminal columns text takes: East Asian wide and fullwidth characters and emoji take
/// two, combining marks and other zero-width scalars none, everything else one.
public enum DisplayWidth {
    /// The columns `s` takes on a terminal.
    public static func of(_ s: String) -> Int {
        var total = 0
        for c in s { total += of(c) }
        return total
    }

    /// The columns one character (a grapheme cluster) takes.
    public static func of(_ c: Character) -> Int {
        var width = 0
        for (i, u) in c.unicodeScalars.enumerated() {
            if u.value == 0xFE0F { return 2 }  // emoji presentation selector
            let w = of(u)
            if i == 0 { width = w } else if w == 2 { width = 2 }
        }
        return width
    }

    /// The columns one scalar takes on its own.
    static func of(_ u: Unicode.Scalar) -> Int {
        let v = u.value
        if v == 0 { return 0 }
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B || (0x1160...0x11FF).contains(v) { return 0 }  // zero-width space, Hangul medial vowels
        if u.properties.isEmojiPresentation { return 2 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
        {
            return 2
        }
        return 1
    }

    /// `s` cut to at most `width` columns, ending in `…` when something was cut.
    public static func truncate(_ s: String, to width: Int) -> String {
        guard of(s) > width else { return s }
        guard width > 0 else { return "" }
        var out = ""
        var used = 0
        for c in s {
            let w = of(c)
            if used + w > width - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }
}
