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
        var found: [PlanProblem] = []
        for st in program.statements {
            switch st.kind {
            case .pipeline(let p, _), .letBinding(_, _, let p):
                let made = plan(p)
                plans[p.span.start] = made
                for plan in made { collect(plan, into: &found) }
            case .def(_, _, let body, let isAsync): collect(isAsync ? body.awaitsUnwrapped : body, into: &found)
            case .meta: break
            }
        }
        return found.map { $0.written(from: program.source) }
    }

    /// The problems of `p`'s plans and of the pipelines inside them.
    private func collect(_ p: Pipeline, into found: inout [PlanProblem]) {
        for plan in plan(p) { collect(plan, into: &found) }
    }

    /// The problems of one plan: its own, then those of its inner stage, or else of the
    /// pipelines its arguments hold. An external stage's arguments are its own business.
    private func collect(_ plan: StagePlan, into found: inout [PlanProblem]) {
        if case .refused(let problem) = plan.kind, problem.beforeRun { found.append(problem) }
        if plan.definition?.argumentStyle == .passthrough { return }
        if let inner = plan.inner {
            collect(inner, into: &found)
            return
        }
        // A value stage's kind holds its node's head.
        if case .value(let a) = plan.kind { collect(a, into: &found) }
        for a in plan.writtenArguments { collect(a, into: &found) }
    }

    /// The problems of the pipelines an argument holds.
    private func collect(_ a: Argument, into found: inout [PlanProblem]) {
        switch a.kind {
        case .list(let ps): ps.forEach { collect($0, into: &found) }
        case .record(let fields): fields.forEach { collect($0.value, into: &found) }
        case .group(let p): collect(p, into: &found)
        default: break
        }
    }
}
