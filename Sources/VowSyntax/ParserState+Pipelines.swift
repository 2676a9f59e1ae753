/// Pipelines and stages: stages joined by `|`, each a name with arguments or a value.
extension ParserState {
    /// Stages joined by `|`; `inBrackets` lets newlines in, `context` says what ends a word.
    mutating func pipeline(inBrackets: Bool, context: Context = .statement) throws(SyntaxError) -> Pipeline {
        let start = pos
        // Made in its block as it is parsed: a pipeline of one stage is one allocation.
        let first = try stage(inBrackets: inBrackets, context: context)
        var end = first.span.end
        // Moved in: a copy given to the block was a copy and a destroy of the node, each group.
        var stages = StageNodesBuilder(first: consume first)
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
            let next = try stage(inBrackets: inBrackets, context: context, afterPipe: true)
            end = next.span.end
            stages.append(consume next)
        }
        return stages.pipeline(span: SourceSpan(start: start, end: end))
    }

    /// One stage: a name and its arguments, or a value stage, which takes none.
    mutating func stage(inBrackets: Bool, context: Context, afterPipe: Bool = false) throws(SyntaxError) -> StageNode {
        skipBlank(newlines: inBrackets)
        let start = pos
        if atEnd { throw error("expected a stage", at: pos, incomplete: true) }
        if peek == PIPE { throw error("expected a stage before '|'", at: pos) }
        // A named stage starts with an identifier that is not a literal word.
        if isIdentStart(peek) {
            var e = pos
            while e < b.count && (isIdent(b[e]) || b[e] == DASH) { e += 1 }
            let name: String
            if let same = memory.recentName.lookup(b, pos, e) {
                name = same
            } else {
                name = text(pos, e)
                memory.recentName.keep(name, pos, e)
            }
            let endsWord: Bool
            if e >= b.count {
                endsWord = true
            } else {
                switch b[e] {
                case SPACE, TAB, NL, CR, PIPE, SEMI, RPAREN, RBRACK, RBRACE, COMMA: endsWord = true
                default: endsWord = false
                }
            }
            // Inside a list or record literal, a lone word (`[a, b]`, `{name: Ada}`) is a value;
            // write `(len)` to call a stage without arguments there. After a `|` a word is a
            // stage: `[reject x | catch]`.
            let loneInLiteral = !afterPipe && (context == .list || context == .record) && e < b.count
                && (b[e] == COMMA || b[e] == RBRACK || b[e] == RBRACE)
            if endsWord && !loneInLiteral && !Self.isConstantName(b, start, e) {
                pos = e
                // A name not one of the last two read may be new (a pipeline repeats its names,
                // and `then (pick @) | …` alternates two).
                if name != memory.lastStageNames.0 && name != memory.lastStageNames.1 {
                    memory.lastStageNames = (name, memory.lastStageNames.0)
                    memory.stageNames.insert(name)
                }
                let nameSpan = SourceSpan(start: start, end: e)
                // Most stages take one argument, which the list keeps in place.
                var args = ArgumentList()
                var end = e
                while true {
                    skipBlank(newlines: inBrackets)
                    if atEnd || endOfStage(context: context) { break }
                    let arg = try argument(context: context, inBrackets: inBrackets)
                    end = arg.span.end
                    args.append(arg)
                }
                return StageNode(head: .named(name, nameSpan), arguments: args, span: SourceSpan(start: start, end: end))
            }
        }
        let v = try argument(context: context, inBrackets: inBrackets)
        skipBlank(newlines: inBrackets)
        if !atEnd && !endOfStage(context: context) {
            throw error("a value stage takes no arguments: put '|' before '\(peekChar)'", at: pos)
        }
        return StageNode(head: .value(v), arguments: [], span: v.span)
    }

    /// True when the bytes `s..<e` of `b` spell a word that is a constant, not a stage name:
    /// `true`, `false`, `null`, `undefined`.
    static func isConstantName(_ b: [UInt8], _ s: Int, _ e: Int) -> Bool {
        func spells(_ word: StaticString) -> Bool {
            guard word.utf8CodeUnitCount == e - s else { return false }
            return word.withUTF8Buffer { w in
                var i = 0
                while i < w.count {
                    if b[s + i] != w[i] { return false }
                    i += 1
                }
                return true
            }
        }
        switch b[s] {
        case UInt8(ascii: "t"): return spells("true")
        case UInt8(ascii: "f"): return spells("false")
        case UInt8(ascii: "n"): return spells("null")
        case UInt8(ascii: "u"): return spells("undefined")
        default: return false
        }
    }

    /// True when the next byte ends a stage where it stands.
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
}
