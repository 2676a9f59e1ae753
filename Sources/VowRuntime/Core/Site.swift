import VowSyntax

/// Where a pipeline sits in the source, for error origins.
struct Site: Sendable {
    let source: SourceText
    let statement: SourceSpan
    let context: [String]
    /// How many `def` stages this site is nested in (a def's body inside a def's body …).
    var depth = 0
    /// The run of the top-level statement this site belongs to (`Session.nextStatementRun`):
    /// `sim` counts its attempts afresh in each.
    var run = 0
}
