import VowPromises
import VowSyntax
import VowValue

/// A one-stage pipeline run on many inputs (`each format "{}"`, `each (pick name)`), when the
/// stage is pure (`StageDefinition.isPure`) and its arguments need nothing but the input: the
/// stage runs directly on each input, with one call made once, instead of building a pipeline
/// run, a stage call and their records per input.
///
/// It gives the value the pipeline would give, in the same turn. It gives no error of its own:
/// when the stage throws, the caller runs the pipeline the ordinary way, which rejects with the
/// same error (the stage is pure), located and named as every rejection is. While an observer
/// is installed (`--trace`, the timeline) it is not used, so that every promise is recorded.
///
/// A class: the cache hands it out once an input, and a struct of three references cost three
/// retains and releases each time.
///
/// Sendable: every field is a `let`; the call it holds is used only on the session executor.
final class PureStage: @unchecked Sendable {
    let stage: any ValueStage
    let call: StageCall
    /// The arguments, evaluated once, when none can change from one input to the next (literal
    /// text, numbers, an expression that names no variable); nil when they are evaluated for
    /// each input.
    let fixed: StageArguments?

    /// The direct form of `plans` (one pipeline's stages), or nil when it has none: more than
    /// one stage, a stage that is not pure, or an argument that reads a variable or runs a
    /// pipeline.
    convenience init?(_ plans: [StagePlan], session: Session, scope: Scope, site: Site) {
        guard plans.count == 1 else { return nil }
        self.init(plans[0], session: session, scope: scope, site: site)
    }

    /// The direct form of the one stage `plan`, or nil when the stage is not pure or an argument
    /// reads a variable or runs a pipeline.
    init?(_ plan: StagePlan, session: Session, scope: Scope, site: Site) {
        guard case .builtin(let def, let positional, let flags) = plan.kind, def.isPure,
            !plan.isHandler, let stage = def.init() as? any ValueStage,
            positional.allSatisfy(Self.needsOnlyInput),
            flags.values.allSatisfy({ $0.allSatisfy { $0.map(Self.needsOnlyInput) ?? true } })
        else { return nil }
        self.stage = stage
        // `json` before `pick` builds only what the pick can look at, as in the pipeline
        // (`StageCall.pickAhead`, from the plan).
        self.call = StageCall(
            plan: plan, upstream: nil, scope: scope, run: PipelineRun(site: site, input: .null), index: 0)
        let constant = positional.enumerated().allSatisfy { i, a in Self.isConstant(a, expression: i < def.expressionArguments) }
            && flags.values.allSatisfy { $0.allSatisfy { $0.map { Self.isConstant($0, expression: false) } ?? true } }
        if constant, case .value(let a)? = try? call.arguments(for: .null) {
            fixed = a
        } else {
            fixed = nil
        }
    }

    /// True for an argument whose value is the same for every input and every state of the
    /// session: a literal, or an expression argument (`pick`'s) that names no variable.
    static func isConstant(_ argument: Argument, expression: Bool) -> Bool {
        if expression, let text = argument.expressionText { return ExpressionVariables.names(in: text).isEmpty }
        switch argument.kind {
        case .word(let t), .string(let t): return t.isLiteral
        case .rawString, .number, .boolean, .null, .undefined, .duration, .flag: return true
        case .list, .record, .variable, .job, .group: return false
        }
    }

    /// True for an argument whose value depends on the input at most: literals and templates
    /// of the input, no variables, no pipelines.
    static func needsOnlyInput(_ argument: Argument) -> Bool {
        switch argument.kind {
        case .word(let t), .string(let t):
            return t.parts.allSatisfy { part in
                if case .variable = part { return false }
                return true
            }
        case .rawString, .number, .boolean, .null, .undefined, .duration, .flag:
            return true
        case .list, .record, .variable, .job, .group:
            return false
        }
    }

    /// The stage's value on `input`, or nil when it throws, waits, or `input` is a stream (the
    /// caller then runs the pipeline the ordinary way).
    func value(_ input: Value) -> Value? {
        if input.stream != nil || PromiseObservation.isActive { return nil }
        let ran: Resolution<Value>?
        if let fixed {
            ran = try? stage.run(input, fixed, call)
        } else {
            ran = try? stage.runEvaluated(input, call)
        }
        guard case .value(let v)? = ran else { return nil }
        return v
    }
}
