import VowPromises
import VowSyntax
import VowValue

/// One call of a stage in a pipeline: the one handle a stage gets (`StageDefinition.apply`,
/// `ValueStage.run`), made by the evaluator from the stage's plan (`StagePlan`, which the
/// planner built) and where the call sits in the run (its upstream, scope, site). Immutable:
/// everything is known when the call is made.
///
/// Sendable: every stored property is a `let`, and the call is used on the session executor.
public final class StageCall: @unchecked Sendable {
    /// The session (the scope's: a long pipeline keeps a call a stage, so a call keeps nothing
    /// it can read elsewhere).
    public var session: Session { scope.session }
    /// The stage's plan: everything about the call that does not depend on where it runs.
    /// The call keeps the plan and reads it, rather than copying its parts, because a long
    /// pipeline makes one call a stage and keeps them all until the stages settle.
    let plan: StagePlan
    /// The upstream promise; nil for the first stage of a pipeline.
    public let upstream: Promise<Value>?
    /// Re-runs everything upstream of this stage (for `retry`); nil for the first stage.
    public var rerunUpstream: (@Sendable () -> Promise<Value>)? { run.reruns[index] }
    let scope: Scope
    /// The run of the pipeline the stage is in (its site and input are the call's).
    let run: PipelineRun
    /// The stage's place in the run (`index`), in four bytes, beside the two flags below.
    private let place: UInt32
    /// The stage's place in the run: its entry's index.
    var index: Int { Int(place) }
    /// The stage is the last of a statement whose value is printed (`Evaluator.pipeline`): a
    /// document it reads into a tape may go to the printer as the tape (`JSONTapeValue`).
    let resultIsPrinted: Bool
    /// For `json` followed by `pick`: that `pick` is the last stage of a printed statement.
    let pickResultIsPrinted: Bool
    /// The call runs its stage directly, with no promise (`PureStage`), only where nothing
    /// records the promises: what it hands on is never recorded, so it takes the quickest form.
    let runsDirect: Bool

    /// The call of the stage `plan` describes, at `index` in the run `run` (whose site and
    /// input the call takes, and which keeps how to re-run its upstream: `PipelineRun.reruns`),
    /// in `scope` (whose session the call's is). `printed` and `pickPrinted`: the stage, or the
    /// `pick` after it, is the last of a printed statement.
    init(
        plan: StagePlan, upstream: Promise<Value>?, scope: Scope, run: PipelineRun, index: Int,
        printed: Bool = false, pickPrinted: Bool = false, direct: Bool = false
    ) {
        self.plan = plan
        self.upstream = upstream
        self.scope = scope
        self.run = run
        // A pipeline of 4 billion stages is not parsed before memory runs out; never a trap.
        self.place = UInt32(clamping: index)
        self.resultIsPrinted = printed
        self.pickResultIsPrinted = pickPrinted && plan.pickAhead != nil
        self.runsDirect = direct
    }

    /// True when the stage's value, for work of `items` items, is recorded as it is by an
    /// observer (`PromiseObservation.records(items:)`), so it takes the form a trace shows
    /// rather than a quicker one; never for a call that runs directly (`runsDirect`).
    func records(items: Int) -> Bool { !runsDirect && PromiseObservation.records(items: items) }

    /// True when an observer records every promise and the call does not run directly.
    var recordsEveryPromise: Bool { !runsDirect && PromiseObservation.recordsEveryPromise }

    /// The input of the first stage (null at the start of a statement).
    public var pipelineInput: Value { run.input }
    /// Where the stage's pipeline sits in the source.
    var site: Site { run.site }
    /// The stage's name as written.
    public var name: String { plan.name }
    /// The syntax node.
    public var node: StageNode { plan.node }
    /// The argument nodes as the plan bound them (`StagePlan.argumentNodes`).
    var argumentNodes: (positional: ArgumentList, flags: [String: [Argument?]]) { plan.argumentNodes }
    /// Positional argument nodes (flags removed).
    public var positional: ArgumentList { argumentNodes.positional }
    /// Flag nodes by name: each value node, or nil for a switch.
    public var flagNodes: [String: [Argument?]] { argumentNodes.flags }
    /// Labels the promise the stage's handler returns with this stage (for traces and the
    /// timeline): set for `then X`, whose X is applied directly, so that X's own promise shows.
    var labelsAdoptedPromise: Bool { plan.rewrittenThen != nil }
    /// For `json` followed by `pick PATH`: the path, found without building the whole document.
    var pickAhead: PickAhead? { plan.pickAhead }
    /// For `read` followed by `json`: the file's bytes go to `json` as they are (`FileText`).
    var feedsJSON: Bool { plan.feedsJSON }
    /// For `each STAGE…` followed by `pick EXPR` that a fold computes: EXPR (`StagePlan.foldAhead`).
    var foldAhead: String? { plan.foldAhead }
    /// For `each json` followed by `where EXPR`: EXPR (`StagePlan.filterAhead`).
    var filterAhead: String? { plan.filterAhead }
    /// False for `each` followed by `len` when the items' promises are not `recorded` (no
    /// trace, no `--turns`, no page; large work in the REPL): the stage after it reads only how
    /// many results there are, so what the inner stage made is freed as it settles
    /// (`StagePlan.countedAhead`). True otherwise.
    func keepsResults(recorded: Bool) -> Bool { !(plan.countedAhead && !recorded) }
    /// The inner stage of `then X…`, `catch X…`, `each X…`, as the planner planned it.
    var innerPlan: StagePlan? { plan.inner }
    /// How many of the first positional arguments are expressions (`StageDefinition.expressionArguments`).
    var expressionArguments: Int { plan.definition?.expressionArguments ?? 0 }
    /// True when positional words are text as written (`StageDefinition.takesWordsAsWritten`).
    var takesWordsAsWritten: Bool { plan.definition?.takesWordsAsWritten ?? false }
    /// How the stage takes its arguments (nil for a `def` or a value stage): one that reads its
    /// own (`.raw`, `.stage`) waits for the `let` variables its flags name (`pendingVariables`).
    var argumentStyle: ArgumentStyle? { plan.definition?.argumentStyle }

    /// The executor everything runs on.
    public var executor: SerialPromiseExecutor { session.executor }

    /// The stage's text in the source, e.g. `pick user.name`.
    public var text: String { site.source.slice(node.span) }

    /// An error of the stage's own, its message prefixed with the stage's name as written
    /// (`keys: expected a record, got text`); its origin is filled in when it surfaces.
    public func error(_ kind: VowError.Kind, _ message: String, details: Record = Record()) -> VowError {
        VowError(kind, "\(name): \(message)", details: details)
    }

    /// `error(_:_:)` about the positional argument at `index`, which the report underlines
    /// (`VowError.culprit`).
    public func error(_ kind: VowError.Kind, _ message: String, argument index: Int) -> VowError {
        var e = error(kind, message)
        if index < positional.count { e.culprit = positional[index].span.start..<positional[index].span.end }
        return e
    }

    /// `error(_:_:)` about the value of the flag `--flag` (the last one given), which the report
    /// underlines.
    public func error(_ kind: VowError.Kind, _ message: String, flag: String) -> VowError {
        var e = error(kind, message)
        if let node = flagNodes[flag]?.last ?? nil { e.culprit = node.span.start..<node.span.end }
        return e
    }

    /// Runs `body`, putting this stage's name before the message of an error that awaits it
    /// (`VowError.ofStage`): the runtime, not the code that raised it, names the stage.
    public func namingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var e as VowError where e.awaitsStageName {
            e.message = "\(name): \(e.message)"
            e.awaitsStageName = false
            throw e
        }
    }

    /// The promises of the `let` variables still pending that this stage's flags name (`each
    /// --limit $n`), and its arguments for a stage that reads them as values (`timeout $t`): a
    /// stage that reads its own arguments waits for them, as an expression waits for the
    /// variables it names. Empty for the other stages, whose arguments wait by themselves.
    func pendingVariables() -> [Promise<Value>] {
        guard let style = argumentStyle, style.waitsForVariables else { return [] }
        var nodes = flagNodes.values.flatMap { $0.compactMap { $0 } }
        if style == .raw { nodes += positional }
        var out: [Promise<Value>] = []
        for a in nodes {
            if case .variable(let name, _) = a.kind, name != "_", case .promise(let p)? = scope.lookup(name), p.isPending {
                out.append(p)
            }
        }
        return out
    }

    /// Chains `body` on the upstream (one turn), or runs it now on the pipeline's input. The
    /// errors `body` throws are named (`namingErrors`); a stage whose flags name a pending `let`
    /// runs once it has settled (`pendingVariables`).
    public func chain(_ given: @escaping @Sendable (Value) throws -> Resolution<Value>) -> Promise<Value> {
        // One closure a stage: a long pipeline keeps every stage's until the stage runs.
        if let upstream {
            return upstream.then(name: name, attributes: traceInfo, on: executor, resolving: { [self] input in
                labelling(try namingErrors { try runWaiting(given, input) })
            })
        }
        return started { try namingErrors { try runWaiting(given, pipelineInput) } }
    }

    /// `chain` for a stage that takes one input (`ValueStage.handle`). Its handler keeps the
    /// call alone and reaches the stage through the definition the call's plan holds
    /// (`StageDefinition.handleValue`), so that no closure context is made for it: a long
    /// pipeline keeps every stage's handler until the stage runs.
    func chain<S: ValueStage>(running stage: S) -> Promise<Value> {
        guard let upstream else { return started { try handled(S.self, pipelineInput) } }
        return upstream.then(name: name, attributes: traceInfo, on: executor, resolving: { [self] input in
            try self.react(input)
        })
    }

    /// What the handler `chain(running:)` attaches does with the upstream's value: `chain`'s
    /// handler, for a stage that takes one input (and what `PureStretch` runs, stage by stage).
    func react(_ input: Value) throws -> Resolution<Value> {
        // Only a value stage's call comes here (`ValueStage.apply`), so its plan is a built-in's.
        guard let def = plan.definition else { throw error(.type, "does not run on its upstream's value this way") }
        return labelling(try handled(def, input))
    }

    /// The value stage `def` run on `input`, its errors named (`namingErrors`), once the `let`
    /// variables its flags name have settled (`pendingVariables`). A stage that cannot wait for
    /// one (its arguments are values, which wait by themselves) runs at once, with no closure
    /// made for the wait.
    private func handled(_ def: any StageDefinition.Type, _ input: Value) throws -> Resolution<Value> {
        if def.argumentStyle.waitsForVariables {
            return try namingErrors { try runWaiting({ [self] in try def.handleValue($0, self) }, input) }
        }
        return try namingErrors { try def.handleValue(input, self) }
    }

    /// The promise of a pipeline's first stage, which `body` runs now on the pipeline's input:
    /// settled with what it gives (`PipelineRun.immediate` records it), or the promise it gives.
    private func started(_ body: () throws -> Resolution<Value>) -> Promise<Value> {
        let p: Promise<Value>
        do {
            switch try body() {
            case .value(let v):
                if index == 0 { run.immediate = .success(v) }
                p = Promise.resolve(v, name: name, on: executor)
            case .promise(let promise): p = promise
            }
        } catch {
            if index == 0 { run.immediate = .failure(error) }
            p = Promise.reject(error, name: name, on: executor)
        }
        if PromiseObservation.isActive { PromiseObservation.label(p, traceInfo) }
        return p
    }

    /// `r`, its promise labelled with this stage for traces when the stage is a rewritten
    /// `then X` (`labelsAdoptedPromise`) and an observer is installed.
    private func labelling(_ r: Resolution<Value>) -> Resolution<Value> {
        if labelsAdoptedPromise, PromiseObservation.isActive, case .promise(let p) = r {
            PromiseObservation.label(p, traceInfo)
        }
        return r
    }

    /// `given` run on `input` now, or once the `let` variables the stage's flags name have
    /// settled (`pendingVariables`).
    private func runWaiting(
        _ given: @escaping @Sendable (Value) throws -> Resolution<Value>, _ input: Value
    ) throws -> Resolution<Value> {
        let waits = pendingVariables()
        guard !waits.isEmpty else { return try given(input) }
        return .promise(Promise.all(waits, on: executor, cancelsOthers: false).then(on: executor, resolving: { _ in
            try self.namingErrors { try given(input) }
        }))
    }

    /// Span information attached to trace events.
    public var traceInfo: StageTraceInfo {
        let (line, col) = site.source.lineColumn(of: node.span.start)
        return StageTraceInfo(stage: name, text: text, line: line, column: col)
    }

    /// Runs a sub-pipeline (a group argument, a list element) on `input`, in this call's scope.
    public func runPipeline(_ p: Pipeline, input: Value, context: [String] = []) -> Promise<Value> {
        Evaluator(session: session).pipeline(p, input: input, scope: scope, site: site(adding: context)).promise
    }

    /// Runs a sub-pipeline at `place` among the elements or fields of this stage's argument.
    func runPipeline(_ p: Pipeline, input: Value, at place: Site.Place) -> Promise<Value> {
        Evaluator(session: session).pipeline(p, input: input, scope: scope, site: site.adding(place)).promise
    }

    /// This call's site with `context` added to what an error reports of it.
    func site(adding context: [String]) -> Site {
        Site(source: site.source, statement: site.statement, context: site.context + context, depth: site.depth, run: site.run)
    }

    /// An argument of a stage that reads its arguments itself (`retry`, `until`), as a plain
    /// value, evaluated with no input; a pipeline argument is refused.
    func plain(_ a: Argument) throws -> Value {
        try Evaluator(session: session).plainArgument(a, input: .null, scope: scope, site: site, problem: "\(name): arguments must be plain values")
    }

    /// The stages between the error's origin and this stage, which the rejection skipped.
    public func skippedBefore(_ error: VowError) -> [String] {
        run.skipped(after: error, before: index)
    }

    /// The error, converted to a `VowError` and given its origin within this pipeline (the stages
    /// before this one) when it has none yet.
    public func annotate(_ error: any Error) -> VowError {
        run.annotate(error, before: index)
    }
}
