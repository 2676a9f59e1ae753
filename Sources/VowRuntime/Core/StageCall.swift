import VowPromises
import VowSyntax
import VowValue

/// Where a pipeline sits in the source, for error origins.
struct Site: Sendable {
    let source: SourceText
    let statement: SourceSpan
    let context: [String]
    /// How many `def` stages this site is nested in (a def's body inside a def's body …).
    var depth = 0
    /// The run of the top-level statement this site belongs to (`Session.nextStatementRun`):
    /// `sim` counts its attempts afresh in each.
    var run = 0
}

/// The arguments of one stage call after evaluation: positional values and flags.
public struct StageArguments: Sendable {
    /// The positional arguments, in order.
    public var positional: [Value]
    /// The flags given, by name; a switch has the value `true`. Repeatable flags keep every value.
    public var flags: [String: [Value]]
    /// The stage name, for error messages.
    public let stage: String

    /// The number of positional arguments.
    public var count: Int { positional.count }

    /// The positional argument at `i`, or nil.
    public subscript(i: Int) -> Value? { i < positional.count ? positional[i] : nil }




    /// A required positional string (numbers are turned into text).
    public func string(_ i: Int, _ what: String) throws -> String {
        guard let v = self[i] else { throw VowError(.type, "\(stage): missing \(what)") }
        return try asString(v, what)
    }

    /// A value as text, or a type error naming it.
    public func asString(_ v: Value, _ what: String) throws -> String {
        switch v {
        case .string(let s): return s
        case .int, .double, .bool: return JSONWriter.compact(v)
        default: throw VowError(.type, "\(stage): \(what) must be text, got \(v.typeName)")
        }
    }

    /// A duration in seconds: a number, a duration literal, or text like `250ms`.
    public func seconds(_ v: Value, _ what: String) throws -> Double {
        if let d = v.doubleValue, d >= 0 { return d }
        if case .string(let s) = v, let d = parseDuration(s) { return d }
        throw VowError(.type, "\(stage): \(what) must be a duration like 250ms or 2s, got \(JSONWriter.compact(v))")
    }

    /// A whole number, or a type error.
    public func integer(_ v: Value, _ what: String) throws -> Int {
        if let i = v.intValue { return i }
        if case .string(let s) = v, let i = Int(s) { return i }
        throw VowError(.type, "\(stage): \(what) must be a whole number, got \(JSONWriter.compact(v))")
    }
}

/// Parses `250ms`, `2s`, `1.5m`, `1h`, or a plain number of seconds.
public func parseDuration(_ s: String) -> Double? { DurationUnit.parse(s) }

/// One call of a stage in a pipeline: what `StageDefinition.apply` gets.
public final class StageCall: @unchecked Sendable {
    /// The session.
    public let session: Session
    /// The stage's name as written.
    public let name: String
    /// The syntax node.
    public let node: Stage
    /// Positional argument nodes (flags removed).
    public let positional: [Argument]
    /// Flag nodes by name: each value node, or nil for a switch.
    public let flagNodes: [String: [Argument?]]
    /// The upstream promise; nil for the first stage of a pipeline.
    public let upstream: Promise<Value>?
    /// The input of the first stage (null at the start of a statement).
    public let pipelineInput: Value
    /// Re-runs everything upstream of this stage (for `retry`); nil for the first stage.
    public let rerunUpstream: (@Sendable () -> Promise<Value>)?
    let scope: Scope
    let site: Site
    let run: PipelineRun
    let index: Int
    /// Labels the promise the stage's handler returns with this stage (for traces and the
    /// timeline): set for `then X`, whose X is applied directly, so that X's own promise shows.
    var labelsAdoptedPromise = false
    /// For `json` followed by `pick PATH`: the path, found without building the whole document.
    var pickAhead: PickAhead? = nil
    /// For `read` followed by `json`: the file's bytes go to `json` as they are (`FileText`).
    var feedsJSON = false
    /// The stage is the last of a statement whose value is printed (`Evaluator.pipeline`): a
    /// document it reads into a tape may go to the printer as the tape (`JSONTapeValue`).
    var resultIsPrinted = false
    /// For `json` followed by `pick`: that `pick` is the last stage of a printed statement.
    var pickResultIsPrinted = false
    /// The inner stage of `then X…`, `catch X…`, `each X…`, as the planner planned it.
    var innerPlan: StagePlan? = nil
    /// How many of the first positional arguments are expressions (`StageDefinition.expressionArguments`).
    var expressionArguments = 0
    /// True when positional words are text as written (`StageDefinition.takesWordsAsWritten`).
    var takesWordsAsWritten = false

    init(
        session: Session, name: String, node: Stage, positional: [Argument], flagNodes: [String: [Argument?]],
        upstream: Promise<Value>?, pipelineInput: Value, rerunUpstream: (@Sendable () -> Promise<Value>)?,
        scope: Scope, site: Site, run: PipelineRun, index: Int
    ) {
        self.session = session
        self.name = name
        self.node = node
        self.positional = positional
        self.flagNodes = flagNodes
        self.upstream = upstream
        self.pipelineInput = pipelineInput
        self.rerunUpstream = rerunUpstream
        self.scope = scope
        self.site = site
        self.run = run
        self.index = index
    }

    /// The executor everything runs on.
    public var executor: SerialPromiseExecutor { session.executor }

    /// A context for running on `input`.
    public func context(_ input: Value) -> StageContext { StageContext(call: self, input: input) }

    /// The stage's text in the source, e.g. `pick user.name`.
    public var text: String { site.source.slice(node.span) }

    /// Chains `body` on the upstream (one turn), or runs it now on the pipeline's input.
    public func chain(_ body: @escaping @Sendable (Value, StageContext) throws -> Resolution<Value>) -> Promise<Value> {
        if let upstream {
            return upstream.then(name: name, attributes: traceInfo, on: executor, resolving: { input in
                let r = try body(input, self.context(input))
                if self.labelsAdoptedPromise, PromiseObservation.isActive, case .promise(let p) = r {
                    PromiseObservation.label(p, self.traceInfo)
                }
                return r
            })
        }
        let p: Promise<Value>
        do {
            switch try body(pipelineInput, context(pipelineInput)) {
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

    /// Span information attached to trace events.
    public var traceInfo: StageTraceInfo {
        let (line, col) = site.source.lineColumn(of: node.span.start)
        return StageTraceInfo(stage: name, text: text, line: line, column: col)
    }

    /// Runs a sub-pipeline (a group argument, a list element) on `input`, in this call's scope.
    public func runPipeline(_ p: Pipeline, input: Value, context: [String] = []) -> Promise<Value> {
        let site = Site(source: self.site.source, statement: self.site.statement, context: self.site.context + context, depth: self.site.depth, run: self.site.run)
        return Evaluator(session: session).pipeline(p, input: input, scope: scope, site: site).promise
    }

    /// The inner stage of `then STAGE…`, `catch HANDLER…`, `each STAGE…`: a function from an
    /// input to what the stage does with it, or nil when no stage was given. A stage that finishes
    /// at once returns `.value` (or throws), one that waits returns `.promise`, which the caller
    /// adopts; a group `( … )` always returns a promise, as a function that runs a pipeline does
    /// in JavaScript (see docs/javascript-twin.md). The calling stage's own flags (`each`'s
    /// `--limit`) were bound to it by the planner and are not passed on. With `nullEnds`
    /// (`iterate`), a null between the stages of a group skips the rest (`Evaluator.pipeline`).
    public func innerStage(context: [String] = [], nullEnds: Bool = false) -> (@Sendable (Value) throws -> Resolution<Value>)? {
        innerPipeline(context: context).map { innerStage($0, nullEnds: nullEnds) }
    }

    /// What runs one input through the inner stage `inner` (`innerStage`).
    private func innerStage(_ inner: InnerPipeline, nullEnds: Bool) -> @Sendable (Value) throws -> Resolution<Value> {
        let (ev, site, scope, ex) = (inner.evaluator, inner.site, self.scope, executor)
        let (pipe, cache) = (inner.pipeline, inner.cache)
        if inner.isGroup {
            return { input in
                // A group is a promise, always: the direct value is given as one, in the same
                // turn as the pipeline's own would settle.
                if let v = cache.pureStage(pipe, ev, scope: scope, site: site)?.value(input) { return .promise(Promise.resolve(v, on: ex)) }
                let (promise, run) = ev.pipeline(pipe, plans: cache.plans(pipe, ev), nullEnds: nullEnds, input: input, scope: scope, site: site)
                return .promise(Evaluator.annotating(promise, run))
            }
        }
        return { input in
            if let v = cache.pureStage(pipe, ev, scope: scope, site: site)?.value(input) { return .value(v) }
            let (promise, run) = ev.pipeline(pipe, plans: cache.plans(pipe, ev), input: input, scope: scope, site: site)
            switch run.immediate {
            case .success(let v)?: return .value(v)
            // Thrown as it is: the stage that holds this handler is where it rejected.
            case .failure(let e)?: throw e
            case nil: return .promise(promise)
            }
        }
    }

    /// The inner stage's pipeline (a group's, or the one stage the rest of the arguments form),
    /// with the cache of its plans and what runs it; nil when no stage was given.
    private func innerPipeline(context: [String]) -> InnerPipeline? {
        guard let first = positional.first else { return nil }
        let ev = Evaluator(session: session)
        let site = Site(source: self.site.source, statement: self.site.statement, context: self.site.context + context, depth: self.site.depth, run: self.site.run)
        if positional.count == 1, case .group(let p) = first.kind {
            // The pipeline is planned once, when it first runs, not once per input.
            return InnerPipeline(pipeline: p, cache: PlanCache(), isGroup: true, evaluator: ev, site: site)
        }
        // The rest of the arguments form a stage: its name is the first word.
        let plan = innerPlan ?? Planner(session: session).plan(Stage.inner(first: first, rest: positional.dropFirst(), end: node.span.end))
        return InnerPipeline(pipeline: Pipeline(stages: [plan.node], span: plan.node.span), cache: PlanCache(plans: [plan]), isGroup: false, evaluator: ev, site: site)
    }

    /// `innerStagePromise` for the items of a stream, with the inner pipeline's direct form
    /// beside it (`PurePipeline`): `direct` gives an item's value when every stage of the
    /// pipeline is pure and nothing observes the promises, and nil when the item must go the
    /// ordinary way (through `promise`), which then gives the same value or the same error.
    func innerStageForStream(context: [String] = [], nullEnds: Bool = false) -> (promise: @Sendable (Value) -> Promise<Value>, direct: @Sendable (Value) -> Value?)? {
        guard let inner = innerPipeline(context: context) else { return nil }
        let promise = innerStagePromise(innerStage(inner, nullEnds: nullEnds))
        let (ev, site, scope) = (inner.evaluator, inner.site, self.scope)
        let (pipe, cache) = (inner.pipeline, inner.cache)
        return (promise, { input in cache.purePipeline(pipe, ev, nullEnds: nullEnds, scope: scope, site: site)?.value(input) })
    }

    /// `innerStage` as a promise in every case, for stages that collect promises (`each`).
    public func innerStagePromise(context: [String] = [], nullEnds: Bool = false) -> (@Sendable (Value) -> Promise<Value>)? {
        innerStage(context: context, nullEnds: nullEnds).map(innerStagePromise)
    }

    /// `inner` (an `innerStage`) giving a promise in every case.
    private func innerStagePromise(_ inner: @escaping @Sendable (Value) throws -> Resolution<Value>) -> @Sendable (Value) -> Promise<Value> {
        let ex = executor
        return { input in
            do {
                switch try inner(input) {
                case .value(let v): return Promise.resolve(v, on: ex)
                case .promise(let p): return p
                }
            } catch {
                return Promise.reject(error, on: ex)
            }
        }
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

/// The inner stage of a stage that takes one (`StageCall.innerStage`): its pipeline (a group's,
/// or the one stage the rest of the arguments form), the cache of its plans, and what runs it.
private struct InnerPipeline {
    let pipeline: Pipeline
    let cache: PlanCache
    /// A group `( … )`, which is a promise always.
    let isGroup: Bool
    let evaluator: Evaluator
    let site: Site
}

/// What a trace event says about the stage that made a promise.
public struct StageTraceInfo: Sendable {
    /// The stage name.
    public let stage: String
    /// The stage's source text.
    public let text: String
    /// 1-based line of the stage.
    public let line: Int
    /// 1-based column of the stage.
    public let column: Int
}

/// What a stage's `run` sees: its input, the session, and helpers.
public struct StageContext: Sendable {
    /// The call.
    public let call: StageCall
    /// The stage's input.
    public let input: Value

    /// The session.
    public var session: Session { call.session }

    /// Evaluates the call's arguments against the input.
    public func evaluateArguments(_ call: StageCall, input: Value) throws -> Resolution<StageArguments> {
        let ev = Evaluator(session: session)
        var pending: [Promise<Value>] = []
        var slots: [(isFlag: Bool, name: String, index: Int)] = []
        var args = StageArguments(positional: [], flags: [:], stage: call.name)
        do {
            for (i, a) in call.positional.enumerated() {
                if i < call.expressionArguments, let text = a.expressionText {
                    switch try ev.expression(text, scope: call.scope) {
                    case .value(let v): args.positional.append(v)
                    case .promise(let p):
                        args.positional.append(.null)
                        slots.append((false, "", args.positional.count - 1))
                        pending.append(p)
                    }
                    continue
                }
                if call.takesWordsAsWritten, let text = a.wordAsWritten {
                    args.positional.append(.string(text))
                    continue
                }
                switch try ev.argument(a, input: input, scope: call.scope, site: call.site) {
                case .value(let v): args.positional.append(v)
                case .promise(let p):
                    args.positional.append(.null)
                    slots.append((false, "", args.positional.count - 1))
                    pending.append(p)
                }
            }
            for (name, nodes) in call.flagNodes {
                var values: [Value] = []
                for n in nodes {
                    guard let n else {
                        values.append(.bool(true))
                        continue
                    }
                    switch try ev.argument(n, input: input, scope: call.scope, site: call.site) {
                    case .value(let v): values.append(v)
                    case .promise(let p):
                        values.append(.null)
                        slots.append((true, name, values.count - 1))
                        pending.append(p)
                    }
                }
                args.flags[name] = values
            }
        } catch {
            // A later argument failed: the pipelines the earlier ones started are not wanted.
            for p in pending { p.abandon(reason: "cancelled: another argument failed") }
            throw error
        }
        if pending.isEmpty { return .value(args) }
        let fixed = args
        let fixedSlots = slots
        // The arguments arrive together, in the turn the last one settles (Promise.all's turn).
        return .promise(Promise.all(pending, on: session.executor, cancelsOthers: !session.javaScriptMode).relay { r in
            r.map { values -> StageArguments in
                var a = fixed
                for (slot, v) in zip(fixedSlots, values) {
                    if slot.isFlag { a.flags[slot.name]![slot.index] = v } else { a.positional[slot.index] = v }
                }
                return a
            }
        })
    }

    /// A `VowError` of `kind` (its origin is filled in when it surfaces).
    public func error(_ kind: VowError.Kind, _ message: String, details: Record = Record()) -> VowError {
        VowError(kind, message, details: details)
    }
}

extension SourceText {
    /// The source text of `span`.
    func slice(_ span: SourceSpan) -> String {
        let lo = max(0, min(span.start, bytes.count)), hi = max(lo, min(span.end, bytes.count))
        return String(decoding: bytes[lo..<hi], as: UTF8.self)
    }
}
