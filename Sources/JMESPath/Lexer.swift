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
    /// The source's bytes when it is all ASCII (then a character's offset is its byte's), so that
    /// names are made from bytes rather than characters; nil otherwise.
    private let ascii: [UInt8]?
    private var pos = 0

    /// Tokenizes `source`, ending with `.eof`. With `legacyLiterals`, a backtick literal that is
    /// not JSON is read as a string (`` `foo` `` is `"foo"`), as before JEP-12.
    static func tokenize(_ source: String, legacyLiterals: Bool = false) throws(JMESPathError) -> [Token] {
        let bytes = Array(source.utf8)
        let ascii = bytes.allSatisfy { $0 < 0x80 } ? bytes : nil
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

    private mutating func next() throws(JMESPathError) -> Token {
        while let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" { pos += 1 }
        let start = pos
        guard let c = peek() else { return Token(kind: .eof, offset: start) }
        if isIdentifierStart(c) { return Token(kind: .unquotedIdentifier(identifier()), offset: start) }
        func one(_ k: TokenKind) -> Token { pos += 1; return Token(kind: k, offset: start) }
        func two(_ k: TokenKind) -> Token { pos += 2; return Token(kind: k, offset: start) }
        switch c {
        case ".": return one(.dot)
        case "*": return one(.star)
        case "]": return one(.rbracket)
        case "{": return one(.lbrace)
        case "}": return one(.rbrace)
        case "(": return one(.lparen)
        case ")": return one(.rparen)
        case ",": return one(.comma)
        case ":": return one(.colon)
        case "@": return one(.current)
        case "+": return one(.plus)
        case "%": return one(.modulo)
        case "?": return one(.question)
        case "\u{2212}": return one(.minus)
        case "\u{D7}": return one(.multiply)
        case "\u{F7}": return one(.divide)
        case "/": return peek(1) == "/" ? two(.intDivide) : one(.divide)
        case "$":
            if let next = peek(1), isIdentifierStart(next) {
                pos += 1
                return Token(kind: .variable(identifier()), offset: start)
            }
            return one(.root)
        case "[":
            if peek(1) == "]" { return two(.flatten) }
            if peek(1) == "?" { return two(.filter) }
            return one(.lbracket)
        case "|": return peek(1) == "|" ? two(.or) : one(.pipe)
        case "&": return peek(1) == "&" ? two(.and) : one(.expref)
        case "!": return peek(1) == "=" ? two(.ne) : one(.not)
        case "<": return peek(1) == "=" ? two(.lte) : one(.lt)
        case ">": return peek(1) == "=" ? two(.gte) : one(.gt)
        case "=": return peek(1) == "=" ? two(.eq) : one(.assign)
        case "\"":
            return Token(kind: .quotedIdentifier(try quoted(start)), offset: start)
        case "'":
            return Token(kind: .rawString(try rawString(start)), offset: start)
        case "`":
            return Token(kind: .literal(try literal(start)), offset: start)
        case "-", "0"..."9":
            // `-` right before a digit is a negative number (`[-1]`); otherwise it is minus.
            if c == "-", !(peek(1).map(isDigit) ?? false) { return one(.minus) }
            pos += 1
            while let d = peek(), isDigit(d) { pos += 1 }
            let text = String(chars[start..<pos])
            guard let n = Int(text) else { throw syntax("number \(text) is too large", at: start) }
            return Token(kind: .number(n), offset: start)
        default:
            throw syntax("unexpected character '\(c)'", at: start)
        }
    }

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
