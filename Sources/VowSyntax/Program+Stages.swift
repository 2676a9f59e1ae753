extension Program {
    /// True when `test` holds for a stage of the program, taken in `forEachStage`'s order; stops
    /// at the first. The one walk of the tree: `forEachStage` is this walk never stopped.
    public func containsStage(where test: (StageNode) -> Bool) -> Bool {
        for st in statements {
            switch st.kind {
            case .pipeline(let p, _), .letBinding(_, _, let p), .def(_, _, let p, _): if p.containsStage(where: test) { return true }
            case .meta: break
            }
        }
        return false
    }

    /// True when a stage of the program, anywhere in it, is written with the name `name`.
    public func containsStage(named name: String) -> Bool { stageNames.contains(name) }

    /// Calls `body` with every stage of the program, in source order: those of its statements
    /// and `def` bodies, and those inside them (groups, list elements, record fields, a value
    /// stage's own pipelines).
    public func forEachStage(_ body: (StageNode) -> Void) {
        _ = containsStage { body($0); return false }
    }
}

extension Pipeline {
    /// True when `test` holds for a stage of the pipeline or of a pipeline inside its stages.
    public func containsStage(where test: (StageNode) -> Bool) -> Bool {
        // By index: the stage is lent to `test`, not copied out of the list first.
        for i in stages.indices {
            if test(stages[i]) { return true }
            if case .value(let a) = stages[i].head, a.containsStage(where: test) { return true }
            for a in stages[i].arguments where a.containsStage(where: test) { return true }
        }
        return false
    }

    /// Calls `body` with every stage of the pipeline and of the pipelines inside its stages.
    public func forEachStage(_ body: (StageNode) -> Void) {
        _ = containsStage { body($0); return false }
    }
}

extension Argument {
    /// True when `test` holds for a stage of the pipelines this argument holds.
    public func containsStage(where test: (StageNode) -> Bool) -> Bool {
        switch kind {
        case .list(let elements): return elements.contains { $0.containsStage(where: test) }
        case .record(let fields): return fields.contains { $0.value.containsStage(where: test) }
        case .group(let p): return p.containsStage(where: test)
        default: return false
        }
    }

    /// Calls `body` with every stage of the pipelines this argument holds.
    public func forEachStage(_ body: (StageNode) -> Void) {
        _ = containsStage { body($0); return false }
    }
}
