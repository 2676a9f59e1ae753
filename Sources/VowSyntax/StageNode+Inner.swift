extension StageNode {
    /// The stage a stage's arguments name (`then X …`, `each X …`, `await X …`): a first argument
    /// that is a plain word is the stage's name and the rest are its arguments, ending at `end`;
    /// any other first argument is a value stage of its own.
    public static func inner<Rest: Collection>(first: Argument, rest: Rest, end: Int) -> StageNode where Rest.Element == Argument {
        if case .word(let t) = first.kind, let name = t.literalText {
            return StageNode(head: .named(name, first.span), arguments: ArgumentList(rest), span: SourceSpan(start: first.span.start, end: end))
        }
        return StageNode(head: .value(first), arguments: [], span: first.span)
    }

    /// The handler this stage's arguments form, as a pipeline (`catch (P)`: P; `catch echo c`:
    /// the one stage `echo c`); nil when it has no arguments.
    public var handlerPipeline: Pipeline? {
        guard let first = arguments.first else { return nil }
        if arguments.count == 1, case .group(let p) = first.kind { return p }
        let inner = StageNode.inner(first: first, rest: arguments.dropFirst(), end: span.end)
        return Pipeline(one: inner)
    }
}
