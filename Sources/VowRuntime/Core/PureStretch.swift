import VowPromises
import VowSyntax
import VowValue

/// A stretch of pure stages in a pipeline (`… | pick a | pick b | format "{}" | …`, each with a
/// direct form, `PureStage.hasDirectForm`), run while nothing records promises: one promise for
/// the stretch instead of a stage call and a promise a stage, the stages run one after the other
/// in the turn the first would run in.
///
/// The stretch's promise settles in the turn the last stage's would: it adopts a promise that
/// settles `count - 2` turns after the first stage ran (`Promise.settling(_:afterTurns:on:)`),
/// and adoption takes two more, so a stretch has at least `fewest` stages. What is queued
/// around it runs in the same order as around the chain: each of those turns is one job, queued
/// behind what was queued before it, as each stage's handler would be. Pure stages read nothing
/// but their input and change nothing, so their values do not tell when they were computed.
///
/// A stage that throws rejects the stretch (in the same turn, the rejection having passed
/// through the rest of it) with the error the stage's own call throws, its origin that stage
/// and its input, as the chain's annotation would find them (`PipelineRun.annotate`). A value
/// that is a stream, or a stage that waits, hands the rest of the stretch to the ordinary chain
/// (the turns of a stream's values are its source's, never fixed).
///
/// Sendable: every field is a `let`; it runs on the session executor.
struct PureStretch: Sendable {
    /// The fewest stages a stretch takes: the adoption that gives its turn takes two.
    static let fewest = 3

    /// The stretch's plans, which are consecutive stages of `run`.
    let plans: ArraySlice<StagePlan>
    /// The index in the run's entries of the stretch's first stage.
    let firstIndex: Int
    let scope: Scope
    let run: PipelineRun
    let evaluator: Evaluator

    /// How many of the plans from `offset` (up to `end`, excluded) have a direct form, one after
    /// the other.
    static func length(_ plans: [StagePlan], from offset: Int, to end: Int) -> Int {
        var n = 0
        while offset + n < end,
            n == 0 ? PureStage.hasDirectForm(plans[offset]) : plans[offset + n].hasDirectForm(after: plans[offset + n - 1])
        {
            n += 1
        }
        return n
    }

    /// The stretch run on what `upstream` gives: its promise.
    func chain(on upstream: Promise<Value>) -> Promise<Value> {
        let ex = evaluator.session.executor
        return upstream.then(on: ex, resolving: { [self] input in
            .promise(self.settled(input, on: ex))
        })
    }

    /// The stages run on `input`, one after the other: the promise the stretch's adopts.
    private func settled(_ input: Value, on ex: SerialPromiseExecutor) -> Promise<Value> {
        let turns = plans.count - 2
        var value = input
        // The direct form of the stage before, kept while each stage after it plans alike to the
        // one before it (`StagePlan.plansAlike(before:)`), so to the stage it was made of: one
        // call and its arguments evaluated once for all of them.
        var direct: PureStage? = nil
        for (k, plan) in plans.enumerated() {
            if value.stream != nil { return ordinary(from: k, waiting: nil, input: value) }
            if let form = direct {
                if plan.plansAlike(before: plans[plans.startIndex + k - 1]), let next = form.value(value) {
                    value = next
                    continue
                }
                direct = nil
            }
            if k + 1 < plans.count, plans[plans.startIndex + k + 1].plansAlike(before: plan),
                let form = PureStage(plan, session: evaluator.session, scope: scope, site: run.site)
            {
                direct = form
            }
            // A stage that throws in its direct form runs here, so that its error is its call's.
            let call = StageCall(plan: plan, upstream: nil, scope: scope, run: run, index: firstIndex + k)
            do {
                switch try call.react(value) {
                case .value(let next): value = next
                case .promise(let waiting): return ordinary(from: k, waiting: waiting, input: value)
                }
            } catch {
                return .settling(.failure(run.annotate(error, at: firstIndex + k, input: value)), afterTurns: turns, on: ex)
            }
        }
        return .settling(.success(value), afterTurns: turns, on: ex)
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
        for (offset, plan) in plans.enumerated().dropFirst(waiting == nil ? k : k + 1) {
            let index = rest.entries.count
            current = evaluator.execute(plan, upstream: current, input: input, scope: scope, site: run.site, run: rest, index: index)
            rest.entries.append(.init(plan: plan, promise: current, span: span(offset)))
        }
        return current.recover(on: evaluator.session.executor) { (error: any Error) throws -> Value in throw rest.annotate(error) }
    }
}
