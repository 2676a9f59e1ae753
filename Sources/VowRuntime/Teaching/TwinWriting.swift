import VowSyntax

/// A piece of the twin: a JavaScript expression, and whether it is a promise (a handler that
/// returns it has the chain adopt it) or a plain value.
struct TwinCode {
    /// The expression.
    let code: String
    /// True when it is a promise.
    let isPromise: Bool

    /// `code`, a promise when `isPromise`.
    init(_ code: String, isPromise: Bool) {
        self.code = code
        self.isPromise = isPromise
    }

    /// The same code, taken as a promise (`vow.sim(…)` returns one, whatever its arguments).
    var asPromise: TwinCode { TwinCode(code, isPromise: true) }
}

/// Where a rejection that a later `catch` or `finally` can see would start: the stage before
/// and this one, as written (`vow.skip`, `vow.onError` note it in the error record).
struct TwinOrigin {
    /// The text of the stage before.
    let previous: String
    /// The text of this stage.
    let this: String
}

/// A stage that writes its JavaScript twin itself, instead of being a prelude function called
/// with its input and arguments: the control stages (`StageTwin.control`: `then`, `catch`,
/// `retry`, the combinators…), and stages whose first-stage form or a flag changes the call
/// (`resolve`, `reject --status`, `echo`, `sim`). Each hook returns nil to leave that form to
/// the twin writer (`JavaScriptTwin`). `StageCapabilityTests` fails for a control stage that
/// does not conform.
protocol TwinWriting: StageDefinition {
    /// One line on what the stage is in the twin, for `:help` and docs/stages.md.
    static var twinReference: String? { get }
    /// The stage as the first of a pipeline, run on `input`: a promise expression.
    static func twinFirst(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> String?
    /// The stage after the first, as a method on the chain `upstream` (`.catch(…)`,
    /// `vow.retry(() => upstream, …)`); nil for a handler like any other (`.then((v) => …)`).
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String?
    /// What the stage does with `input`: a value or a promise expression.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode?
}

extension TwinWriting {
    /// The reference line made from `twin`, by default.
    static var twinReference: String? { nil }
    /// The body, started, by default.
    static func twinFirst(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> String? { nil }
    /// A handler like any other, by default.
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String? { nil }
    /// The prelude function called with the input and arguments, by default.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? { nil }
}
