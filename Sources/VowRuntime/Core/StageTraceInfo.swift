/// What a trace event says about the stage that made a promise.
public struct StageTraceInfo: Sendable {
    /// The stage name.
    public let stage: String
    /// The stage's source text.
    public let text: String
    /// 1-based line of the stage.
    public let line: Int
    /// 1-based column of the stage.
    public let column: Int
}
