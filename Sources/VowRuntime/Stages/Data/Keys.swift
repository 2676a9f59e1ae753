import VowPromises
import VowValue

/// `keys`: a record's keys in order.
struct KeysStage: ValueStage {
    static let name = "keys"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("keys")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "keys"
    static let summary = "The keys of a record, in order."
    static let help = "Fulfils with the list of the input record's keys, in their order. A response's keys are its JSON body's."
    static let examples = [
        StageExample("echo {b: 1, a: 2} | keys | to-json", "[\"b\",\"a\"]"),
        StageExample("echo [1, 2] | keys", "error[type]: keys: expected a record, got list", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        guard case .record(let r) = Pick.target(input) else {
            if case .response = input {
                throw call.error(.type, "expected a record, got a response whose body is \(Pick.target(input).typeName)")
            }
            throw call.error(.type, "expected a record, got \(input.typeName)")
        }
        return .value(.list(r.keys.map { .string($0) }))
    }
}
