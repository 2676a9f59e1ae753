// The regular expressions `matches` and `regex_replace` accept: a subset of the syntax that
// ECMAScript (with the `u` flag) and Swift's Regex share, with ECMAScript's meaning, checked and
// translated here into an equivalent Swift pattern.
//
// The subset (docs/language.md has the definitions): literal code points; `.`; `\d \D \w \W \s
// \S`; `\b \B`; `^ $` (start and end of the whole subject); classes `[…]`, `[^…]` with ranges and
// `\d \w \s` inside; groups `(…)`, `(?:…)`, lookaheads `(?=…)`, `(?!…)`; alternation `|`;
// quantifiers `* + ? {n} {n,} {n,m}`, each optionally lazy (`?`); escapes `\n \r \t \f \v`,
// `\xHH`, `\uHHHH`, `\u{H…}` and a backslash before any of `^ $ \ . * + ? ( ) [ ] { } | /` (and
// `-` in a class). Anything else is refused, so that a pattern means the same in both engines.

/// A pattern of the subset, translated.
struct RegexPattern: Sendable {
    /// The equivalent pattern in Swift's Regex syntax (to be matched by code point).
    let swift: String
    /// The number of capturing groups.
    let groups: Int
    /// The capturing groups (numbered from 1) that lie inside a repeated group or a lookahead,
    /// whose text ECMAScript and Swift can report differently.
    let ambiguous: Set<Int>

    /// Checks and translates `pattern`; the message says what is wrong and where.
    init(_ pattern: String) throws(RegexSyntaxError) {
        var p = RegexTranslator(Array(pattern.unicodeScalars))
        try p.alternatives(depth: 0)
        guard p.at == p.chars.count else { throw p.fail("unmatched ')'") }
        swift = p.out
        groups = p.groups
        ambiguous = p.ambiguous
    }
}

/// A pattern outside the subset.
struct RegexSyntaxError: Error {
    /// What is wrong, and at which code point.
    let message: String
}

/// The recursive-descent reader of the subset, writing the Swift pattern as it goes.
private struct RegexTranslator {
    let chars: [Unicode.Scalar]
    var at = 0
    var out = ""
    var groups = 0
    var ambiguous: Set<Int> = []

    init(_ chars: [Unicode.Scalar]) { self.chars = chars }

    /// The deepest nesting of groups accepted.
    static let maxDepth = 100
    /// The largest count a `{n,m}` quantifier may give.
    static let maxCount = 1000

    /// ECMAScript's `\s`: WhiteSpace and LineTerminator (U+2000 and U+2001 apart: see `range`).
    static let space = #"\u{9}-\u{D}\u{20}\u{A0}\u{1680}\u{2000}\u{2001}\u{2002}-\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}"#
    static let digit = "0-9"
    static let word = "A-Za-z0-9_"

    func fail(_ message: String) -> RegexSyntaxError {
        RegexSyntaxError(message: "\(message) at character \(at + 1) of the pattern")
    }

    var peek: Unicode.Scalar? { at < chars.count ? chars[at] : nil }

    /// `a|b|…` up to a `)` or the end.
    mutating func alternatives(depth: Int) throws(RegexSyntaxError) {
        guard depth <= Self.maxDepth else { throw fail("groups nested too deeply") }
        while true {
            try sequence(depth: depth)
            guard peek == "|" else { return }
            at += 1
            out += "|"
        }
    }

    /// Terms up to a `|`, a `)` or the end.
    mutating func sequence(depth: Int) throws(RegexSyntaxError) {
        while let c = peek, c != "|", c != ")" {
            let groupsBefore = groups
            let (repeatable, group) = try term(depth: depth)
            if let q = peek, q == "*" || q == "+" || q == "?" || q == "{" {
                guard repeatable else { throw fail("nothing to repeat before '\(q)'") }
                try quantifier()
                // A group inside a repeated term: when it does not take part in the last
                // repetition, ECMAScript reports no text and Swift an earlier repetition's. A
                // repeated group itself holds its last repetition in both.
                if groups > groupsBefore {
                    for n in groupsBefore + 1...groups where n != group { ambiguous.insert(n) }
                }
            }
        }
    }

    /// One atom or assertion: whether a quantifier may follow it, and its number when it is a
    /// capturing group.
    mutating func term(depth: Int) throws(RegexSyntaxError) -> (Bool, Int?) {
        guard let c = peek else { throw fail("unexpected end") }
        at += 1
        switch c {
        case "^": out += #"\A"#; return (false, nil)
        case "$": out += #"\z"#; return (false, nil)
        case ".": out += #"[^\n\r\u{2028}\u{2029}]"#; return (true, nil)
        case "[": try characterClass(); return (true, nil)
        case "(":
            var kind = "("
            var capturing = true
            var lookahead = false
            if peek == "?" {
                capturing = false
                guard at + 1 < chars.count else { throw fail("unterminated group") }
                switch chars[at + 1] {
                case ":": kind = "(?:"
                case "=": kind = "(?="; lookahead = true
                case "!": kind = "(?!"; lookahead = true
                default: throw fail("'(?\(chars[at + 1])' is not supported (only (?: (?= (?!)")
                }
                at += 2
            }
            var number = 0
            if capturing {
                groups += 1
                number = groups
            }
            let groupsBefore = groups
            out += kind
            try alternatives(depth: depth + 1)
            guard peek == ")" else { throw fail("missing ')'") }
            at += 1
            out += ")"
            // Groups inside a lookahead: not supported alike either.
            if lookahead && groups >= groupsBefore + 1 {
                for n in groupsBefore + 1...groups { ambiguous.insert(n) }
            }
            return (!lookahead, capturing ? number : nil)
        case "\\":
            return (try escape(), nil)
        case "*", "+", "?", "{":
            throw fail("nothing to repeat before '\(c)'")
        case "]", "}", ")":
            throw fail("'\(c)' must be escaped as '\\\(c)'")
        default:
            out += Self.literal(c)
            return (true, nil)
        }
    }

    /// After `\` outside a class.
    mutating func escape() throws(RegexSyntaxError) -> Bool {
        guard let c = peek else { throw fail("'\\' at the end of the pattern") }
        at += 1
        switch c {
        case "b": out += #"\b"#; return false
        case "B": out += #"\B"#; return false
        case "d": out += "[\(Self.digit)]"
        case "D": out += "[^\(Self.digit)]"
        case "w": out += "[\(Self.word)]"
        case "W": out += "[^\(Self.word)]"
        case "s": out += "[\(Self.space)]"
        case "S": out += "[^\(Self.space)]"
        default: out += Self.literal(try escapedCodePoint(c, inClass: false))
        }
        return true
    }

    /// The code point an escape `\c…` stands for (`c` already read).
    mutating func escapedCodePoint(_ c: Unicode.Scalar, inClass: Bool) throws(RegexSyntaxError) -> Unicode.Scalar {
        switch c {
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        case "x": return try hex(count: 2)
        case "u":
            if peek == "{" {
                at += 1
                let start = at
                while let h = peek, h.properties.isASCIIHexDigit { at += 1 }
                guard at > start, at - start <= 6, peek == "}" else { throw fail("'\\u{' takes 1 to 6 hex digits and '}'") }
                let value = UInt32(String(String.UnicodeScalarView(chars[start..<at])), radix: 16) ?? 0
                at += 1
                return try codePoint(value)
            }
            return try hex(count: 4)
        case "^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/":
            return c
        case "-" where inClass:
            return c
        default:
            throw fail("'\\\(c)' is not supported")
        }
    }

    mutating func hex(count: Int) throws(RegexSyntaxError) -> Unicode.Scalar {
        guard at + count <= chars.count, chars[at..<at + count].allSatisfy({ $0.properties.isASCIIHexDigit }) else {
            throw fail("expected \(count) hex digits")
        }
        let value = UInt32(String(String.UnicodeScalarView(chars[at..<at + count])), radix: 16) ?? 0
        at += count
        return try codePoint(value)
    }

    func codePoint(_ value: UInt32) throws(RegexSyntaxError) -> Unicode.Scalar {
        guard let u = Unicode.Scalar(value) else { throw fail("\\u escapes a surrogate or a value past U+10FFFF") }
        return u
    }

    /// After `[`: the class up to `]`.
    mutating func characterClass() throws(RegexSyntaxError) {
        out += "["
        if peek == "^" {
            at += 1
            out += "^"
        }
        var items = 0
        while true {
            guard let c = peek else { throw fail("missing ']'") }
            if c == "]" {
                at += 1
                break
            }
            // A '-' is literal only first or last.
            if c == "-" && items > 0 && at + 1 < chars.count && chars[at + 1] != "]" {
                throw fail("a '-' in a class is literal only first or last (or escaped as '\\-')")
            }
            guard let low = try classAtom() else {
                items += 1
                continue
            }
            if peek == "-", at + 1 < chars.count, chars[at + 1] != "]" {
                at += 1
                guard let high = try classAtom() else { throw fail("a range cannot end in a class escape") }
                guard low.value <= high.value else { throw fail("range out of order") }
                out += Self.range(low, high)
            } else {
                out += Self.literal(low)
            }
            items += 1
        }
        guard items > 0 else { throw fail("an empty class matches nothing ('[]' is not supported)") }
        out += "]"
    }

    /// One code point of a class, or nil for `\d \w \s` (written out already).
    mutating func classAtom() throws(RegexSyntaxError) -> Unicode.Scalar? {
        guard let c = peek else { throw fail("missing ']'") }
        at += 1
        switch c {
        case "\\":
            guard let e = peek else { throw fail("'\\' at the end of the pattern") }
            at += 1
            switch e {
            case "d": out += Self.digit; return nil
            case "w": out += Self.word; return nil
            case "s": out += Self.space; return nil
            case "D", "W", "S", "b", "B": throw fail("'\\\(e)' is not supported in a class")
            default: return try escapedCodePoint(e, inClass: true)
            }
        case "[":
            throw fail("'[' in a class must be escaped as '\\['")
        default:
            return c
        }
    }

    /// `* + ? {n} {n,} {n,m}`, then an optional `?` (lazy).
    mutating func quantifier() throws(RegexSyntaxError) {
        let c = chars[at]
        at += 1
        if c == "{" {
            func number() -> Int? {
                let start = at
                while let d = peek, d.properties.numericType == .decimal, d.isASCII { at += 1 }
                guard at > start, at - start <= 4 else { return nil }
                return Int(String(String.UnicodeScalarView(chars[start..<at])))
            }
            guard let low = number() else { throw fail("'{' must start a quantifier {n}, {n,} or {n,m}") }
            var text = "{\(low)"
            if peek == "," {
                at += 1
                text += ","
                if peek != "}" {
                    guard let high = number(), high >= low else { throw fail("expected {n,m} with n ≤ m") }
                    guard high <= Self.maxCount else { throw fail("a count above \(Self.maxCount)") }
                    text += "\(high)"
                }
            }
            guard low <= Self.maxCount else { throw fail("a count above \(Self.maxCount)") }
            guard peek == "}" else { throw fail("missing '}' in a quantifier") }
            at += 1
            out += text + "}"
        } else {
            out.unicodeScalars.append(c)
        }
        if peek == "?" {
            at += 1
            out += "?"
        }
        if let q = peek, q == "*" || q == "+" || q == "?" || q == "{" { throw fail("nothing to repeat before '\(q)'") }
    }

    /// The range `low`…`high` in Swift's syntax. Swift refuses a range whose end changes under
    /// Unicode normalization (U+2000 becomes U+2002): such ends are written as code points of
    /// their own, and the range starts or stops next to them.
    static func range(_ low: Unicode.Scalar, _ high: Unicode.Scalar) -> String {
        func unstable(_ v: UInt32) -> Bool { Unicode.Scalar(v)?.properties.isFullCompositionExclusion ?? false }
        var lo = low.value, hi = high.value
        var out = ""
        while lo <= hi, unstable(lo), let u = Unicode.Scalar(lo) {
            out += literal(u)
            lo += 1
        }
        while hi > lo, unstable(hi), let u = Unicode.Scalar(hi) {
            out += literal(u)
            hi -= 1
        }
        guard lo <= hi, let a = Unicode.Scalar(lo), let b = Unicode.Scalar(hi) else { return out }
        return out + (lo == hi ? literal(a) : literal(a) + "-" + literal(b))
    }

    /// A literal code point in Swift's syntax: letters and digits as they are, everything else as
    /// `\u{…}`, so that nothing is read as an operator.
    static func literal(_ c: Unicode.Scalar) -> String {
        if c.isASCII, c.properties.isAlphabetic || c.properties.numericType == .decimal { return String(c) }
        return "\\u{\(String(c.value, radix: 16))}"
    }
}
