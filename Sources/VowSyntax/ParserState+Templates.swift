/// Words and strings: bare words and "double-quoted" strings as templates (`{…}`, `$name`,
/// `${name.PATH}`), the variable references inside them, and 'single-quoted' strings as written.
extension ParserState {
    /// `name`, or with `path` `name.PATH`, after a `$` (pos just past the `$`). Inside a word or
    /// a double-quoted string a variable's name ends where the identifier ends (`"$f.json"` is
    /// f's value followed by `.json`, as in every shell) and `${name.PATH}` reaches into it; a
    /// whole argument `$name.PATH` is the part of the value PATH names.
    mutating func variableRef(path withPath: Bool = true) -> (String, String?)? {
        let s = pos
        if peek == UInt8(ascii: "_") && !isIdent(peek(1)) {
            pos += 1
        } else if isDigit(peek) {
            while !atEnd && isDigit(peek) { pos += 1 }
        } else if isIdentStart(peek) {
            while !atEnd && isIdent(peek) { pos += 1 }
        } else {
            return nil
        }
        let name = text(s, pos)
        guard withPath else { return (name, nil) }
        // A path: .ident, [ … ] repeated.
        let ps = pos
        while !atEnd {
            if peek == DOT && isIdentStart(peek(1)) {
                pos += 1
                while !atEnd && isIdent(peek) { pos += 1 }
            } else if peek == LBRACK {
                var d = 0
                let save = pos
                while !atEnd {
                    if peek == LBRACK { d += 1 }
                    if peek == RBRACK {
                        d -= 1
                        if d == 0 { pos += 1; break }
                    }
                    if peek == NL { break }
                    pos += 1
                }
                if d != 0 {
                    pos = save
                    break
                }
            } else {
                break
            }
        }
        var path: String? = nil
        if pos > ps {
            var p = text(ps, pos)
            if p.hasPrefix(".") { p.removeFirst() }
            path = p
        }
        return (name, path)
    }

    /// A bare word, with `{…}` and `$name` interpolation; brackets inside it must balance.
    mutating func word(context: Context) throws(SyntaxError) -> Template {
        var parts: [Template.Part] = []
        var lit: [UInt8] = []
        var bracket = 0
        let start = pos
        func flush() {
            if !lit.isEmpty {
                parts.append(.literal(String(decoding: lit, as: UTF8.self)))
                lit.removeAll()
            }
        }
        while !atEnd {
            let c = peek
            if c == SPACE || c == TAB || c == NL || c == CR || c == PIPE || c == SEMI { break }
            if bracket == 0 {
                if c == RPAREN || c == RBRACK { break }
                if c == COMMA && (context == .list || context == .record) { break }
                if c == RBRACE && context == .record { break }
                if c == AMP && (peek(1) == 0 || peek(1) == SPACE || peek(1) == NL || peek(1) == SEMI) && pos > start { break }
            }
            if c == LBRACE && pos > start || (c == LBRACE && pos == start && peek(1) == RBRACE) {
                let part = try inputInterpolation(stoppingAt: nil, unclosed: "unclosed '{' in the word (expected '}')")
                flush()
                parts.append(part)
                continue
            }
            if atVariable {
                flush()
                if let part = try variableInterpolation() { parts.append(part) }
                continue
            }
            if c == SQUOTE || c == BACKTICK, pos > start {
                // Quotes inside a word (JMESPath 'literal' or `json`) are part of it.
                let q = c
                lit.append(c)
                pos += 1
                while !atEnd && peek != q && peek != NL {
                    lit.append(peek)
                    pos += 1
                }
                if peek == q {
                    lit.append(q)
                    pos += 1
                }
                continue
            }
            if c == LBRACK || c == LPAREN || c == LBRACE { bracket += 1 }
            if c == RBRACK || c == RPAREN || c == RBRACE {
                if bracket == 0 { break }
                bracket -= 1
            }
            lit.append(c)
            pos += 1
        }
        if bracket > 0 { throw error("unbalanced brackets in '\(text(start, pos))'", at: start, end: pos, incomplete: atEnd) }
        if pos == start { throw error("unexpected '\(peekChar)'", at: pos) }
        flush()
        return Template(parts: parts)
    }

    /// `{}` or `{PATH}` (pos at the `{`): the input, or the part of it PATH names. `unclosed` is
    /// the error when no `}` closes it before the end or before `stop`.
    mutating func inputInterpolation(stoppingAt stop: UInt8?, unclosed: String) throws(SyntaxError) -> Template.Part {
        let open = pos
        pos += 1
        let s = pos
        skipToClosingBrace(stoppingAt: stop)
        guard peek == RBRACE else { throw error(unclosed, at: open, incomplete: atEnd) }
        let path = text(s, pos).trimmingSpaces
        pos += 1
        return .input(path: path.isEmpty ? nil : path)
    }

    /// Whether pos is at a `$` that starts a variable: `$name`, `$0` or `${…}`.
    var atVariable: Bool { peek == DOLLAR && (isIdentStart(peek(1)) || isDigit(peek(1)) || peek(1) == LBRACE) }

    /// `$name` or `${name.PATH}` (pos at the `$`, `atVariable` true); nil when no name follows.
    mutating func variableInterpolation() throws(SyntaxError) -> Template.Part? {
        pos += 1
        if peek == LBRACE { return try bracedVariable() }
        guard let (name, _) = variableRef(path: false) else { return nil }
        return .variable(name: name, path: nil)
    }

    /// Moves pos from just inside a `{` to the `}` that closes it, counting nested braces;
    /// stops early at the end of the input or at `stop`.
    private mutating func skipToClosingBrace(stoppingAt stop: UInt8?) {
        var d = 1
        while !atEnd && d > 0 && peek != stop {
            if peek == LBRACE { d += 1 }
            if peek == RBRACE { d -= 1 }
            if d > 0 { pos += 1 }
        }
    }

    /// `${name.PATH}` (pos at the `{`).
    mutating func bracedVariable() throws(SyntaxError) -> Template.Part {
        let open = pos - 1
        pos += 1
        let s = pos
        skipToClosingBrace(stoppingAt: NL)
        guard peek == RBRACE else { throw error("unclosed '${' (expected '}')", at: open, incomplete: atEnd) }
        let inner = text(s, pos)
        pos += 1
        var nameEnd = inner.startIndex
        while nameEnd < inner.endIndex, inner[nameEnd].isLetter || inner[nameEnd].isNumber || inner[nameEnd] == "_" { nameEnd = inner.index(after: nameEnd) }
        let name = String(inner[..<nameEnd])
        if name.isEmpty { throw error("expected a variable name in '${…}'", at: open) }
        var path = String(inner[nameEnd...])
        if path.hasPrefix(".") { path.removeFirst() }
        return .variable(name: name, path: path.isEmpty ? nil : path)
    }

    /// The text of a 'single-quoted' string, as written: no escapes, no interpolation (pos at the
    /// opening quote).
    mutating func singleQuoted() throws(SyntaxError) -> String {
        let start = pos
        pos += 1
        let s = pos
        while !atEnd && peek != SQUOTE { pos += 1 }
        if atEnd { throw error("unclosed ' (expected a closing ')", at: start, incomplete: true) }
        let str = text(s, pos)
        pos += 1
        return str
    }

    /// A "double-quoted" string (pos at the opening quote).
    mutating func doubleQuoted() throws(SyntaxError) -> Template {
        let start = pos
        pos += 1
        var parts: [Template.Part] = []
        var lit: [UInt8] = []
        func flush() {
            if !lit.isEmpty {
                parts.append(.literal(String(decoding: lit, as: UTF8.self)))
                lit.removeAll()
            }
        }
        while true {
            if atEnd { throw error("unclosed \" (expected a closing \")", at: start, incomplete: true) }
            let c = peek
            if c == DQUOTE {
                pos += 1
                break
            }
            if c == BACKSLASH {
                let escAt = pos
                pos += 1
                if atEnd { throw error("unclosed \" (expected a closing \")", at: start, incomplete: true) }
                let e = peek
                pos += 1
                switch e {
                case DQUOTE: lit.append(DQUOTE)
                case BACKSLASH: lit.append(BACKSLASH)
                case UInt8(ascii: "n"): lit.append(NL)
                case UInt8(ascii: "t"): lit.append(TAB)
                case UInt8(ascii: "r"): lit.append(CR)
                case LBRACE: lit.append(LBRACE)
                case RBRACE: lit.append(RBRACE)
                case DOLLAR: lit.append(DOLLAR)
                case UInt8(ascii: "u"):
                    guard pos + 4 <= b.count, let code = UInt32(text(pos, pos + 4), radix: 16) else {
                        throw error("\\u needs four hex digits", at: escAt, end: min(b.count, escAt + 6))
                    }
                    pos += 4
                    var scalar = Unicode.Scalar(code)
                    if (0xD800...0xDBFF).contains(code), peek == BACKSLASH, peek(1) == UInt8(ascii: "u"),
                        pos + 6 <= b.count, let low = UInt32(text(pos + 2, pos + 6), radix: 16), (0xDC00...0xDFFF).contains(low)
                    {
                        scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
                        pos += 6
                    }
                    guard let scalar else { throw error("\\u\(text(escAt + 2, escAt + 6)) is not a Unicode scalar", at: escAt, end: escAt + 6) }
                    lit.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("unknown escape '\\\(String(decoding: [e], as: UTF8.self))' (use \\\" \\\\ \\n \\t \\r \\uXXXX \\{ \\} \\$)", at: escAt, end: pos)
                }
                continue
            }
            if c == LBRACE {
                let part = try inputInterpolation(
                    stoppingAt: DQUOTE, unclosed: "unclosed '{' in the string (expected '}'; write \\{ for a literal brace)")
                flush()
                parts.append(part)
                continue
            }
            if atVariable {
                flush()
                if let part = try variableInterpolation() { parts.append(part) }
                continue
            }
            lit.append(c)
            pos += 1
        }
        flush()
        return Template(parts: parts)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
