import VowPromises
import VowValue

/// `to-json`: compact JSON text.
struct ToJsonStage: ValueStage {
    static let name = "to-json"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("to-json")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "to-json [--pretty]"
    static let summary = "Turns its input into JSON text (compact, or --pretty)."
    static let help = "Fulfils with the input written as JSON text: compact by default, indented with --pretty."
    static let pretty = Flag.switch("pretty", help: "indent with two spaces")
    static let flags = [pretty.spec]
    static let examples = [
        StageExample("echo {a: [1, 2.5, \"x\"]} | to-json", "{\"a\":[1,2.5,\"x\"]}"),
        StageExample("echo '{\"a\":1}' | json | to-json | json | pick a", "1"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        .value(.string(args[Self.pretty] ? JSONWriter.pretty(input) : JSONWriter.compact(input)))
    }
}
