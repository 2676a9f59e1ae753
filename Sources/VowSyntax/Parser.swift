/// Parses vow source into a `Program`.
///
/// One pass over the UTF-8 bytes with a hand-written scanner: what ends a word depends on where
/// it stands (a `,` ends a word inside a list literal, not in a URL), so tokens are read on
/// demand by the parser rather than by a separate lexer. Nesting is capped at 256 levels, so no
/// input can exhaust the stack.
public enum Parser {
    /// The deepest nesting of brackets, groups and literals accepted.
    public static let maxDepth = 256

    /// Parses a whole program. Nothing runs when this throws.
    public static func parse(_ source: SourceText) throws(SyntaxError) -> Program {
        var p = ParserState(source)
        return Program(statements: try p.program(), source: source)
    }

    /// Parses one pipeline (for `:explain PIPELINE`).
    public static func parsePipeline(_ source: SourceText) throws(SyntaxError) -> Pipeline {
        var p = ParserState(source)
        p.skipBlank(newlines: true)
        let pl = try p.pipeline(inBrackets: false)
        p.skipBlank(newlines: true)
        if !p.atEnd { throw p.error("unexpected '\(p.peekChar)' after the pipeline", at: p.pos) }
        return pl
    }

    /// False when `text` ends inside brackets or quotes or with a trailing `|`: the REPL then
    /// asks for another line.
    public static func isComplete(_ text: String) -> Bool {
        do {
            _ = try parse(SourceText(text))
            return true
        } catch {
            return !error.isIncomplete
        }
    }
}

private let SPACE = UInt8(ascii: " "), TAB = UInt8(ascii: "\t"), NL = UInt8(ascii: "\n"), CR = UInt8(ascii: "\r")
private let PIPE = UInt8(ascii: "|"), SEMI = UInt8(ascii: ";"), AMP = UInt8(ascii: "&"), HASH = UInt8(ascii: "#")
private let LPAREN = UInt8(ascii: "("), RPAREN = UInt8(ascii: ")"), LBRACK = UInt8(ascii: "["), RBRACK = UInt8(ascii: "]")
private let LBRACE = UInt8(ascii: "{"), RBRACE = UInt8(ascii: "}"), COMMA = UInt8(ascii: ","), COLON = UInt8(ascii: ":")
private let DQUOTE = UInt8(ascii: "\""), SQUOTE = UInt8(ascii: "'"), DOLLAR = UInt8(ascii: "$"), PERCENT = UInt8(ascii: "%")
private let BACKSLASH = UInt8(ascii: "\\"), DASH = UInt8(ascii: "-"), DOT = UInt8(ascii: "."), EQUALS = UInt8(ascii: "=")
private let BACKTICK = UInt8(ascii: "`")

private func isIdentStart(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == UInt8(ascii: "_")
}
private func isIdent(_ b: UInt8) -> Bool { isIdentStart(b) || (b >= 0x30 && b <= 0x39) }
private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

/// What ends a bare word where it stands.
private enum Context { case statement, group, list, record }

private struct ParserState {
    let source: SourceText
    let b: [UInt8]
    var pos = 0
    var depth = 0

    init(_ source: SourceText) {
        self.source = source
        self.b = source.bytes
    }

    var atEnd: Bool { pos >= b.count }
    var peek: UInt8 { pos < b.count ? b[pos] : 0 }
    func peek(_ k: Int) -> UInt8 { pos + k < b.count ? b[pos + k] : 0 }
    var peekChar: String {
        if atEnd { return "end of input" }
        if peek == NL { return "newline" }
        return String(decoding: b[pos..<min(b.count, pos + max(1, utf8Length(peek)))], as: UTF8.self)
    }

    func utf8Length(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    }

    func error(_ message: String, at offset: Int, end: Int? = nil, incomplete: Bool = false) -> SyntaxError {
        let (l, c) = source.lineColumn(of: offset)
        return SyntaxError(message: message, span: SourceSpan(start: offset, end: end ?? min(b.count, offset + 1)), line: l, column: c, isIncomplete: incomplete)
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

    // MARK: Statements

    mutating func program() throws(SyntaxError) -> [Statement] {
        var out: [Statement] = []
        while true {
            skipBlank(newlines: false)
            while !atEnd && (peek == NL || peek == SEMI) {
                pos += 1
                skipBlank(newlines: false)
            }
            if atEnd { break }
            out.append(try statement())
            skipBlank(newlines: false)
            if atEnd { break }
            if peek == NL || peek == SEMI { continue }
            throw error("unexpected '\(peekChar)': expected a new line or ';' after the statement", at: pos)
        }
        return out
    }

    mutating func statement() throws(SyntaxError) -> Statement {
        let start = pos
        if peek == COLON && isIdentStart(peek(1)) {
            pos += 1
            let nameStart = pos
            while !atEnd && (isIdent(peek) || peek == DASH) { pos += 1 }
            let name = text(nameStart, pos)
            skipBlank(newlines: false)
            let argStart = pos
            while !atEnd && peek != NL { pos += 1 }
            var argEnd = pos
            while argEnd > argStart && (b[argEnd - 1] == SPACE || b[argEnd - 1] == CR || b[argEnd - 1] == TAB) { argEnd -= 1 }
            return Statement(kind: .meta(name: name, argument: text(argStart, argEnd), argumentSpan: SourceSpan(start: argStart, end: argEnd)), span: SourceSpan(start: start, end: argEnd))
        }
        if keyword("let") {
            skipBlank(newlines: false)
            let nameStart = pos
            guard isIdentStart(peek) else { throw error("expected a variable name after 'let'", at: pos, incomplete: atEnd) }
            while !atEnd && isIdent(peek) { pos += 1 }
            let name = text(nameStart, pos)
            let nameSpan = SourceSpan(start: nameStart, end: pos)
            skipBlank(newlines: false)
            guard peek == EQUALS else { throw error("expected '=' after 'let \(name)'", at: pos, incomplete: atEnd) }
            pos += 1
            skipBlank(newlines: false)
            let value = try pipeline(inBrackets: false)
            return Statement(kind: .letBinding(name: name, nameSpan: nameSpan, value: value), span: SourceSpan(start: start, end: value.span.end))
        }
        if keyword("def") {
            skipBlank(newlines: false)
            let nameStart = pos
            guard isIdentStart(peek) else { throw error("expected a stage name after 'def'", at: pos, incomplete: atEnd) }
            while !atEnd && (isIdent(peek) || peek == DASH) { pos += 1 }
            let name = text(nameStart, pos)
            skipBlank(newlines: false)
            var params: [String] = []
            if peek == LPAREN {
                pos += 1
                skipBlank(newlines: true)
                while peek != RPAREN {
                    if atEnd { throw error("unclosed '(' in 'def \(name)' (expected ')')", at: nameStart, incomplete: true) }
                    if peek == DOLLAR { pos += 1 }
                    let ps = pos
                    guard isIdentStart(peek) else { throw error("expected a parameter name in 'def \(name)(…)'", at: pos) }
                    while !atEnd && isIdent(peek) { pos += 1 }
                    params.append(text(ps, pos))
                    skipBlank(newlines: true)
                    if peek == COMMA {
                        pos += 1
                        skipBlank(newlines: true)
                    } else if peek != RPAREN && !atEnd {
                        throw error("expected ',' or ')' in the parameters of 'def \(name)'", at: pos)
                    }
                }
                pos += 1
                skipBlank(newlines: false)
            }
            guard peek == EQUALS else { throw error("expected '=' in 'def \(name)(…) = pipeline'", at: pos, incomplete: atEnd) }
            pos += 1
            skipBlank(newlines: false)
            let body = try pipeline(inBrackets: false)
            return Statement(kind: .def(name: name, params: params, body: body), span: SourceSpan(start: start, end: body.span.end))
        }
        let p = try pipeline(inBrackets: false)
        skipBlank(newlines: false)
        if peek == AMP {
            let ampAt = pos
            pos += 1
            skipBlank(newlines: false)
            if !atEnd && peek != NL && peek != SEMI {
                throw error("'&' must end the statement (it runs the pipeline as a background job)", at: ampAt)
            }
            return Statement(kind: .pipeline(p, background: true), span: SourceSpan(start: start, end: ampAt + 1))
        }
        return Statement(kind: .pipeline(p, background: false), span: SourceSpan(start: start, end: p.span.end))
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

    func text(_ s: Int, _ e: Int) -> String { String(decoding: b[s..<e], as: UTF8.self) }

    // MARK: Pipelines and stages

    mutating func pipeline(inBrackets: Bool, context: Context = .statement) throws(SyntaxError) -> Pipeline {
        let start = pos
        var stages: [Stage] = [try stage(inBrackets: inBrackets, context: context)]
        while true {
            skipBlank(newlines: inBrackets)
            guard peek == PIPE else { break }
            let pipeAt = pos
            pos += 1
            skipBlank(newlines: true)  // a line ending in | continues
            if atEnd { throw error("expected a stage after '|'", at: pipeAt, incomplete: true) }
            if peek == PIPE || peek == SEMI || peek == RPAREN || peek == RBRACK || peek == RBRACE || peek == AMP || peek == COMMA {
                throw error("expected a stage after '|', found '\(peekChar)'", at: pos)
            }
            stages.append(try stage(inBrackets: inBrackets, context: context, afterPipe: true))
        }
        return Pipeline(stages: stages, span: SourceSpan(start: start, end: stages.last!.span.end))
    }

    mutating func stage(inBrackets: Bool, context: Context, afterPipe: Bool = false) throws(SyntaxError) -> Stage {
        skipBlank(newlines: inBrackets)
        let start = pos
        if atEnd { throw error("expected a stage", at: pos, incomplete: true) }
        if peek == PIPE { throw error("expected a stage before '|'", at: pos) }
        // A named stage starts with an identifier that is not a literal word.
        if isIdentStart(peek) {
            var e = pos
            while e < b.count && (isIdent(b[e]) || b[e] == DASH) { e += 1 }
            let name = text(pos, e)
            let endsWord = e >= b.count || [SPACE, TAB, NL, CR, PIPE, SEMI, RPAREN, RBRACK, RBRACE, COMMA].contains(b[e])
            // Inside a list or record literal, a lone word (`[a, b]`, `{name: Ada}`) is a value;
            // write `(len)` to call a stage without arguments there. After a `|` a word is a
            // stage: `[reject x | catch]`.
            let loneInLiteral = !afterPipe && (context == .list || context == .record) && e < b.count
                && [COMMA, RBRACK, RBRACE].contains(b[e])
            if endsWord && !loneInLiteral && !["true", "false", "null"].contains(name) {
                pos = e
                let nameSpan = SourceSpan(start: start, end: e)
                var args: [Argument] = []
                while true {
                    skipBlank(newlines: inBrackets)
                    if atEnd || endOfStage(context: context) { break }
                    args.append(try argument(context: context, inBrackets: inBrackets))
                }
                return Stage(head: .named(name, nameSpan), arguments: args, span: SourceSpan(start: start, end: args.last?.span.end ?? e))
            }
        }
        let v = try argument(context: context, inBrackets: inBrackets)
        skipBlank(newlines: inBrackets)
        if !atEnd && !endOfStage(context: context) {
            throw error("a value stage takes no arguments: put '|' before '\(peekChar)'", at: pos)
        }
        return Stage(head: .value(v), arguments: [], span: v.span)
    }

    func endOfStage(context: Context) -> Bool {
        switch peek {
        case PIPE, SEMI, NL: return true
        case AMP:
            // A lone & ends the statement; inside a word it is part of the word.
            let n = peek(1)
            return n == 0 || n == SPACE || n == TAB || n == NL || n == SEMI || n == CR
        case RPAREN: return true
        case RBRACK, COMMA: return context == .list || context == .record || context == .group
        case RBRACE: return context == .record
        default: return false
        }
    }

    // MARK: Arguments

    mutating func enter(_ at: Int) throws(SyntaxError) {
        depth += 1
        if depth > Parser.maxDepth { throw error("nesting deeper than \(Parser.maxDepth) levels", at: at) }
    }

    mutating func argument(context: Context, inBrackets: Bool) throws(SyntaxError) -> Argument {
        let start = pos
        let c = peek
        switch c {
        case SQUOTE:
            pos += 1
            let s = pos
            while !atEnd && peek != SQUOTE { pos += 1 }
            if atEnd { throw error("unclosed ' (expected a closing ')", at: start, incomplete: true) }
            let str = text(s, pos)
            pos += 1
            return Argument(kind: .rawString(str), span: SourceSpan(start: start, end: pos))
        case DQUOTE:
            let t = try doubleQuoted()
            return Argument(kind: .string(t), span: SourceSpan(start: start, end: pos))
        case LBRACK:
            try enter(start)
            pos += 1
            var elements: [Pipeline] = []
            skipBlank(newlines: true)
            while peek != RBRACK {
                if atEnd { throw error("unclosed '[' (expected ']')", at: start, incomplete: true) }
                elements.append(try pipeline(inBrackets: true, context: .list))
                skipBlank(newlines: true)
                if peek == COMMA {
                    pos += 1
                    skipBlank(newlines: true)
                } else if peek != RBRACK {
                    if atEnd { throw error("unclosed '[' (expected ']')", at: start, incomplete: true) }
                    throw error("expected ',' or ']' in the list, found '\(peekChar)'", at: pos)
                }
            }
            pos += 1
            depth -= 1
            return Argument(kind: .list(elements), span: SourceSpan(start: start, end: pos))
        case LBRACE:
            try enter(start)
            pos += 1
            var fields: [(key: String, keySpan: SourceSpan, value: Pipeline)] = []
            skipBlank(newlines: true)
            while peek != RBRACE {
                if atEnd { throw error("unclosed '{' (expected '}')", at: start, incomplete: true) }
                let ks = pos
                let key: String
                if peek == DQUOTE {
                    guard let lit = try doubleQuoted().literalText else { throw error("a record key cannot interpolate", at: ks) }
                    key = lit
                } else if peek == SQUOTE {
                    pos += 1
                    let s = pos
                    while !atEnd && peek != SQUOTE { pos += 1 }
                    if atEnd { throw error("unclosed ' (expected a closing ')", at: ks, incomplete: true) }
                    key = text(s, pos)
                    pos += 1
                } else {
                    while !atEnd && (isIdent(peek) || peek == DASH || peek == DOT) { pos += 1 }
                    if pos == ks { throw error("expected a key (a name or a quoted string) in the record, found '\(peekChar)'", at: pos, incomplete: atEnd) }
                    key = text(ks, pos)
                }
                let keySpan = SourceSpan(start: ks, end: pos)
                skipBlank(newlines: true)
                guard peek == COLON else {
                    if atEnd { throw error("unclosed '{' (expected '}')", at: start, incomplete: true) }
                    throw error("expected ':' after the key '\(key)'", at: pos)
                }
                pos += 1
                skipBlank(newlines: true)
                let value = try pipeline(inBrackets: true, context: .record)
                fields.append((key, keySpan, value))
                skipBlank(newlines: true)
                if peek == COMMA {
                    pos += 1
                    skipBlank(newlines: true)
                } else if peek != RBRACE {
                    if atEnd { throw error("unclosed '{' (expected '}')", at: start, incomplete: true) }
                    throw error("expected ',' or '}' in the record, found '\(peekChar)'", at: pos)
                }
            }
            pos += 1
            depth -= 1
            return Argument(kind: .record(fields), span: SourceSpan(start: start, end: pos))
        case LPAREN:
            try enter(start)
            pos += 1
            skipBlank(newlines: true)
            if peek == RPAREN { throw error("empty '( )': expected a pipeline inside", at: start) }
            let inner = try pipeline(inBrackets: true, context: .group)
            skipBlank(newlines: true)
            guard peek == RPAREN else {
                if atEnd { throw error("unclosed '(' (expected ')')", at: start, incomplete: true) }
                throw error("expected ')' to close the group, found '\(peekChar)'", at: pos)
            }
            pos += 1
            depth -= 1
            return Argument(kind: .group(inner), span: SourceSpan(start: start, end: pos))
        case RPAREN, RBRACK, RBRACE:
            throw error("unbalanced '\(peekChar)'", at: pos)
        case DOLLAR where peek(1) != LBRACE:
            pos += 1
            guard let (name, path) = variableRef() else { throw error("expected a variable name after '$'", at: start) }
            if !atEnd && !isBoundary(context: context) {
                // `$id/x` and similar: a word that starts with a variable.
                pos = start
                let t = try word(context: context)
                return Argument(kind: .word(t), span: SourceSpan(start: start, end: pos))
            }
            return Argument(kind: .variable(name: name, path: path), span: SourceSpan(start: start, end: pos))
        case PERCENT where isDigit(peek(1)):
            pos += 1
            let s = pos
            while !atEnd && isDigit(peek) { pos += 1 }
            if !isBoundary(context: context) { throw error("expected a job number like %2", at: start) }
            return Argument(kind: .job(Int(text(s, pos)) ?? 0), span: SourceSpan(start: start, end: pos))
        case DASH where peek(1) == DASH && isIdentStart(peek(2)):
            pos += 2
            let s = pos
            while !atEnd && (isIdent(peek) || peek == DASH) { pos += 1 }
            return Argument(kind: .flag(text(s, pos)), span: SourceSpan(start: start, end: pos))
        default:
            let t = try word(context: context)
            let span = SourceSpan(start: start, end: pos)
            if let lit = t.literalText {
                if let kind = literal(lit) { return Argument(kind: kind, span: span) }
            }
            return Argument(kind: .word(t), span: span)
        }
    }

    /// True when the next byte ends an argument here.
    func isBoundary(context: Context) -> Bool {
        if atEnd { return true }
        switch peek {
        case SPACE, TAB, NL, CR, PIPE, SEMI: return true
        default: return endOfStage(context: context)
        }
    }

    /// Numbers, durations, true/false/null.
    func literal(_ s: String) -> ArgumentKind? {
        switch s {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "null": return .null
        default: break
        }
        let bytes = Array(s.utf8)
        guard let first = bytes.first, isDigit(first) || (first == DASH && bytes.count > 1 && isDigit(bytes[1])) else { return nil }
        var i = first == DASH ? 1 : 0
        while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        var isInteger = true
        if i < bytes.count && bytes[i] == DOT && i + 1 < bytes.count && isDigit(bytes[i + 1]) {
            isInteger = false
            i += 1
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            var j = i + 1
            if j < bytes.count && (bytes[j] == UInt8(ascii: "+") || bytes[j] == DASH) { j += 1 }
            if j < bytes.count && isDigit(bytes[j]) {
                while j < bytes.count && isDigit(bytes[j]) { j += 1 }
                if j == bytes.count {
                    isInteger = false
                    i = j
                }
            }
        }
        let numText = String(decoding: bytes[0..<i], as: UTF8.self)
        if i == bytes.count {
            guard let d = Double(numText) else { return nil }
            return .number(d, isInteger: isInteger, text: numText)
        }
        if first != DASH {
            let unit = String(decoding: bytes[i...], as: UTF8.self)
            let factor: Double? = ["ms": 0.001, "us": 0.000001, "s": 1, "m": 60, "h": 3600][unit]
            if let factor, let d = Double(numText) { return .duration(seconds: d * factor, text: s) }
        }
        return nil
    }

    /// `name` or `name.PATH` after a `$` (pos just past the `$`).
    mutating func variableRef() -> (String, String?)? {
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
                // {} or {PATH}: interpolation.
                let open = pos
                pos += 1
                let s = pos
                var d = 1
                while !atEnd && d > 0 {
                    if peek == LBRACE { d += 1 }
                    if peek == RBRACE { d -= 1 }
                    if d > 0 { pos += 1 }
                }
                if atEnd { throw error("unclosed '{' in the word (expected '}')", at: open, incomplete: true) }
                let path = text(s, pos).trimmingSpaces
                pos += 1
                flush()
                parts.append(.input(path: path.isEmpty ? nil : path))
                continue
            }
            if c == DOLLAR && (isIdentStart(peek(1)) || isDigit(peek(1)) || peek(1) == LBRACE) {
                flush()
                pos += 1
                if peek == LBRACE {
                    parts.append(try bracedVariable())
                } else if let (name, path) = variableRef() {
                    parts.append(.variable(name: name, path: path))
                }
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

    /// `${name.PATH}` (pos at the `{`).
    mutating func bracedVariable() throws(SyntaxError) -> Template.Part {
        let open = pos - 1
        pos += 1
        let s = pos
        var d = 1
        while !atEnd && d > 0 && peek != NL {
            if peek == LBRACE { d += 1 }
            if peek == RBRACE { d -= 1 }
            if d > 0 { pos += 1 }
        }
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
                let open = pos
                pos += 1
                let s = pos
                var d = 1
                while !atEnd && d > 0 {
                    if peek == LBRACE { d += 1 }
                    if peek == RBRACE { d -= 1 }
                    if peek == DQUOTE && d > 0 { break }
                    if d > 0 { pos += 1 }
                }
                guard peek == RBRACE else { throw error("unclosed '{' in the string (expected '}'; write \\{ for a literal brace)", at: open, incomplete: atEnd) }
                let path = text(s, pos).trimmingSpaces
                pos += 1
                flush()
                parts.append(.input(path: path.isEmpty ? nil : path))
                continue
            }
            if c == DOLLAR && (isIdentStart(peek(1)) || isDigit(peek(1)) || peek(1) == LBRACE) {
                flush()
                pos += 1
                if peek == LBRACE {
                    parts.append(try bracedVariable())
                } else if let (name, path) = variableRef() {
                    parts.append(.variable(name: name, path: path))
                }
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
