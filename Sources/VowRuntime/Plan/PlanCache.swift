import VowSyntax

/// A pipeline's plans, made the first time the pipeline runs and kept for the later runs.
/// Sendable: touched only on the session executor, which runs one job at a time.
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
    /// A pipeline of one stage planned alike (`StagePlan.plansAlike`) in the same scope as the
    /// one whose direct form the session made last takes that one (`Session.lastPureStage`):
    /// the direct form gives values only, never an error of its own (`PureStage.value`), so
    /// where its stage is written does not matter.
    func pureStage(_ pipeline: Pipeline, _ evaluator: Evaluator, scope: Scope, site: Site) -> PureStage? {
        if let pure { return pure }
        let session = evaluator.session
        // A stage written as the last one's, every argument the very same (a `then (pick @)`
        // hop): that one's direct form, without planning this one at all (a plan a hop, made
        // and kept only to be compared).
        if plans == nil, pipeline.stages.count == 1, let last = session.lastPureStage, last.scope === scope,
            last.plan.writtenIdentically(pipeline.stages, at: 0)
        {
            pure = .some(last.pure)
            return last.pure
        }
        let plans = plans(pipeline, evaluator)
        if plans.count == 1, let last = session.lastPureStage, last.scope === scope, last.plan.plansAlike(plans[0]) {
            pure = .some(last.pure)
            return last.pure
        }
        let made = PureStage(plans, session: session, scope: scope, site: site)
        if plans.count == 1 { session.lastPureStage = (plans[0], scope, made) }
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
