/// The bytes the parser tells apart.
let SPACE = UInt8(ascii: " "), TAB = UInt8(ascii: "\t"), NL = UInt8(ascii: "\n"), CR = UInt8(ascii: "\r")
let PIPE = UInt8(ascii: "|"), SEMI = UInt8(ascii: ";"), AMP = UInt8(ascii: "&"), HASH = UInt8(ascii: "#")
let LPAREN = UInt8(ascii: "("), RPAREN = UInt8(ascii: ")"), LBRACK = UInt8(ascii: "["), RBRACK = UInt8(ascii: "]")
let LBRACE = UInt8(ascii: "{"), RBRACE = UInt8(ascii: "}"), COMMA = UInt8(ascii: ","), COLON = UInt8(ascii: ":")
let DQUOTE = UInt8(ascii: "\""), SQUOTE = UInt8(ascii: "'"), DOLLAR = UInt8(ascii: "$"), PERCENT = UInt8(ascii: "%")
let BACKSLASH = UInt8(ascii: "\\"), DASH = UInt8(ascii: "-"), DOT = UInt8(ascii: "."), EQUALS = UInt8(ascii: "=")
let BACKTICK = UInt8(ascii: "`")

/// True for a byte that can start a name: an ASCII letter or `_`.
func isIdentStart(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == UInt8(ascii: "_")
}
/// True for a byte that can continue a name: an ASCII letter, digit or `_`.
func isIdent(_ b: UInt8) -> Bool { isIdentStart(b) || (b >= 0x30 && b <= 0x39) }
/// True for an ASCII digit.
func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

/// What ends a bare word where it stands.
enum Context { case statement, group, list, record }

/// The parser's cursor over the source's bytes, and how deep it is nested. The parsing itself
/// is in extensions: statements, pipelines and stages, arguments, literals, words and strings.
struct ParserState {
    /// The text parsed, for diagnostics.
    let source: SourceText
    /// The text's UTF-8 bytes.
    let b: [UInt8]
    /// The offset of the next byte to read.
    var pos = 0
    /// How many brackets, groups and literals enclose `pos` (at most `Parser.maxDepth`).
    var depth = 0
    /// What the parser remembers of what it read (`ParserMemory`): out of line, so that the
    /// state is a few words, which a debug build copies in every frame of the recursion.
    let memory = ParserMemory()
    /// How many words `ParserMemory.sharedWords` keeps.
    static let sharedWordLimit = 4096

    /// A parser at the start of `source`.
    init(_ source: SourceText) {
        self.source = source
        self.b = source.bytes
    }

    // MARK: Scanning

    /// True once every byte has been read.
    var atEnd: Bool { pos >= b.count }
    /// The next byte, or 0 at the end.
    var peek: UInt8 { pos < b.count ? b[pos] : 0 }
    /// The byte `k` after the next one, or 0 past the end.
    func peek(_ k: Int) -> UInt8 { pos + k < b.count ? b[pos + k] : 0 }
    /// The next character as an error message shows it (`newline`, `end of input`).
    var peekChar: String {
        if atEnd { return "end of input" }
        if peek == NL { return "newline" }
        return String(decoding: b[pos..<min(b.count, pos + max(1, utf8Length(peek)))], as: UTF8.self)
    }

    /// The length of the UTF-8 sequence that `lead` starts.
    func utf8Length(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    }

    /// Skips spaces and comments; newlines too when `newlines`.
    mutating func skipBlank(newlines: Bool) {
        while !atEnd {
            let c = peek
            if c == SPACE || c == TAB || c == CR {
                pos += 1
            } else if c == NL && newlines {
                pos += 1
            } else if c == BACKSLASH && peek(1) == NL {
                pos += 2  // an explicit line continuation
            } else if c == HASH {
                while !atEnd && peek != NL { pos += 1 }
            } else {
                break
            }
        }
    }

    /// Consumes `word` if it stands here as a whole word followed by a space.
    mutating func keyword(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard pos + w.count < b.count, Array(b[pos..<pos + w.count]) == w else { return false }
        let after = b[pos + w.count]
        guard after == SPACE || after == TAB else { return false }
        pos += w.count
        return true
    }

    /// The text of the bytes from `s` up to `e`.
    func text(_ s: Int, _ e: Int) -> String { String(decoding: b[s..<e], as: UTF8.self) }

    // MARK: Diagnostics

    /// A syntax error at `offset` (spanning one byte unless `end` is given); `incomplete` when more
    /// input could complete the program.
    func error(_ message: String, at offset: Int, end: Int? = nil, incomplete: Bool = false) -> SyntaxError {
        let (l, c) = source.lineColumn(of: offset)
        return SyntaxError(message: message, span: SourceSpan(start: offset, end: end ?? min(b.count, offset + 1)), line: l, column: c, isIncomplete: incomplete)
    }
}
