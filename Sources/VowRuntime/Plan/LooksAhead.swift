/// A stage that does less work when it knows the stage after it, declared by the stage itself
/// (`JsonStage`, `ReadStage`); the planner asks it once per pipeline, when it plans it. Both
/// stages keep their promises and their turns.
protocol LooksAhead: StageDefinition {
    // A stage that conforms also says so with `StageDefinition.looksAhead`.
    /// Sets what `plan` hands on to `next` (`StagePlan.pickAhead`, `StagePlan.feedsJSON`).
    static func lookAhead(_ plan: StagePlan, next: StagePlan)
}
