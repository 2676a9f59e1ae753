import JMESPath
import VowSyntax
import VowValue

/// One stage of a pipeline, resolved: its name looked up (a `def`, a built-in, an external
/// `vow-NAME`), `then X` rewritten to X, its arguments sorted into positional ones and flags by
/// the stage's declaration. None of it depends on the input, so a stage that runs the same
/// pipeline on many inputs (`each`, `then`/`catch` handlers, `iterate`) resolves it once.
///
/// Names are resolved when the plan is made: a `def` given while an `each` is already running
/// does not change the stage its later elements run (see docs/decisions.md).
///
/// A class, so that a plan is handed around (kept by a `PlanCache`, read by each run) without
/// copying its parts. Threading: the planner fills it in (its `var`s are set while planning,
/// `fuse` included) and nothing changes it after; then it is only read, on the session executor.
final class StagePlan: @unchecked Sendable {
    /// What the stage is.
    enum Kind {
        /// `$x | …`, `%2 | …`, `[a, b] | …`: the value itself, evaluated against the input.
        case value(Argument)
        /// A built-in or external stage, with its positional arguments and flags.
        case builtin(any StageDefinition.Type, [Argument], [String: [Argument?]])
        /// A `def` stage.
        case user(UserStage)
        /// A stage that cannot start (unknown name, bad flags): it rejects with this problem's error.
        case refused(PlanProblem)
    }

    /// The name the pipeline's records give the stage (`then` for a rewritten `then X`).
    var reportedName: String
    /// The name of the stage that runs (X for `then X`).
    let name: String
    /// The node the stage sees (for `then X`, X's node).
    let node: Stage
    /// What the stage is.
    let kind: Kind
    /// What the stage does with a rejection that reaches it (its definition's `onRejection`,
    /// kept when the stage cannot start, so that it is still not listed as skipped).
    var onRejection = RejectionRole.skipped
    /// `catch` and `finally`: handlers that run only on a rejection or on either outcome.
    var isHandler: Bool { onRejection.isHandler }
    /// For a rewritten `then X`, the span of the whole `then` stage (traces label its promise).
    var rewrittenThen: SourceSpan? = nil
    /// The inner stage of `then X…`, `catch X…`, `each X…` (X with the rest of the arguments),
    /// planned; nil when the stage takes none, or takes a group.
    var inner: StagePlan? = nil
    /// For `json` followed by `pick EXPR` with a literal expression: the simple path `json` finds
    /// the value of itself (`JSONPathScan`), or the expression `pick` searches the document's
    /// tape with (`JSONTape`).
    var pickAhead: PickAhead? = nil
    /// For `read PATH` followed by `json`: `read` hands the file's bytes to `json` as they are
    /// (`FileText`), without making a String of them, which would check the UTF-8 a second time.
    var feedsJSON = false

    /// A plan of `node`: `name` runs, `reportedName` names it in the pipeline's records.
    init(reportedName: String, name: String, node: Stage, kind: Kind) {
        self.reportedName = reportedName
        self.name = name
        self.node = node
        self.kind = kind
    }

    /// The built-in stage that runs, or nil for a `def`, a value or a refused stage.
    var definition: (any StageDefinition.Type)? {
        if case .builtin(let def, _, _) = kind { return def }
        return nil
    }

    /// Lets the stage look at the stage after it (`LooksAhead`): `json | pick`, `read | json`.
    func fuse(next: StagePlan) {
        // Asked first, so that the conformance is looked up only for the stages that look ahead.
        guard let def = definition, def.looksAhead, let looking = def as? any LooksAhead.Type else { return }
        looking.lookAhead(self, next: next)
    }
}

/// A stage that does less work when it knows the stage after it, declared by the stage itself
/// (`JsonStage`, `ReadStage`); the planner asks it once per pipeline, when it plans it. Both
/// stages keep their promises and their turns.
protocol LooksAhead: StageDefinition {
    // A stage that conforms also says so with `StageDefinition.looksAhead`.
    /// Sets what `plan` hands on to `next` (`StagePlan.pickAhead`, `StagePlan.feedsJSON`).
    static func lookAhead(_ plan: StagePlan, next: StagePlan)
}

/// The `pick` that follows a `json` stage, when its expression is literal text.
struct PickAhead: Sendable {
    /// The expression as `pick` will see it.
    let expression: String
    /// Its steps, when it is a path of fields and indexes: `json` finds the value itself.
    let path: [JMESPathStep]?

    /// The lookahead for `plan` when it is `json` and `next` is `pick` with a literal expression.
    init?(_ plan: StagePlan, next: StagePlan) {
        guard case .builtin(_, let positional, let flags) = plan.kind, flags.isEmpty,
            case .builtin(let nextDef, let arguments, let nextFlags) = next.kind, nextDef == PickStage.self,
            nextFlags.isEmpty, arguments.count == 1, positional.isEmpty, !next.isHandler,
            let text = Self.text(arguments[0]),
            let compiled = try? JMESPathExpression.cached(text)
        else { return nil }
        self.expression = text
        self.path = compiled.simplePath
    }

    /// The text of an argument written as plain text (a word or a string with nothing to
    /// interpolate), or nil.
    private static func text(_ argument: Argument) -> String? {
        switch argument.kind {
        case .word(let t), .string(let t): return t.literalText
        case .rawString(let s): return s
        default: return nil
        }
    }
}

/// A pipeline's plans, made the first time the pipeline runs and kept for the later runs.
/// Touched only on the session executor.
final class PlanCache: @unchecked Sendable {
    private var plans: [StagePlan]?
    private var pure: PureStage??
    private var purePipeline: PurePipeline??

    /// A cache that plans on first use, or holds `plans` already made.
    init(plans: [StagePlan]? = nil) { self.plans = plans }

    /// The plans of `pipeline`, made by `evaluator` on the first call.
    func plans(_ pipeline: Pipeline, _ evaluator: Evaluator) -> [StagePlan] {
        if let plans { return plans }
        let made = evaluator.plans(pipeline)
        plans = made
        return made
    }

    /// The pipeline's direct form (`PureStage`), or nil when it has none; made on the first call.
    func pureStage(_ pipeline: Pipeline, _ evaluator: Evaluator, scope: Scope, site: Site) -> PureStage? {
        if let pure { return pure }
        let made = PureStage(plans(pipeline, evaluator), session: evaluator.session, scope: scope, site: site)
        pure = .some(made)
        return made
    }

    /// The pipeline's direct form for the items of a stream (`PurePipeline`), or nil when it has
    /// none; made on the first call.
    func purePipeline(_ pipeline: Pipeline, _ evaluator: Evaluator, nullEnds: Bool, scope: Scope, site: Site) -> PurePipeline? {
        if let purePipeline { return purePipeline }
        let made = PurePipeline(plans(pipeline, evaluator), nullEnds: nullEnds, session: evaluator.session, scope: scope, site: site)
        purePipeline = .some(made)
        return made
    }
}
