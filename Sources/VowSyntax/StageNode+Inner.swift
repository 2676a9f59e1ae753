extension StageNode {
    /// The stage a stage's arguments name (`then X …`, `each X …`, `await X …`): a first argument
    /// that is a plain word is the stage's name and the rest are its arguments, ending at `end`;
    /// any other first argument is a value stage of its own.
    public static func inner(first: Argument, rest: ArraySlice<Argument>, end: Int) -> StageNode {
        if case .word(let t) = first.kind, let name = t.literalText {
            return StageNode(head: .named(name, first.span), arguments: Array(rest), span: SourceSpan(start: first.span.start, end: end))
        }
        return StageNode(head: .value(first), arguments: [], span: first.span)
    }
}
