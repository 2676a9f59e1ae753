/// Statements: a program's lines, meta-commands, `let`, `def`, and pipelines run in the
/// foreground or in the background.
extension ParserState {
    /// The statements up to the end, separated by newlines or `;`.
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

    /// One statement: `:meta …`, `let NAME = …`, `def NAME(…) = …`, or a pipeline with an optional `&`.
    mutating func statement() throws(SyntaxError) -> Statement {
        let start = pos
        if peek == COLON && isIdentStart(peek(1)) { return metaStatement() }
        if keyword("let") { return try letStatement(start: start) }
        if keyword("def") { return try defStatement(start: start) }
        if keyword("async") {
            skipBlank(newlines: false)
            guard keyword("def") else { throw error("expected 'def' after 'async' (async def NAME(…) = pipeline)", at: pos, incomplete: atEnd) }
            return try defStatement(start: start, isAsync: true)
        }
        return try pipelineStatement()
    }

    /// `:name rest of the line`, a meta-command (pos at the `:`).
    mutating func metaStatement() -> Statement {
        let start = pos
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

    /// `let NAME = PIPELINE`, the statement starting at `start` (pos past `let`).
    mutating func letStatement(start: Int) throws(SyntaxError) -> Statement {
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

    /// `def NAME(a, b) = PIPELINE` or `def NAME = PIPELINE`, the statement starting at `start`
    /// (pos past `def`).
    mutating func defStatement(start: Int, isAsync: Bool = false) throws(SyntaxError) -> Statement {
        skipBlank(newlines: false)
        let nameStart = pos
        guard isIdentStart(peek) else { throw error("expected a stage name after 'def'", at: pos, incomplete: atEnd) }
        while !atEnd && (isIdent(peek) || peek == DASH) { pos += 1 }
        let name = text(nameStart, pos)
        skipBlank(newlines: false)
        var params: [String] = []
        if peek == LPAREN { params = try defParameters(name: name, nameStart: nameStart) }
        guard peek == EQUALS else { throw error("expected '=' in 'def \(name)(…) = pipeline'", at: pos, incomplete: atEnd) }
        pos += 1
        skipBlank(newlines: false)
        let body = try pipeline(inBrackets: false)
        return Statement(kind: .def(name: name, params: params, body: body, isAsync: isAsync), span: SourceSpan(start: start, end: body.span.end))
    }

    /// `(a, $b)`, the parameters of `def name` whose name is at `nameStart` (pos at the `(`).
    mutating func defParameters(name: String, nameStart: Int) throws(SyntaxError) -> [String] {
        var params: [String] = []
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
        return params
    }

    /// `PIPELINE` or `PIPELINE &` (a background job).
    mutating func pipelineStatement() throws(SyntaxError) -> Statement {
        let start = pos
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
}
