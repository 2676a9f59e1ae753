import VowSyntax
import VowValue

/// The groups of the hops `then (G)` in a stretch of pure stages (`PureStretch`), where G is
/// one stage with a direct form (`then (pick @)`, `then (format "{}")`): G planned, and its
/// direct form (`PureStage`), kept while the next hop's group is written as this one's
/// (`StagePlan.writtenIdentically`), so that a long chain of such hops plans and makes them
/// once.
///
/// A class: the stretch's length is found with it, and the stretch's run keeps it. Used only
/// on the session executor.
final class GroupForms: @unchecked Sendable {
    private let evaluator: Evaluator
    /// The plan of the last group asked about, and whether it has a direct form.
    private var plan: StagePlan?
    private var direct = false
    /// The direct form of `plan`, made when first asked for.
    private var form: PureStage?
    /// The plan of the groups of the stretch's hops (`accept`), while they are all written as
    /// one another; nil before the first, and once two are not (`mixed`).
    private var accepted: StagePlan?
    /// True once two of the stretch's groups are written apart.
    private var mixed = false
    /// The direct form of `accepted`, made when first asked for.
    private var formOfAccepted: PureStage?
    /// True when every stage of the stretch is a hop (`PureStretch.length`).
    var everyStageIsAHop = false

    init(evaluator: Evaluator) {
        self.evaluator = evaluator
    }

    /// The group of `plan` when it is a hop `then (G)` whose G is one stage, given no flag; nil
    /// otherwise.
    static func hopGroup(_ plan: StagePlan) -> Pipeline? {
        guard case .builtin(let def, let positional) = plan.kind, ObjectIdentifier(def) == ObjectIdentifier(ThenStage.self),
            positional.count == 1, case .group(let group) = positional[0].kind, group.stages.count == 1, plan.inner == nil,
            plan.flags.isEmpty
        else { return nil }
        return group
    }

    /// True when `group`'s one stage has a direct form (`PureStage.hasDirectForm`).
    func hasDirectForm(_ group: Pipeline) -> Bool {
        if let plan, plan.writtenIdentically(group.stages, at: 0) { return direct }
        let made = evaluator.plans(group)[0]
        plan = made
        direct = PureStage.hasDirectForm(made)
        form = nil
        return direct
    }

    /// Takes the group `hasDirectForm` was just asked about, and found to have one, as one of
    /// the stretch's hops (`PureStretch.length`).
    func accept() {
        guard !mixed else { return }
        if let accepted, accepted !== plan { mixed = true }
        accepted = plan
    }

    /// The direct form of every group of the stretch's hops, while they are all written as one
    /// another (`accept`); nil otherwise.
    func acceptedForm(scope: Scope, site: Site) -> PureStage? {
        guard !mixed, let accepted else { return nil }
        if let formOfAccepted { return formOfAccepted }
        let made = PureStage(accepted, session: evaluator.session, scope: scope, site: site)
        formOfAccepted = made
        return made
    }

    /// The direct form of `group`'s one stage, or nil when it has none. `group` is one of the
    /// stretch's (`accept`): while they are all written as one another, the form of the first is
    /// every one's, and no group is compared again.
    func form(of group: Pipeline, scope: Scope, site: Site) -> PureStage? {
        if !mixed, accepted != nil { return acceptedForm(scope: scope, site: site) }
        guard hasDirectForm(group), let plan else { return nil }
        if let form { return form }
        let made = PureStage(plan, session: evaluator.session, scope: scope, site: site)
        form = made
        return made
    }
}
