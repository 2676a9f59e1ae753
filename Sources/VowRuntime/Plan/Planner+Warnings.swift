import VowSyntax

extension Planner {
    /// What a program may not mean as written, said before it runs, without refusing it: a lone
    /// word in a list that is also the name of a stage or a `def` (it is text; `(NAME)` runs the
    /// stage), and a single-quoted `format` template, in which nothing is filled in.
    func warnings(in program: Program) -> [PlanProblem] {
        var found: [PlanProblem] = []
        func visit(_ p: Pipeline) {
            for stage in p.stages {
                if case .value(let a) = stage.head { visit(a) }
                if stage.name == FormatStage.name {
                    for a in stage.arguments {
                        guard case .rawString(let s) = a.kind, s.contains("{") || s.contains("$") else { continue }
                        found.append(PlanProblem(
                            "format: '\(s)' is in single quotes, so nothing in it is filled in; write it in double quotes to fill it in",
                            span: a.span, beforeRun: false))
                    }
                }
                for a in stage.arguments { visit(a) }
            }
        }
        func visit(_ a: Argument) {
            switch a.kind {
            case .list(let elements): elements.forEach { element($0, in: "list"); visit($0) }
            // Not in a record: `{type: text}` names a kind far more often than it means a stage.
            case .record(let fields): fields.forEach { visit($0.value) }
            case .group(let p): visit(p)
            default: break
            }
        }
        func element(_ p: Pipeline, in literal: String) {
            guard p.stages.count == 1, case .value(let a) = p.stages[0].head, case .word(let t) = a.kind,
                let word = t.literalText, defs[word] != nil || registry.stage(named: word) != nil
            else { return }
            let what = defs[word] != nil ? "a def" : "a stage"
            found.append(PlanProblem(
                "in a \(literal), \(word) is the text \"\(word)\", though \(what) of that name exists; write (\(word)) to run it",
                span: a.span, beforeRun: false))
        }
        for st in program.statements {
            switch st.kind {
            case .pipeline(let p, _), .letBinding(_, _, let p), .def(_, _, let p): visit(p)
            case .meta: break
            }
        }
        return found
    }
}
