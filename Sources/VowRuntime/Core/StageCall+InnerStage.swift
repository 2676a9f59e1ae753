import VowPromises
import VowSyntax
import VowValue

/// The inner stage of a stage that takes one (`then X…`, `catch X…`, `each X…`): what runs it
/// on one input, planned once.
extension StageCall {
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

    /// The inner stage run once on `input`, made now (`innerStage`): for a stage that runs it at
    /// most once (`then`, `catch`, `finally`, `tap`), which need not keep it from the moment the
    /// pipeline is built until its input comes. The caller has checked that a stage was given.
    func runInner(_ input: Value, context: [String] = []) throws -> Resolution<Value> {
        guard let inner = innerStage(context: context) else { throw error(.type, "missing STAGE") }
        return try inner(input)
    }

    /// The handlers of `then (A) (B)`: what runs one input through each group, in order; nil
    /// unless every positional argument is a group.
    func groupHandlers(context: [String] = []) -> [@Sendable (Value) throws -> Resolution<Value>]? {
        var handlers: [@Sendable (Value) throws -> Resolution<Value>] = []
        for argument in positional {
            guard case .group(let p) = argument.kind else { return nil }
            let inner = InnerPipeline(pipeline: p, cache: PlanCache(), isGroup: true, evaluator: Evaluator(session: session), site: site(adding: context))
            handlers.append(innerStage(inner, nullEnds: false))
        }
        return handlers
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
            let (promise, run) = ev.pipeline(pipe, plans: cache.plans(pipe, ev), handler: true, input: input, scope: scope, site: site)
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
        let site = self.site(adding: context)
        if positional.count == 1, case .group(let p) = first.kind {
            // The pipeline is planned once, when it first runs, not once per input.
            return InnerPipeline(pipeline: p, cache: PlanCache(), isGroup: true, evaluator: ev, site: site)
        }
        // The rest of the arguments form a stage: its name is the first word.
        let plan = innerPlan ?? Planner(session: session).plan(StageNode.inner(first: first, rest: positional.dropFirst(), end: node.span.end))
        return InnerPipeline(pipeline: Pipeline(one: plan.node), cache: PlanCache(plans: [plan]), isGroup: false, evaluator: ev, site: site)
    }

    /// `innerStagePromise` for the items of a stream, with the inner pipeline's direct form
    /// beside it (`PurePipeline`): `direct` gives an item's value when every stage of the
    /// pipeline is pure and the items' promises are not `recorded`, and nil when the item must
    /// go the ordinary way (through `promise`), which then gives the same value or the same error.
    func innerStageForStream(
        context: [String] = [], nullEnds: Bool = false, recorded: Bool
    ) -> (promise: @Sendable (Value) -> Promise<Value>, direct: @Sendable (Value) -> Value?)? {
        guard let inner = innerPipeline(context: context) else { return nil }
        let promise = innerStagePromise(innerStage(inner, nullEnds: nullEnds))
        let (ev, site, scope) = (inner.evaluator, inner.site, self.scope)
        let (pipe, cache) = (inner.pipeline, inner.cache)
        return (promise, { input in cache.purePipeline(pipe, ev, nullEnds: nullEnds, scope: scope, site: site)?.value(input, recorded: recorded) })
    }

    /// `innerStagePromise` for `each` over a list, which settles its elements itself: a value
    /// the stage has at once (a pure stage's, `PureStage`) is given as it is, for `each` to take
    /// in the turn its promise's reaction would run (`IndexedValueJob`); a group's promise is
    /// the pipeline's own, its rejection not yet given the group's origin, with the run that
    /// gives it (`PipelineRun.annotate`), instead of a promise that settles with the origin given
    /// (a promise and a reaction an element, that a long `each` of pending elements keeps).
    /// When the elements are `recorded` (a trace, `--turns`, a small list in the REPL) every
    /// element has the usual promise.
    func innerStageRuns(context: [String] = [], recorded: Bool) -> (@Sendable (Value) -> InnerRun)? {
        guard let inner = innerPipeline(context: context) else { return nil }
        let usual = innerStagePromise(innerStage(inner, nullEnds: false))
        let (ev, site, scope) = (inner.evaluator, inner.site, self.scope)
        let (pipe, cache, isGroup) = (inner.pipeline, inner.cache, inner.isGroup)
        return { input in
            if recorded { return .promise(usual(input), nil) }
            if let v = cache.pureStage(pipe, ev, scope: scope, site: site)?.value(input, recorded: false) { return .value(v) }
            guard isGroup else { return .promise(usual(input), nil) }
            let (promise, run) = ev.pipeline(pipe, plans: cache.plans(pipe, ev), input: input, scope: scope, site: site)
            if case .success(let v)? = promise.result { return .value(v) }
            return .promise(promise, run)
        }
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

/// One input's run of an inner stage (`StageCall.innerStageRuns`): its value when the stage
/// had it at once, else its promise, with the run of the group whose rejection has not been
/// given the group's origin yet (nil when it has, or when there is no group).
enum InnerRun {
    case value(Value)
    case promise(Promise<Value>, PipelineRun?)
}
