import VowPromises
import VowValue

/// `values`: a record's values in order.
struct ValuesStage: ValueStage {
    static let name = "values"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("values")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "values"
    static let summary = "The values of a record, in order."
    static let help = "Fulfils with the list of the input record's values, in key order."
    static let examples = [
        StageExample("echo {b: 1, a: 2} | values | to-json", "[1,2]"),
        StageExample("echo 5 | values", "error[type]: values: expected a record, got number", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        guard case .record(let r) = Pick.target(input) else {
            if case .response = input {
                throw call.error(.type, "expected a record, got a response whose body is \(Pick.target(input).typeName)")
            }
            throw call.error(.type, "expected a record, got \(input.typeName)")
        }
        return .value(.list(r.values))
    }
}
