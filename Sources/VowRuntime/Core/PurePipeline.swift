import VowPromises
import VowSyntax
import VowValue

/// A pipeline whose every stage is pure (`PureStage`), run directly on the items of a stream
/// (`each (json | pick status)` over `read F --stream`): the stages run one after the other on
/// each item, with their calls made once, instead of a pipeline run, its stage calls and a
/// promise per stage per item.
///
/// It is used only where the items' turns are not fixed anyway: the items of a stream arrive
/// when their source delivers them, on a thread of its own, so the turn in which an item's value
/// is ready is the source's timing, not the program's. (For a list, only a one-stage pipeline
/// runs directly, because only then is the value ready in the turn the pipeline would give it.)
///
/// It gives the value the pipeline would give. It gives no error of its own: when a stage
/// throws or waits, the caller runs the item's pipeline the ordinary way, which rejects with the
/// same error (the stages are pure), located and named as every rejection is. While an observer
/// is installed (`--trace`, the timeline) it is not used, so that every promise is recorded.
struct PurePipeline {
    let stages: [PureStage]
    /// Whether a null between two stages ends the pipeline (`iterate`'s step): such an item
    /// then goes the ordinary way, which rejects as it should.
    let nullEnds: Bool

    /// The direct form of `plans` (one pipeline's stages, at least one), or nil when a stage is
    /// not pure or an argument reads a variable or runs a pipeline.
    init?(_ plans: [StagePlan], nullEnds: Bool, session: Session, scope: Scope, site: Site) {
        guard !plans.isEmpty else { return nil }
        var stages: [PureStage] = []
        stages.reserveCapacity(plans.count)
        for plan in plans {
            guard let stage = PureStage(plan, session: session, scope: scope, site: site) else { return nil }
            stages.append(stage)
        }
        self.stages = stages
        self.nullEnds = nullEnds
    }

    /// The pipeline's value on `input`, or nil when a stage throws or waits, a value between two
    /// stages is a stream (or a null that ends the pipeline), or its promises are `recorded`.
    func value(_ input: Value, recorded: Bool) -> Value? {
        var v = input
        for (i, stage) in stages.enumerated() {
            if i > 0, nullEnds, v.isNull { return nil }
            guard let next = stage.value(v, recorded: recorded) else { return nil }
            v = next
        }
        return v
    }
}
