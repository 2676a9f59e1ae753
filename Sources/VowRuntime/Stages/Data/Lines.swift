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
    static let examples = [
        StageExample("echo \"a\\nb\\n\" | lines | to-json", "[\"a\",\"b\"]"),
        StageExample("echo \"a\\r\\nb\\r\\n\\r\\nc\" | lines | to-json", "[\"a\",\"b\",\"\",\"c\"]"),
        StageExample("echo [a, b] | lines", "error[type]: lines: expected text, bytes or a response, got list", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        // By scalars: as Characters, "\r\n" is one, which a split at "\n" would not see.
        var scalars = try textOf(input, stage: "lines").unicodeScalars[...]
        if scalars.last == "\n" { scalars.removeLast() }
        if scalars.isEmpty { return .value(.list([])) }
        return .value(.list(scalars.split(separator: "\n", omittingEmptySubsequences: false).map {
            .string(String($0.last == "\r" ? $0.dropLast() : $0))
        }))
    }
}
