import VowPromises
import VowValue

/// `assert COND [MESSAGE]`: passes the input on when COND holds, rejects with kind `assert` when
/// it does not.
struct AssertStage: ValueStage {
    static let name = "assert"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("assert")
    /// EXPR is read as written, never filled in as a template.
    static let expressionArguments = 1
    static let group = StageGroup.control
    static let synopsis = "assert COND [MESSAGE]"
    static let summary = "Passes its input on when the JMESPath COND holds on it; rejects with kind assert when it does not."
    static let help = """
        Evaluates the JMESPath expression COND on the input (as `pick` would) and fulfils with the
        input unchanged when the result is truthy: anything but false, null, an empty string, an
        empty list and an empty record (JMESPath's truthiness; 0 is true). Otherwise it rejects with
        kind `assert`, MESSAGE as its message (default `assertion failed: COND`), the input in its
        `value` field and COND in `condition`. In a script that must not go on, a failed assertion
        ends it with status 1, as any rejection does.
        """
    static let examples = [
        StageExample("echo 5 | assert '@ > `1`' | then format \"ok {}\"", "ok 5"),
        StageExample("echo 5 | assert '@ > `10`' \"too small\"", "error[assert]: too small", fails: true),
        StageExample("echo {ok: false} | assert ok | catch pick '[kind, message, value.ok]' | to-json", #"["assert","assertion failed: ok",false]"#),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let condition = try args.string(0, "COND")
        if try Pick.search(condition, in: input).isTruthy { return .value(input) }
        let message = args.count > 1
            ? args.positional.dropFirst().map(Evaluator.interpolationText).joined(separator: " ") : "assertion failed: \(condition)"
        throw VowError(.assert, message, details: ["value": input.toJSONValue(), "condition": .string(condition)])
    }
}
