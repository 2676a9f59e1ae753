import VowSyntax

/// A stage defined with `def name(a, b) = pipeline`.
public struct UserStage: Sendable {
    /// Its name.
    public let name: String
    /// Its parameters, bound as `$a`, `$b`.
    public let params: [String]
    /// Its body.
    public let body: Pipeline
    /// The source it was defined in (for error origins).
    public let source: SourceText
    /// `async def`: JavaScript's async function (`Evaluator.asyncBody`).
    public var isAsync: Bool = false
}
