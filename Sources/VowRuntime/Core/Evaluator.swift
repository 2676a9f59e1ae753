import VowPromises
import VowSyntax
import VowValue

/// Turns syntax trees into promise chains on the session's executor.
///
/// Call it on the session executor only.
struct Evaluator: Sendable {
    let session: Session

    /// Builds a pipeline: the first stage runs now on `input`, each `|` is a `then`. `plans`,
    /// when given, are the pipeline's stages already resolved (`plan(_:)`), as a stage that runs
    /// the same pipeline on many inputs (`each`, a handler) keeps them.
    ///
    /// With `nullEnds` (the step of `iterate`), a null between two stages skips the rest, as
    /// `?.` does in JavaScript: the pipeline rejects with `Evaluator.nothingToWorkOn`.
    /// `handler`: the pipeline is a handler's body (`PipelineRun.isHandler`).
    /// `printed`: the pipeline's value goes only to the printer (a statement's value), so its
    /// last stage may hand a document still in its tape (`StageCall.resultIsPrinted`).
    func pipeline(
        _ p: Pipeline, plans: [StagePlan]? = nil, nullEnds: Bool = false, printed: Bool = false, handler: Bool = false, input: Value,
        scope: Scope, site: Site
    ) -> (promise: Promise<Value>, run: PipelineRun) {
        let run = PipelineRun(site: site, input: input, isHandler: handler)
        // Planned from the pipeline's own list of stages, which the plans then share with the
        // syntax tree (`StagePlan.init`): planned from a slice of it, they would keep a copy. A
        // one-stage pipeline written as the one planned last (the elements of `all [resolve 1,
        // resolve 2, …]`) takes that one's plan again (`plans(_:)`).
        let plans = plans ?? self.plans(p)
        let promise = stages(
            p.stages[...], plans: plans, nullEnds: nullEnds, printed: printed, input: input, scope: scope, site: site, run: run)
        return (promise, run)
    }

    private func stages(
        _ stages: Slice<StageNodes>, plans: [StagePlan]?, nullEnds: Bool = false, printed: Bool = false, input: Value, scope: Scope,
        site: Site, run: PipelineRun
    ) -> Promise<Value> {
        let plans = plans ?? Planner(session: session).plan(stages)
        run.entries.reserveCapacity(run.entries.count + stages.count)
        var current: Promise<Value>? = nil
        // A printed statement's last two stages may hand the printer a tape: never in a stretch.
        let stretchEnd = printed ? stages.count - 2 : stages.count
        var offset = 0
        while offset < stages.count {
            defer { offset += 1 }
            // A stretch of pure stages after the first (hops `then (G)` of a pure G among them),
            // while nothing records promises: one promise for all of them, settled in the turn
            // the last would settle.
            if let upstream = current, !nullEnds, !PromiseObservation.isActive {
                var groups: GroupForms? = nil
                let length = PureStretch.length(
                    plans, from: offset, to: stretchEnd, groups: &groups, evaluator: self, written: stages, source: site.source)
                if length >= PureStretch.fewest {
                    let first = stages.startIndex + offset
                    let stretch = PureStretch(
                        plans: plans[offset..<(offset + length)], written: stages.base[first..<(first + length)], firstIndex: run.entries.count,
                        scope: scope, run: run, evaluator: self, groups: groups)
                    let promise = stretch.chain(on: upstream)
                    for k in offset..<(offset + length) {
                        run.entries.append(.init(plan: plans[k], promise: promise, span: stages.base[stages.startIndex + k].span))
                    }
                    current = promise
                    offset += length - 1
                    continue
                }
            }
            // Only the node's span is read: the node itself is not copied out.
            let span = stages.base[stages.startIndex + offset].span
            let i = run.entries.count
            // A plan shared by stages written alike, placed at this one (`Planner.plan(_:sharing:)`).
            let plan = plans[offset].placed(in: stages.base, at: stages.startIndex + offset)
            // Only a stage that re-runs its upstream (`retry`, `until`) gets a closure for it,
            // kept by the run (`StageCall.rerunUpstream` reads it there).
            if offset > 0, plan.definition?.rerunsUpstream == true {
                let priorRange = stages.startIndex..<(stages.startIndex + offset)
                run.reruns[i] = { @Sendable [stages] in
                    let again = PipelineRun(site: site, input: input)
                    return self.stages(stages[priorRange], plans: nil, input: input, scope: scope, site: site, run: again)
                }
            }
            if nullEnds, offset > 0, let before = current {
                let text = site.source.slice(span)
                current = before.then(on: session.executor) { v in
                    if v.isNull { throw Self.nothingToWorkOn(text) }
                    return v
                }
            }
            let last = offset == stages.count - 1
            let promise = execute(
                plan, upstream: current, input: input, scope: scope, site: site, run: run, index: i,
                printed: printed && last, pickPrinted: printed && offset == stages.count - 2)
            run.entries.append(.init(plan: plan, promise: promise, span: span))
            current = promise
        }
        return current ?? Promise.resolve(input, on: session.executor)
    }

    /// The rejection of a pipeline run with `nullEnds` whose stage `stage` got null.
    static func nothingToWorkOn(_ stage: String) -> NothingToWorkOn { NothingToWorkOn(stage: stage) }

    /// True for the rejection `nothingToWorkOn` makes, before or after it became a `VowError`.
    static func isNothingToWorkOn(_ error: any Error) -> Bool {
        error is NothingToWorkOn || (error as? VowError)?.underlying is NothingToWorkOn
    }

    /// Every stage of `p` planned (`Planner`), for running `p` many times. A pipeline of one
    /// stage written as the one planned last takes that one's plan again (`StagePlan.again`,
    /// `Session.lastOneStagePlan`).
    func plans(_ p: Pipeline) -> [StagePlan] {
        if p.stages.count == 1, let again = session.lastOneStagePlan?.again(at: (p.stages, 0)) { return [again] }
        let made = Planner(session: session).plan(p)
        if made.count == 1 { session.lastOneStagePlan = made[0] }
        return made
    }

    /// Applies one resolved stage to the upstream promise.
    func execute(
        _ plan: StagePlan, upstream: Promise<Value>?, input: Value,
        scope: Scope, site: Site, run: PipelineRun, index: Int, printed: Bool = false, pickPrinted: Bool = false
    ) -> Promise<Value> {
        let ex = session.executor
        let name = plan.name
        // A stage that cannot start rejects the pipeline here; what runs upstream of it is
        // no longer wanted, and would otherwise go on with no one to see or stop it.
        func cannotStart(_ error: any Error) -> Promise<Value> {
            upstream?.abandon(reason: "cancelled: the stage after it could not start")
            if upstream == nil { run.immediate = .failure(error) }
            return Promise.reject(error, name: name, on: ex)
        }
        let promise: Promise<Value>
        switch plan.kind {
        case .value(let arg):
            let name = site.source.slice(arg.span)
            let body: @Sendable (Value) throws -> Resolution<Value> = { v in
                try self.argument(arg, input: v, scope: scope, site: site)
            }
            if let upstream {
                return upstream.then(name: name, on: ex, resolving: body)
            }
            do {
                switch try body(input) {
                case .value(let v):
                    run.immediate = .success(v)
                    return Promise.resolve(v, name: name, on: ex)
                case .promise(let p): return p
                }
            } catch {
                run.immediate = .failure(error)
                return Promise.reject(error, name: name, on: ex)
            }
        case .user(let user):
            promise = applyUser(user, plan: plan, upstream: upstream, input: input, scope: scope, site: site, run: run, index: index)
        case .builtin(let def, _):
            let call = StageCall(
                plan: plan, upstream: upstream, scope: scope, run: run, index: index, printed: printed, pickPrinted: pickPrinted)
            do {
                promise = try def.init().apply(call)
            } catch {
                promise = cannotStart(error)
            }
        case .refused(let problem):
            promise = cannotStart(problem.error)
        }
        if let span = plan.rewrittenThen, PromiseObservation.isActive {
            let (line, col) = site.source.lineColumn(of: span.start)
            PromiseObservation.label(promise, StageTraceInfo(stage: plan.nameAsWritten, text: site.source.slice(span), line: line, column: col))
        }
        return promise
    }
}

/// The rejection of `iterate`'s step when a stage after the first gets null: the loop ends there,
/// as `?.` ends a chain in JavaScript. A type of its own, so that `iterate` knows it by its type.
struct NothingToWorkOn: Error, Sendable {
    /// The stage that got null, as written.
    let stage: String
    /// What a user reads when it surfaces.
    var message: String { "nothing to work on: the value before '\(stage)' is null" }
}
