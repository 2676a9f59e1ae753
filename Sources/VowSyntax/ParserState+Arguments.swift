/// Arguments: what follows a stage's name, or stands as a value stage.
extension ParserState {
    /// Goes one level deeper into brackets, a group or a literal (opened at `at`); throws past
    /// `Parser.maxDepth`. The caller steps back out with `depth -= 1`.
    mutating func enter(_ at: Int) throws(SyntaxError) {
        depth += 1
        if depth > Parser.maxDepth { throw error("nesting deeper than \(Parser.maxDepth) levels", at: at) }
    }

    /// One argument: a quoted string, a list, a record, a group, a variable, a job, a flag or a word,
    /// told apart by its first bytes.
    mutating func argument(context: Context, inBrackets: Bool) throws(SyntaxError) -> Argument {
        switch peek {
        case SQUOTE: return try rawStringArgument()
        case DQUOTE: return try stringArgument()
        case LBRACK: return try listArgument()
        case LBRACE: return try recordArgument()
        case LPAREN: return try groupArgument()
        case RPAREN, RBRACK, RBRACE:
            throw error("unbalanced '\(peekChar)'", at: pos)
        case DOLLAR where peek(1) != LBRACE: return try variableArgument(context: context)
        case PERCENT where isDigit(peek(1)): return try jobArgument(context: context)
        case DASH where peek(1) == DASH && isIdentStart(peek(2)): return flagArgument()
        default: return try wordArgument(context: context)
        }
    }

    /// A 'single-quoted' string (pos at the opening quote).
    mutating func rawStringArgument() throws(SyntaxError) -> Argument {
        let start = pos
        let str = try singleQuoted()
        return Argument(kind: .rawString(str), span: SourceSpan(start: start, end: pos))
    }

    /// A "double-quoted" string (pos at the opening quote).
    mutating func stringArgument() throws(SyntaxError) -> Argument {
        let start = pos
        let t = try doubleQuoted()
        return Argument(kind: .string(t), span: SourceSpan(start: start, end: pos))
    }

    /// `[a, b]`: pipelines separated by commas (pos at the `[`).
    mutating func listArgument() throws(SyntaxError) -> Argument {
        let start = pos
        try enter(start)
        pos += 1
        var elements: [Pipeline] = []
        skipBlank(newlines: true)
        while peek != RBRACK {
            if atEnd { throw error("unclosed '[' (expected ']')", at: start, incomplete: true) }
            elements.append(try pipeline(inBrackets: true, context: .list))
            if !memory.listsHoldLoneWords { memory.listsHoldLoneWords = Self.isLoneWord(elements) }
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
    }

    /// True when the last of `elements` is one plain word (`Pipeline.loneWord`). Out of line:
    /// the parser's recursion through nested lists keeps its frames small (`Parser.maxDepth`).
    @inline(never)
    static func isLoneWord(_ elements: [Pipeline]) -> Bool {
        elements.last?.loneWord != nil
    }

    /// `{key: value, …}`: fields separated by commas (pos at the `{`).
    mutating func recordArgument() throws(SyntaxError) -> Argument {
        let start = pos
        try enter(start)
        pos += 1
        var fields: [(key: String, keySpan: SourceSpan, value: Pipeline)] = []
        skipBlank(newlines: true)
        while peek != RBRACE {
            if atEnd { throw error("unclosed '{' (expected '}')", at: start, incomplete: true) }
            fields.append(try recordField(recordStart: start))
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
    }

    /// `key: pipeline`, one field of the record whose `{` is at `start`.
    mutating func recordField(recordStart start: Int) throws(SyntaxError) -> (key: String, keySpan: SourceSpan, value: Pipeline) {
        let (key, keySpan) = try recordKey()
        skipBlank(newlines: true)
        guard peek == COLON else {
            if atEnd { throw error("unclosed '{' (expected '}')", at: start, incomplete: true) }
            throw error("expected ':' after the key '\(key)'", at: pos)
        }
        pos += 1
        skipBlank(newlines: true)
        let value = try pipeline(inBrackets: true, context: .record)
        return (key, keySpan, value)
    }

    /// A record's key and its span: a name, or a quoted string that does not interpolate.
    mutating func recordKey() throws(SyntaxError) -> (String, SourceSpan) {
        let ks = pos
        let key: String
        if peek == DQUOTE {
            guard let lit = try doubleQuoted().literalText else { throw error("a record key cannot interpolate", at: ks) }
            key = lit
        } else if peek == SQUOTE {
            key = try singleQuoted()
        } else {
            while !atEnd && (isIdent(peek) || peek == DASH || peek == DOT) { pos += 1 }
            if pos == ks { throw error("expected a key (a name or a quoted string) in the record, found '\(peekChar)'", at: pos, incomplete: atEnd) }
            key = text(ks, pos)
        }
        return (key, SourceSpan(start: ks, end: pos))
    }

    /// `( pipeline )` (pos at the `(`).
    mutating func groupArgument() throws(SyntaxError) -> Argument {
        let start = pos
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
    }

    /// `$name` or `$name.PATH`, or a word that starts with one (pos at the `$`).
    mutating func variableArgument(context: Context) throws(SyntaxError) -> Argument {
        let start = pos
        pos += 1
        guard let (name, path) = variableRef() else { throw error("expected a variable name after '$'", at: start) }
        if !atEnd && !isBoundary(context: context) {
            // `$id/x` and similar: a word that starts with a variable.
            pos = start
            let t = try word(context: context)
            return Argument(kind: .word(t), span: SourceSpan(start: start, end: pos))
        }
        return Argument(kind: .variable(name: name, path: path), span: SourceSpan(start: start, end: pos))
    }

    /// `%N`, a job (pos at the `%`).
    mutating func jobArgument(context: Context) throws(SyntaxError) -> Argument {
        let start = pos
        pos += 1
        let s = pos
        while !atEnd && isDigit(peek) { pos += 1 }
        if !isBoundary(context: context) { throw error("expected a job number like %2", at: start) }
        return Argument(kind: .job(Int(text(s, pos)) ?? 0), span: SourceSpan(start: start, end: pos))
    }

    /// `--name`, a flag (pos at the first `-`).
    mutating func flagArgument() -> Argument {
        let start = pos
        pos += 2
        let s = pos
        while !atEnd && (isIdent(peek) || peek == DASH) { pos += 1 }
        return Argument(kind: .flag(text(s, pos)), span: SourceSpan(start: start, end: pos))
    }

    /// A bare word: a number, a duration, true, false or null when it reads as one, else a word
    /// that may interpolate.
    mutating func wordArgument(context: Context) throws(SyntaxError) -> Argument {
        let start = pos
        // A plain word, the most common argument (`@`, `name`, `10ms`): bytes that `word` takes
        // as they are, up to a space, a line end, `|` or `;`. Its text is read directly, without
        // a template made to be dropped when the word is shared. Anything else goes to `word`.
        var e = pos
        while e < b.count, Self.isPlainWordByte(b[e]) { e += 1 }
        if e > start, e == b.count || Self.endsPlainWord(b[e], context: context) {
            pos = e
            let span = SourceSpan(start: start, end: e)
            // The word read last, written again: its kind, as `literalWord` gave it. Not for a
            // number, rarely the same twice running (`resolve 1, resolve 2, …`).
            let numeric = isDigit(b[start]) || b[start] == DASH
            if !numeric, let same = memory.recentWord.lookup(b, start, e) { return Argument(kind: same, span: span) }
            let lit = text(start, e)
            let made = literalWord(lit, span: span) { Template(parts: [.literal(lit)]) }
            if !numeric { memory.recentWord.keep(made.kind, start, e) }
            return made
        }
        let t = try word(context: context)
        let span = SourceSpan(start: start, end: pos)
        if let lit = t.literalText { return literalWord(lit, span: span) { t } }
        return Argument(kind: .word(t), span: span)
    }

    /// A word with no interpolation: a constant or a number, or else a word, shared with the
    /// same word written before (`ParserMemory.sharedWords`); `template` is its template when it is new.
    private mutating func literalWord(_ lit: String, span: SourceSpan, template: () -> Template) -> Argument {
        if let kind = literal(lit) { return Argument(kind: kind, span: span) }
        if let shared = memory.sharedWords[lit] { return Argument(kind: shared, span: span) }
        let kind = ArgumentKind.word(template())
        if memory.sharedWords.count < Self.sharedWordLimit { memory.sharedWords[lit] = kind }
        return Argument(kind: kind, span: span)
    }

    /// True when `word` ends a word of plain bytes (`isPlainWordByte`) at `c` in `context`: a
    /// space, a line end, `|` or `;`; a closing `)` or `]`; a comma in a list or a record, and
    /// `}` in a record (`[1, 2]`, `{a: b}`).
    static func endsPlainWord(_ c: UInt8, context: Context) -> Bool {
        switch c {
        case SPACE, TAB, NL, CR, PIPE, SEMI, RPAREN, RBRACK: return true
        case COMMA: return context == .list || context == .record
        case RBRACE: return context == .record
        default: return false
        }
    }

    /// A byte `word` keeps as it is wherever it stands in a word: not a separator, a bracket, a
    /// quote, or what starts an interpolation or a comment.
    static func isPlainWordByte(_ c: UInt8) -> Bool {
        switch c {
        case SPACE, TAB, NL, CR, PIPE, SEMI, AMP, HASH, LPAREN, RPAREN, LBRACK, RBRACK, LBRACE, RBRACE, COMMA,
            DQUOTE, SQUOTE, BACKTICK, DOLLAR, PERCENT, BACKSLASH:
            return false
        default: return c >= 0x21
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
}
