import VowSyntax

/// The plans made when a program was checked (`Planner.problems(in:plans:)`), by the start of
/// each top-level pipeline, for the statements to take when they start: a long pipeline is then
/// planned once, not once to check it and again to run it.
///
/// Kept only for a program that defines no stage (`def`): its statements' stages are then
/// resolved against the same defs when they start as when they were checked. A plan is taken
/// once; what a program left untaken is dropped at the next check.
struct CheckedPlans: Sendable {
    /// The source the program was parsed from.
    let source: SourceText
    /// The plans of each statement's pipeline, by the pipeline's start in the source.
    private(set) var byStart: [Int: [StagePlan]]

    /// The plans made for `source`.
    init(source: SourceText, byStart: [Int: [StagePlan]]) {
        self.source = source
        self.byStart = byStart
    }

    /// The plans of the pipeline of `source` that starts at `start`, removed; nil when none were
    /// kept for it.
    mutating func take(_ source: SourceText, at start: Int) -> [StagePlan]? {
        guard source === self.source else { return nil }
        return byStart.removeValue(forKey: start)
    }
}
