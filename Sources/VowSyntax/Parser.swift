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
        let statements = try p.program()
        return Program(statements: statements, source: source, stageNames: p.memory.stageNames, listsHoldLoneWords: p.memory.listsHoldLoneWords)
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
