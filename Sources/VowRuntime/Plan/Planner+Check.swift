import VowSyntax

extension Planner {
    /// A planner for checking `program` before it runs: the session's `def` stages and the
    /// program's own, wherever they are written in it.
    static func checking(_ program: Program, registry: StageRegistry, defs: [String: UserStage]) -> Planner {
        var all = defs
        for st in program.statements {
            if case .def(let name, let params, let body, let isAsync) = st.kind {
                all[name] = UserStage(name: name, params: params, body: body, source: program.source, isAsync: isAsync)
            }
        }
        return Planner(registry: registry, defs: all)
    }

    /// What a program is refused for before anything runs: every stage of every pipeline in it
    /// (statements, `def` bodies, groups, list elements, record fields, inner stages) planned,
    /// and the problems marked `beforeRun` (an unknown stage or flag), in source order.
    func problems(in program: Program) -> [PlanProblem] {
        var plans: [Int: [StagePlan]] = [:]
        return problems(in: program, plans: &plans)
    }

    /// `problems(in:)`, keeping the plans of each statement's pipeline (`let` included) in
    /// `plans`, by the pipeline's start (`CheckedPlans`).
    func problems(in program: Program, plans: inout [Int: [StagePlan]]) -> [PlanProblem] {
        var walk = CheckWalk(source: program.source)
        for st in program.statements {
            switch st.kind {
            case .pipeline(let p, _), .letBinding(_, _, let p):
                // Stages written alike share a plan (`plan(_:sharing:)`): the evaluator places each.
                let made = plan(p, sharing: program.source)
                plans[p.span.start] = made
                collect(made, of: p, into: &walk)
            case .def(_, _, let body, let isAsync): collect(isAsync ? body.awaitsUnwrapped : body, into: &walk, after: nil)
            case .meta: break
            }
        }
        return walk.found.map { $0.written(from: program.source) }
    }

    /// What the check's walk has found, and the plan it made last.
    private struct CheckWalk {
        /// The program's source, which the stages' spans are in.
        let source: SourceText
        var found: [PlanProblem] = []
        /// The last plan of a one-stage group: the next group written as it is (`then (pick @)
        /// | then (pick @) | …`) is not planned (`collect(_:into:after:isGroup:)`).
        var previous: StagePlan? = nil
    }

    /// The problems of `p`'s plans and of the pipelines inside them. `previous`: the plan of the
    /// one-stage pipeline before `p` (the group before it, or the element before it in a list);
    /// a one-stage `p` written as that one is (`StagePlan.writtenAlike`: `then (pick @) | then
    /// (pick @)`, `all [resolve 1, resolve 2, …]`) is not planned, since planned it would be
    /// `previous.again(…)`, with no problem of its own; only the pipelines its arguments hold
    /// are walked. `isGroup`: `p` is a group, whose plan the next group is compared with.
    /// Returns the plan of a one-stage pipeline (for one written as the one before it, that
    /// one's plan, which is alike), nil for a longer one.
    @discardableResult
    private func collect(_ p: Pipeline, into walk: inout CheckWalk, after previous: StagePlan?, isGroup: Bool = false) -> StagePlan? {
        if p.stages.count == 1, let previous, previous.writtenAlike(p.stages, at: 0) {
            if previous.definition?.argumentStyle != .passthrough {
                for a in p.stages[0].arguments { collect(a, into: &walk) }
            }
            return previous
        }
        let made = plan(p)
        if isGroup, made.count == 1 { walk.previous = made[0] }
        collect(made, of: p, into: &walk)
        return made.count == 1 ? made[0] : nil
    }

    /// The problems of the plans of `p`'s stages, in order. A stage written byte for byte as the
    /// one before it (`then (pick @) | then (pick @) | …`), when that one has none, is not
    /// walked: what the check finds depends only on a stage's text (its names, flags,
    /// expressions and the pipelines its arguments hold), so it would find none there either.
    /// A plan shared by stages written alike (`plan(_:sharing:)`) is walked at the place of
    /// each stage it is walked for (`StagePlan.placed(in:at:)`), so that what it finds there is
    /// found where it is written.
    private func collect(_ made: [StagePlan], of p: Pipeline, into walk: inout CheckWalk) {
        var clean: SourceSpan? = nil
        for (i, plan) in made.enumerated() {
            let span = plan.writtenSpan(in: p.stages, at: i)
            if let clean, walk.source.sameText(clean, span) { continue }
            let found = walk.found.count
            collect(plan.placed(in: p.stages, at: i), into: &walk)
            clean = walk.found.count == found ? span : nil
        }
    }

    /// The problems of one plan: its own, then those of its inner stage, or else of the
    /// pipelines its arguments hold. An external stage's arguments are its own business.
    private func collect(_ plan: StagePlan, into walk: inout CheckWalk) {
        if case .refused(let problem) = plan.kind, problem.beforeRun { walk.found.append(problem) }
        if plan.definition?.argumentStyle == .passthrough { return }
        if let inner = plan.inner {
            collect(inner, into: &walk)
            return
        }
        // A value stage's kind holds its node's head.
        if case .value(let a) = plan.kind { collect(a, into: &walk) }
        for a in plan.writtenArguments { collect(a, into: &walk) }
    }

    /// The problems of the pipelines an argument holds.
    private func collect(_ a: Argument, into walk: inout CheckWalk) {
        switch a.kind {
        case .list(let ps):
            var previous: StagePlan? = nil
            for p in ps { previous = collect(p, into: &walk, after: previous) }
        case .record(let fields): fields.forEach { collect($0.value, into: &walk, after: nil) }
        case .group(let p): collect(p, into: &walk, after: walk.previous, isGroup: true)
        default: break
        }
    }
}
