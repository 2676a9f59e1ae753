import VowPromises
import VowSyntax
import VowValue

/// A stretch of pure stages in a pipeline (`… | pick a | pick b | format "{}" | …`, each with a
/// direct form, `PureStage.hasDirectForm`, or a hop `then (G)` whose group G is one such stage,
/// `GroupForms`), run while nothing records promises: one promise for the stretch instead of a
/// stage call and a promise a stage (and a group's run a hop), the stages run one after the
/// other in the turn the first would run in.
///
/// The stretch's promise settles in the turn the last stage's would: it adopts a promise that
/// settles the stages' turns less two after the first stage ran (one a stage, three a hop:
/// `Promise.settling(_:afterTurns:on:)`), and adoption takes two more, so a stretch has at
/// least `fewest` stages. What is queued around it runs in the same order as around the chain:
/// each of those turns is one job, queued behind what was queued before it, as each stage's
/// handler would be. Pure stages read nothing but their input and change nothing, so their
/// values do not tell when they were computed.
///
/// A stage that throws rejects the stretch (in the same turn, the rejection having passed
/// through the rest of it) with the error the stage's own call throws, its origin that stage
/// and its input, as the chain's annotation would find them (`PipelineRun.annotate`). A value
/// that is a stream, or a stage that waits, hands the rest of the stretch to the ordinary chain
/// (the turns of a stream's values are its source's, never fixed).
///
/// Sendable: every field is a `let` (the group forms change only on the session executor); it
/// runs on the session executor.
struct PureStretch: Sendable {
    /// The fewest stages a stretch takes: the adoption that gives its turn takes two.
    static let fewest = 3

    /// The stretch's plans, which are consecutive stages of `run`: a plan shared by stages
    /// written alike (`Planner.plan(_:sharing:)`) is placed at its stage (`plan(_:)`) only
    /// when that stage runs as a call.
    let plans: ArraySlice<StagePlan>
    /// The stretch's stages, as written, which `plans` are of.
    let written: Slice<StageNodes>
    /// The index in the run's entries of the stretch's first stage.
    let firstIndex: Int
    let scope: Scope
    let run: PipelineRun
    let evaluator: Evaluator
    /// The groups of the stretch's hops `then (G)`, nil when it has none (`length`).
    let groups: GroupForms?

    /// How many of the plans from `offset` (up to `end`, excluded) run in a stretch, one after
    /// the other: stages with a direct form, and hops `then (G)` whose group is one such stage
    /// (`GroupForms`, made when the first hop is met and kept for the stretch's run). `written`
    /// holds the stages the plans are of, in `source`: a hop written byte for byte as the hop
    /// before it is that hop again, taken without reading its plan or its group.
    static func length(
        _ plans: [StagePlan], from offset: Int, to end: Int, groups: inout GroupForms?, evaluator: Evaluator,
        written: Slice<StageNodes>, source: SourceText
    ) -> Int {
        var n = 0, hops = 0
        // Where the last hop taken is written, nil after a stage that is not a hop.
        var lastHop: SourceSpan? = nil
        while offset + n < end {
            if let last = lastHop, source.sameText(last, written.base[written.startIndex + offset + n].span) {
                n += 1
                hops += 1
                continue
            }
            let plan = plans[offset + n]
            if n == 0 ? PureStage.hasDirectForm(plan) : plan.hasDirectForm(after: plans[offset + n - 1]) {
                n += 1
                lastHop = nil
                continue
            }
            guard let group = GroupForms.hopGroup(plan) else { break }
            let forms = groups ?? GroupForms(evaluator: evaluator)
            groups = forms
            guard forms.hasDirectForm(group) else { break }
            forms.accept()
            lastHop = written.base[written.startIndex + offset + n].span
            n += 1
            hops += 1
        }
        groups?.everyStageIsAHop = n > 0 && hops == n
        return n
    }

    /// The plan of the `k`th stage, placed at that stage (`StagePlan.placed(in:at:)`).
    private func plan(_ k: Int) -> StagePlan {
        plans[plans.startIndex + k].placed(in: written.base, at: written.startIndex + k)
    }

    /// The stretch run on what `upstream` gives: its promise.
    func chain(on upstream: Promise<Value>) -> Promise<Value> {
        let ex = evaluator.session.executor
        return upstream.then(on: ex, resolving: { [self] input in
            .promise(self.settled(input, on: ex))
        })
    }

    /// The stages run on `input`, one after the other: the promise the stretch's adopts.
    ///
    /// A stage hands its value on in one turn; a hop `then (G)` in three: its handler returns
    /// G's promise, already settled, which the hop's promise adopts (two turns more, as a
    /// JavaScript `.then` whose handler returns a promise). A rejection passes any stage in one.
    private func settled(_ input: Value, on ex: SerialPromiseExecutor) -> Promise<Value> {
        // The turns the stages so far take, and those a rejection at the `k`th would take to
        // reach the stretch's end; adoption gives the last two.
        var spent = 0
        func failing(at k: Int) -> Int { spent + (plans.count - 1 - k) - 2 }
        var value = input
        // The direct form of the stage before, kept while each stage after it plans alike to the
        // one before it (`StagePlan.plansAlike(before:)`), so to the stage it was made of: one
        // call and its arguments evaluated once for all of them.
        var direct: PureStage? = nil
        // Asked once: the optional bound in the loop was copied and destroyed through its
        // type's generic witnesses at every stage (~200 instructions a hop); `hop` reads it.
        let hasGroups = groups != nil
        // A stretch of hops alone, their groups written alike: their one group's direct form,
        // run on each value without reading the hops' plans (a hop it gives no value for runs
        // as any hop does).
        let everyHop = groups.flatMap { $0.everyStageIsAHop ? $0.acceptedForm(scope: scope, site: run.site) : nil }
        for k in 0..<plans.count {
            if value.stream != nil { return ordinary(from: k, waiting: nil, input: value) }
            if let everyHop, let next = everyHop.value(value) {
                spent += 3
                value = next
                continue
            }
            // The stage's plan, as given: shared by stages written alike, it is placed only to
            // run the stage as a call.
            let shared = plans[plans.startIndex + k]
            // What the stage gives: its value, or the promise it waits on; a throw is its rejection.
            let given: Resolution<Value>
            do {
                if hasGroups, let group = GroupForms.hopGroup(shared) {
                    direct = nil
                    spent += 3
                    given = try hop(group, at: k, on: value)
                } else {
                    spent += 1
                    if let form = direct {
                        if shared.plansAlike(before: plans[plans.startIndex + k - 1]), let next = form.value(value) {
                            value = next
                            continue
                        }
                        direct = nil
                    }
                    let plan = plan(k)
                    if k + 1 < plans.count, plans[plans.startIndex + k + 1].plansAlike(before: shared),
                        let form = PureStage(plan, session: evaluator.session, scope: scope, site: run.site)
                    {
                        direct = form
                    }
                    // A stage that throws in its direct form runs here, so that its error is its call's.
                    given = try StageCall(plan: plan, upstream: nil, scope: scope, run: run, index: firstIndex + k).react(value)
                }
            } catch {
                // Its origin the stage, as the chain's annotation gives it, unless it has one
                // (a group's stage).
                let e = toVowError(error)
                let annotated = e.origin != nil ? e : run.annotate(error, at: firstIndex + k, input: value)
                return .settling(.failure(annotated), afterTurns: failing(at: k), on: ex)
            }
            switch given {
            case .value(let next): value = next
            case .promise(let waiting): return ordinary(from: k, waiting: waiting, input: value)
            }
        }
        return .settling(.success(value), afterTurns: spent - 2, on: ex)
    }

    /// What the hop `then (group)`, the `k`th stage, gives on `input`: its group's direct
    /// form's value (`groups`); else its group run as the hop's handler runs it, whose
    /// rejection, its origin in the group, is thrown, and whose promise, when it waits, is given.
    /// `group` may be that of a hop written as this one, whose plan this one shares: its direct
    /// form is this one's, but only the hop's own plan (`plan(_:)`) runs it as a call.
    @inline(never)
    private func hop(_ group: Pipeline, at k: Int, on input: Value) throws -> Resolution<Value> {
        if let groups, let next = groups.form(of: group, scope: scope, site: run.site)?.value(input) { return .value(next) }
        let call = StageCall(plan: plan(k), upstream: nil, scope: scope, run: run, index: firstIndex + k)
        let given = try call.namingErrors { try call.runInner(input) }
        guard case .promise(let p) = given else { return given }
        switch p.result {
        case .success(let next)?: return .value(next)
        case .failure(let error)?: throw error
        case nil: return given
        }
    }

    /// The stages from the `k`th on, chained the ordinary way on `input` (the `k`th stage's),
    /// or after the `k`th stage's promise when it waits: their errors given their origins in a
    /// run of their own (the stretch's entries all hold its one promise), the waiting stage its
    /// first entry.
    private func ordinary(from k: Int, waiting: Promise<Value>?, input: Value) -> Promise<Value> {
        let rest = PipelineRun(site: run.site, input: input)
        func span(_ offset: Int) -> SourceSpan { run.entries[firstIndex + offset].span }
        var current = waiting ?? .resolve(input, on: evaluator.session.executor)
        if let waiting { rest.entries.append(.init(plan: plans[plans.startIndex + k], promise: waiting, span: span(k))) }
        for offset in (waiting == nil ? k : k + 1)..<plans.count {
            let index = rest.entries.count
            let plan = plan(offset)
            current = evaluator.execute(plan, upstream: current, input: input, scope: scope, site: run.site, run: rest, index: index)
            rest.entries.append(.init(plan: plan, promise: current, span: span(offset)))
        }
        return current.recover(on: evaluator.session.executor) { (error: any Error) throws -> Value in throw rest.annotate(error) }
    }
}
