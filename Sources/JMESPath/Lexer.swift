// The lexer: expression text to tokens, each with its character offset for error carets.

/// A token kind. Literal payloads (names, numbers, JSON) travel with the kind.
enum TokenKind: Sendable {
    case unquotedIdentifier(String)
    case quotedIdentifier(String)
    case rawString(String)
    case literal(Literal)
    case number(Int)
    /// `$name`, without the `$`.
    case variable(String)
    case dot, star, flatten, filter, lbracket, rbracket, lbrace, rbrace, lparen, rparen
    case comma, colon, pipe, or, and, not, expref, current, root
    case eq, ne, lt, lte, gt, gte
    /// `+`, `-` (and U+2212 MINUS SIGN), `×` (U+00D7; `*` is `star`), `/` (and U+00F7 `÷`), `//`, `%`.
    case plus, minus, multiply, divide, intDivide, modulo
    case question, assign
    case eof

    /// Binding power for the Pratt parser (how tightly the token binds to its left).
    var bindingPower: Int {
        switch self {
        case .pipe: return 1
        case .question: return 2
        case .or: return 3
        case .and: return 4
        case .eq, .ne, .lt, .lte, .gt, .gte: return 5
        case .plus, .minus: return 6
        case .multiply, .divide, .intDivide, .modulo: return 7
        case .flatten: return 9
        // In an operator's place `*` can only multiply (a wildcard is a `*` that starts an
        // expression or follows `.` or `[`), so it binds as `×` does: `a / b * c` is `(a / b) * c`.
        case .star: return 7
        case .filter: return 21
        case .dot: return 40
        case .not: return 45
        case .lbrace: return 50
        case .lbracket: return 55
        case .lparen: return 60
        default: return 0
        }
    }

    /// How the token reads in an error message.
    var display: String {
        switch self {
        case .unquotedIdentifier(let s): return "identifier '\(s)'"
        case .quotedIdentifier(let s): return "quoted identifier \"\(s)\""
        case .rawString(let s): return "raw string '\(s)'"
        case .literal: return "literal"
        case .number(let n): return "number \(n)"
        case .variable(let name): return "variable $\(name)"
        case .dot: return "'.'"
        case .star: return "'*'"
        case .flatten: return "'[]'"
        case .filter: return "'[?'"
        case .lbracket: return "'['"
        case .rbracket: return "']'"
        case .lbrace: return "'{'"
        case .rbrace: return "'}'"
        case .lparen: return "'('"
        case .rparen: return "')'"
        case .comma: return "','"
        case .colon: return "':'"
        case .pipe: return "'|'"
        case .or: return "'||'"
        case .and: return "'&&'"
        case .not: return "'!'"
        case .expref: return "'&'"
        case .current: return "'@'"
        case .root: return "'$'"
        case .plus: return "'+'"
        case .minus: return "'-'"
        case .multiply: return "'×'"
        case .divide: return "'/'"
        case .intDivide: return "'//'"
        case .modulo: return "'%'"
        case .question: return "'?'"
        case .assign: return "'='"
        case .eq: return "'=='"
        case .ne: return "'!='"
        case .lt: return "'<'"
        case .lte: return "'<='"
        case .gt: return "'>'"
        case .gte: return "'>='"
        case .eof: return "the end of the expression"
        }
    }
}

/// A token and where it starts.
struct Token: Sendable {
    let kind: TokenKind
    /// Character offset of the token's first character.
    let offset: Int
}

/// Splits an expression into tokens (all at once; expressions are short).
struct Lexer {
    private let chars: [Character]
    /// The source's bytes when it is all ASCII without a carriage return (then a character's
    /// offset is its byte's), so that tokens are read from bytes rather than characters; nil
    /// otherwise.
    private let ascii: [UInt8]?
    private var pos = 0

    /// Tokenizes `source`, ending with `.eof`. With `legacyLiterals`, a backtick literal that is
    /// not JSON is read as a string (`` `foo` `` is `"foo"`), as before JEP-12.
    static func tokenize(_ source: String, legacyLiterals: Bool = false) throws(JMESPathError) -> [Token] {
        let bytes = Array(source.utf8)
        // A carriage return may join a line feed into one character ("\r\n"): then a byte's
        // offset is not its character's.
        let ascii = bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D } ? bytes : nil
        var lexer = Lexer(chars: Array(source), ascii: ascii, legacyLiterals: legacyLiterals)
        var tokens: [Token] = []
        while true {
            let t = try lexer.next()
            tokens.append(t)
            if case .eof = t.kind { return tokens }
        }
    }

    private let legacyLiterals: Bool

    private init(chars: [Character], ascii: [UInt8]?, legacyLiterals: Bool) {
        self.chars = chars
        self.ascii = ascii
        self.legacyLiterals = legacyLiterals
    }

    private func syntax(_ message: String, at offset: Int) -> JMESPathError {
        JMESPathError(kind: .syntax, message: message, offset: offset)
    }

    private func peek(_ n: Int = 0) -> Character? { pos + n < chars.count ? chars[pos + n] : nil }

    /// The character `n` ahead as an ASCII byte, or nil past the end or for any other character
    /// (from the bytes, when the source is all ASCII).
    private func peekASCII(_ n: Int = 0) -> UInt8? {
        if let ascii { return pos + n < ascii.count ? ascii[pos + n] : nil }
        return peek(n)?.asciiValue
    }

    private mutating func next() throws(JMESPathError) -> Token {
        // ("\r\n" is one character, whose ASCII value is a line feed's.)
        while let a = peekASCII(), a == 0x20 || a == 0x09 || a == 0x0A || a == 0x0D { pos += 1 }
        let start = pos
        guard let c = peek() else { return Token(kind: .eof, offset: start) }
        func one(_ k: TokenKind) -> Token { pos += 1; return Token(kind: k, offset: start) }
        func two(_ k: TokenKind) -> Token { pos += 2; return Token(kind: k, offset: start) }
        // Compared as bytes: comparing characters costs a string comparison each.
        guard let a = peekASCII() else {
            switch c {
            case "\u{2212}": return one(.minus)
            case "\u{D7}": return one(.multiply)
            case "\u{F7}": return one(.divide)
            default: throw syntax("unexpected character '\(c)'", at: start)
            }
        }
        if Self.isNameStart(a) { return Token(kind: .unquotedIdentifier(identifier()), offset: start) }
        let next = peekASCII(1)
        switch a {
        case UInt8(ascii: "."): return one(.dot)
        case UInt8(ascii: "*"): return one(.star)
        case UInt8(ascii: "]"): return one(.rbracket)
        case UInt8(ascii: "{"): return one(.lbrace)
        case UInt8(ascii: "}"): return one(.rbrace)
        case UInt8(ascii: "("): return one(.lparen)
        case UInt8(ascii: ")"): return one(.rparen)
        case UInt8(ascii: ","): return one(.comma)
        case UInt8(ascii: ":"): return one(.colon)
        case UInt8(ascii: "@"): return one(.current)
        case UInt8(ascii: "+"): return one(.plus)
        case UInt8(ascii: "%"): return one(.modulo)
        case UInt8(ascii: "?"): return one(.question)
        case UInt8(ascii: "/"): return next == UInt8(ascii: "/") ? two(.intDivide) : one(.divide)
        case UInt8(ascii: "$"):
            if let n = next, Self.isNameStart(n) {
                pos += 1
                return Token(kind: .variable(identifier()), offset: start)
            }
            return one(.root)
        case UInt8(ascii: "["):
            if next == UInt8(ascii: "]") { return two(.flatten) }
            if next == UInt8(ascii: "?") { return two(.filter) }
            return one(.lbracket)
        case UInt8(ascii: "|"): return next == UInt8(ascii: "|") ? two(.or) : one(.pipe)
        case UInt8(ascii: "&"): return next == UInt8(ascii: "&") ? two(.and) : one(.expref)
        case UInt8(ascii: "!"): return next == UInt8(ascii: "=") ? two(.ne) : one(.not)
        case UInt8(ascii: "<"): return next == UInt8(ascii: "=") ? two(.lte) : one(.lt)
        case UInt8(ascii: ">"): return next == UInt8(ascii: "=") ? two(.gte) : one(.gt)
        case UInt8(ascii: "="): return next == UInt8(ascii: "=") ? two(.eq) : one(.assign)
        case UInt8(ascii: "\""):
            return Token(kind: .quotedIdentifier(try quoted(start)), offset: start)
        case UInt8(ascii: "'"):
            return Token(kind: .rawString(try rawString(start)), offset: start)
        case UInt8(ascii: "`"):
            return Token(kind: .literal(try literal(start)), offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // `-` right before a digit is a negative number (`[-1]`); otherwise it is minus.
            if a == UInt8(ascii: "-"), !(next.map(Self.isDigit) ?? false) { return one(.minus) }
            pos += 1
            while let d = peekASCII(), Self.isDigit(d) { pos += 1 }
            let text = ascii.map { String(decoding: $0[start..<pos], as: UTF8.self) } ?? String(chars[start..<pos])
            guard let n = Int(text) else { throw syntax("number \(text) is too large", at: start) }
            return Token(kind: .number(n), offset: start)
        default:
            throw syntax("unexpected character '\(c)'", at: start)
        }
    }

    /// `[A-Za-z_]`.
    private static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    /// `[0-9]`.
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// Reads `[A-Za-z_][A-Za-z0-9_]*` from the current position.
    private mutating func identifier() -> String {
        let start = pos
        pos += 1
        if let ascii {
            while pos < ascii.count, Self.isNamePart(ascii[pos]) { pos += 1 }
            return String(decoding: ascii[start..<pos], as: UTF8.self)
        }
        while let d = peek(), isIdentifierStart(d) || isDigit(d) { pos += 1 }
        return String(chars[start..<pos])
    }

    /// `[A-Za-z0-9_]`.
    private static func isNamePart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || (b >= 0x30 && b <= 0x39)
    }

    private func isDigit(_ c: Character) -> Bool {
        guard let a = c.asciiValue else { return false }
        return a >= 0x30 && a <= 0x39
    }

    private func isIdentifierStart(_ c: Character) -> Bool {
        guard let a = c.asciiValue else { return false }
        return (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) || a == 0x5F
    }

    /// Reads `"..."` as a JSON string.
    private mutating func quoted(_ start: Int) throws(JMESPathError) -> String {
        pos += 1
        while true {
            guard let c = peek() else { throw syntax("unterminated quoted identifier (missing closing '\"')", at: start) }
            pos += 1
            if c == "\\" { guard peek() != nil else { continue }; pos += 1; continue }
            if c == "\"" { break }
        }
        switch JSONReader.parseString(String(chars[start..<pos])) {
        case .success(let s): return s
        case .failure(let e): throw syntax("invalid quoted identifier: \(e.message)", at: start)
        }
    }

    /// Reads `'...'`: `\'` is a quote and `\\` a backslash; any other backslash stays as written.
    private mutating func rawString(_ start: Int) throws(JMESPathError) -> String {
        pos += 1
        var out = ""
        while true {
            guard let c = peek() else { throw syntax("unterminated raw string (missing closing \"'\")", at: start) }
            pos += 1
            if c == "'" { return out }
            if c == "\\", let next = peek(), next == "'" || next == "\\" { out.append(next); pos += 1; continue }
            out.append(c)
        }
    }

    /// Reads `` `...` `` as JSON; `` \` `` is an escaped backtick, and a backslash followed by
    /// anything else is kept with what follows it (so `` `"\\"` `` ends at its second backtick).
    private mutating func literal(_ start: Int) throws(JMESPathError) -> Literal {
        pos += 1
        var text = ""
        while true {
            guard let c = peek() else { throw syntax("unterminated literal (missing closing '`')", at: start) }
            pos += 1
            if c == "`" { break }
            if c == "\\", let next = peek() {
                pos += 1
                if next != "`" { text.append(c) }
                text.append(next)
                continue
            }
            text.append(c)
        }
        let blank = text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        if blank && !legacyLiterals {
            throw syntax("empty literal: expected JSON between the backticks", at: start)
        }
        switch JSONReader.parse(text) {
        case .success(let v): return v
        case .failure(let e):
            // Before JEP-12, text that is not JSON was a string: `foo` is "foo", leading
            // whitespace dropped, JSON escapes still read.
            if legacyLiterals, case .success(let s) = JSONReader.parseString("\"" + String(text.drop(while: \.isWhitespace)) + "\"") {
                return .string(s)
            }
            throw syntax("invalid JSON literal: \(e.message)", at: start)
        }
    }
}
