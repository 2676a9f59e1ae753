import VowPromises
import VowValue

/// `lines`: splits text into lines.
struct LinesStage: ValueStage {
    static let name = "lines"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("lines")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "lines"
    static let summary = "Splits text into a list of lines (without their line endings)."
    static let help = "Splits the input text (or bytes, or a response body) at \\n and \\r\\n; a final newline does not make an empty last line."
    static let examples = [StageExample("echo \"a\\nb\\n\" | lines | to-json", "[\"a\",\"b\"]")]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        var text = try textOf(input, stage: "lines")
        if text.hasSuffix("\n") { text.removeLast() }
        if text.isEmpty { return .value(.list([])) }
        return .value(.list(text.split(separator: "\n", omittingEmptySubsequences: false).map {
            .string($0.hasSuffix("\r") ? String($0.dropLast()) : String($0))
        }))
    }
}
