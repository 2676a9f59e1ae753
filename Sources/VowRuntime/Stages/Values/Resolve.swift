import VowPromises
import VowValue
import VowSyntax

/// `resolve VALUE`: a pre-resolved promise.
struct ResolveStage: ValueStage {
    static let name = "resolve"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("resolve")
    static let rejectsOnItsOwn = false
    static let group = StageGroup.values
    /// `resolve null` in a program prints null: it was asked for.
    static let inPrograms = ProgramPrinting.value
    static let synopsis = "resolve [VALUE]"
    static let summary = "A promise already fulfilled with VALUE (or with the input)."
    static let help = """
        Fulfils with VALUE, like JavaScript's Promise.resolve(value). With no argument it passes the
        input on. `resolve 41 | then format "{}!"` is the smallest chain there is.
        """
    static let examples = [
        StageExample("resolve 41 | then format \"{}!\"", "41!"),
        StageExample("resolve {a: 1} | pick a", "1"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        .value(args[0] ?? input)
    }
}

extension ResolveStage: TwinWriting {
    /// First in a pipeline: `Promise.resolve(V)`.
    static func twinFirst(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> String? {
        let args = twin.positional(plan)
        guard args.count <= 1, !args.contains(where: { twin.isPending($0) }) else { return nil }
        return "Promise.resolve(\(args.first.map { twin.value($0, input: input, depth: depth) } ?? input))"
    }
}

extension ResolveStage: StageExplaining {
    /// First in a pipeline, a promise already fulfilled; given a promise, one that waits for it.
    static func explanation(_ c: Explainer.Context) -> String? {
        if c.waitsForArguments {
            let arg = c.source.slice(c.stage.arguments[0].span)
            return "waits for \(arg), a promise (a stage waits for a promise given as an argument), then \(c.id) fulfils with its value: a new promise, unlike JavaScript's Promise.resolve(p), which returns p itself (that is \(arg) alone, and `promise \(arg)` is new Promise((r) => r(p)), which adopts it)"
        }
        return c.kind.first ? "already fulfilled" : nil
    }
}
