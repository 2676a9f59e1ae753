extension Program {
    /// Calls `body` with every stage of the program, in source order: those of its statements
    /// and `def` bodies, and those inside them (groups, list elements, record fields, a value
    /// stage's own pipelines).
    public func forEachStage(_ body: (StageNode) -> Void) {
        for st in statements {
            switch st.kind {
            case .pipeline(let p, _), .letBinding(_, _, let p), .def(_, _, let p, _): p.forEachStage(body)
            case .meta: break
            }
        }
    }
}

extension Pipeline {
    /// Calls `body` with every stage of the pipeline and of the pipelines inside its stages.
    public func forEachStage(_ body: (StageNode) -> Void) {
        for stage in stages {
            body(stage)
            if case .value(let a) = stage.head { a.forEachStage(body) }
            for a in stage.arguments { a.forEachStage(body) }
        }
    }
}

extension Argument {
    /// Calls `body` with every stage of the pipelines this argument holds.
    public func forEachStage(_ body: (StageNode) -> Void) {
        switch kind {
        case .list(let elements): elements.forEach { $0.forEachStage(body) }
        case .record(let fields): fields.forEach { $0.value.forEachStage(body) }
        case .group(let p): p.forEachStage(body)
        default: break
        }
    }
}
