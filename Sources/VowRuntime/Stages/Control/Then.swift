import VowPromises
import VowValue
import VowSyntax

/// `then STAGE…`: runs a stage on the fulfilled value (the same as `| STAGE`).
struct ThenStage: StageDefinition {
    static let name = "then"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let innerIsHandler = true
    /// `then X` is `| X`: the planner plans X in its place.
    static let appliesItsStage = true
    static let group = StageGroup.control
    static let synopsis = "then STAGE…"
    static let summary = "Runs STAGE on the value when the input fulfils; `| then X` is `| X`."
    static let help = """
        Each `|` is already a then: the next stage runs when the previous one fulfils. `then` spells
        it out, which reads well before a stage that starts a new request:
        `pick login | then fetch "https://h/users/{}"`. A rejection skips it.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("resolve 41 | then format \"{}!\"", "41!"),
        StageExample("reject no | then echo never | catch echo caught", "caught"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let inner = call.innerStage() else { throw call.error(.type, "missing STAGE (e.g. then format \"{}\")") }
        return call.chain { input in try inner(input) }
    }
}

extension ThenStage: TwinWriting {
    static let twinReference: String? = "`.then(X)`; `then (P)` is `.then((v) => P(v))`, a promise that is adopted"

    /// `then X` first in a pipeline is X, first; `then (P)` is P's promise.
    static func twinFirst(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> String? {
        if let inner = plan.inner { return twin.firstStage(inner, input: input, depth: depth) }
        if case .builtin(_, let positional, _) = plan.kind, positional.count == 1, case .group(let p) = positional[0].kind {
            return twin.pipeline(p, input: input, depth: depth)
        }
        return nil
    }

    /// `.then(X)`, its handler given the items as a list when the value before is a stream.
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String? {
        guard let h = twin.handler(plan, depth: depth) else { return upstream }
        let v = "v\(depth + 1)"
        if collects { return "\(upstream)\n.then((\(v)) => vow.whole(\(v), \(h.code))\(twin.skip(origin)))" }
        return "\(upstream)\n.then(\(h.code)\(twin.skip(origin)))"
    }

    /// What X does with the input; a group is its pipeline's promise.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        if case .builtin(_, let positional, _) = plan.kind, positional.count == 1, case .group(let p) = positional[0].kind {
            return TwinCode(twin.pipeline(p, input: input, depth: depth), isPromise: true)
        }
        return plan.inner.map { twin.body($0, input: input, depth: depth) }
    }
}

extension ThenStage: StageExplaining {
    /// The generic note serves: `then X` is explained as its handler X.
    static func explanation(_ c: Explainer.Context) -> String? { nil }
}
