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
    /// `then (A) (B)` is `.then(onFulfilled, onRejected)`.
    static let takesRejectionHandler = true
    static let group = StageGroup.control
    static let synopsis = "then STAGE… | then (ON FULFILLED) (ON REJECTED)"
    static let summary = "Runs STAGE on the value when the input fulfils; `| then X` is `| X`. With two groups, one handler for each outcome."
    static let help = """
        Each `|` is already a then: the next stage runs when the previous one fulfils. `then` spells
        it out, which reads well before a stage that starts a new request:
        `pick login | then fetch "https://h/users/{}"`. A rejection skips it.

        `then (A) (B)` is JavaScript's `.then(onFulfilled, onRejected)`: one reaction that runs A
        with the value when the input fulfils, or B with the error as a record (as `catch` gives
        it) when it rejects. It is not `then (A) | catch (B)`: B never sees a rejection of A, which
        goes on down the chain.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("resolve 41 | then format \"{}!\"", "41!"),
        StageExample("reject no | then echo never | catch echo caught", "caught"),
        StageExample("reject boom | then (echo fine) (echo \"failed: {message}\")", "failed: boom"),
        StageExample("resolve 1 | then (reject inner) (echo never) | catch echo \"caught {message}\"", "caught inner"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        if call.positional.count == 2, let handlers = call.groupHandlers(context: ["in a then handler"]) {
            return Self.eitherHandler(call, onFulfilled: handlers[0], onRejected: handlers[1])
        }
        guard !call.positional.isEmpty else { throw call.error(.type, "missing STAGE (e.g. then format \"{}\")") }
        // The inner stage is made when the input comes (`StageCall.runInner`): a long chain of
        // pending `then`s keeps its calls, not each one's inner pipeline, cache and closures.
        return call.chain { [call] input in try call.runInner(input) }
    }

    /// `then (A) (B)`: one reaction, A on the value or B on the error's record.
    private static func eitherHandler(
        _ call: StageCall, onFulfilled: @escaping @Sendable (Value) throws -> Resolution<Value>,
        onRejected: @escaping @Sendable (Value) throws -> Resolution<Value>
    ) -> Promise<Value> {
        // First in a pipeline, nothing can reject before it: the input goes to A.
        guard let upstream = call.upstream else { return call.chain(onFulfilled) }
        return upstream.always(name: "then", attributes: call.traceInfo, on: call.executor) { r in
            switch r {
            case .success(let v):
                return try onFulfilled(v)
            case .failure(let error):
                // `exit` ends the script: no handler stops it.
                if toVowError(error).kind == .exit { throw error }
                var annotated = call.annotate(error)
                if annotated.skipped.isEmpty { annotated.skipped = call.skippedBefore(annotated) }
                return try onRejected(.record(annotated.record))
            }
        }
    }
}

extension ThenStage: TwinWriting {
    static let twinReference: String? = "`.then(X)`; `then (P)` is `.then((v) => P(v))`, a promise that is adopted; `then (P) (Q)` is `.then((v) => P(v), (e) => Q(record of e))`"

    /// `then X` first in a pipeline is X, first; `then (P)` is P's promise (and so is
    /// `then (P) (Q)`: nothing before it can reject).
    static func twinFirst(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> String? {
        if let inner = plan.inner { return twin.firstStage(inner, input: input, depth: depth) }
        if let (onFulfilled, _) = groups(plan) { return twin.pipeline(onFulfilled, input: input, depth: depth) }
        if case .builtin(_, let positional) = plan.kind, positional.count == 1, case .group(let p) = positional[0].kind {
            return twin.pipeline(p, input: input, depth: depth)
        }
        return nil
    }

    /// `.then(X)`, its handler given the items as a list when the value before is a stream.
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String? {
        let v = "v\(depth + 1)"
        if let (a, b) = groups(plan) {
            let at = origin.map { ", \(jsString($0.previous))" } ?? ""
            return "\(upstream)\n.then((\(v)) => \(twin.pipeline(a, input: v, depth: depth + 1)), vow.onError((\(v)) => \(twin.pipeline(b, input: v, depth: depth + 1))\(at)))"
        }
        guard let h = twin.handler(plan, depth: depth) else { return upstream }
        if collects { return "\(upstream)\n.then((\(v)) => vow.whole(\(v), \(h.code))\(twin.skip(origin)))" }
        return "\(upstream)\n.then(\(h.code)\(twin.skip(origin)))"
    }

    /// The two groups of `then (A) (B)`, or nil.
    static func groups(_ plan: StagePlan) -> (Pipeline, Pipeline)? {
        guard case .builtin(_, let positional) = plan.kind, positional.count == 2,
            case .group(let a) = positional[0].kind, case .group(let b) = positional[1].kind
        else { return nil }
        return (a, b)
    }

    /// What X does with the input; a group is its pipeline's promise (the first group of
    /// `then (A) (B)`, which nothing before it can make reject).
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        if let (a, _) = groups(plan) { return TwinCode(twin.pipeline(a, input: input, depth: depth), isPromise: true) }
        if case .builtin(_, let positional) = plan.kind, positional.count == 1, case .group(let p) = positional[0].kind {
            return TwinCode(twin.pipeline(p, input: input, depth: depth), isPromise: true)
        }
        return plan.inner.map { twin.body($0, input: input, depth: depth) }
    }
}

extension ThenStage: StageExplaining {
    /// The generic note serves for `then X` (explained as its handler X); `then (A) (B)` is one
    /// reaction with a handler for each outcome.
    static func explanation(_ c: Explainer.Context) -> String? {
        guard groups(c.plan) != nil else { return nil }
        return "one reaction to \(c.prev) with two handlers, JavaScript's .then(onFulfilled, onRejected): when \(c.prev) fulfils, the first group runs with the value; when it rejects, the second runs with the error as a record (the chain recovers if it fulfils); either way \(c.id) adopts the group's promise. Never both: a rejection of the first group goes on down the chain, past the second (not so `then (A) | catch (B)`)"
    }
}
