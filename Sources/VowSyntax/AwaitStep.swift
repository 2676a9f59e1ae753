/// The steps of an `async def` body: each stage, and whether it is awaited (`await STAGE …` or
/// `await VALUE`).
extension StageNode {
    /// For `await NAME ARGS…`, the stage `NAME ARGS…`; for `await VALUE`, the value stage; nil
    /// for any other stage (`await` alone included: it awaits nothing new).
    public var awaitedStage: StageNode? {
        guard name == "await", let first = arguments.first else { return nil }
        if case .word(let t) = first.kind, let word = t.literalText, let head = word.unicodeScalars.first,
            head.properties.isAlphabetic || head == "_",
            word.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" })
        {
            return .inner(first: first, rest: arguments.dropFirst(), end: arguments.last!.span.end)
        }
        guard arguments.count == 1 else { return nil }
        return .inner(first: first, rest: [], end: first.span.end)
    }
}

extension Pipeline {
    /// The body of an `async def` as steps: each stage with `await` taken off, and whether it was
    /// awaited.
    public var awaitSteps: [(stage: StageNode, awaits: Bool)] {
        stages.map { s in s.awaitedStage.map { ($0, true) } ?? (s, false) }
    }

    /// The same stages with every `await` taken off (what a checker plans).
    public var awaitsUnwrapped: Pipeline {
        Pipeline(stages: awaitSteps.map(\.stage), span: span)
    }
}
