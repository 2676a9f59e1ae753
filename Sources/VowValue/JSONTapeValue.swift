import JMESPath

/// What a search of a tape gave, kept with its tape so that it is printed from the tape
/// (`JSONWriter`) instead of being made into values first.
///
/// Made only for a result that goes straight to the printer (a statement's value, `json` or
/// `pick` its last stage); anything else that meets it sees the values it holds
/// (`Value.toJSONValue()`).
public struct JSONTapeValue: OpaqueValue {
    /// The tape the result's nodes are in.
    public let tape: JSONTape
    /// The result.
    public let result: TapeValue

    /// Keeps `result` with `tape`.
    public init(tape: JSONTape, result: TapeValue) {
        self.tape = tape
        self.result = result
    }

    /// The values the result holds, as the reader and the search would have made them.
    public var value: Value { withExtendedLifetime(tape) { result.value } }

    /// `list` or `record` (or the type of any other value).
    public var typeName: String {
        withExtendedLifetime(tape) {
            switch result.jmesKind {
            case .null: return "null"
            case .boolean: return "boolean"
            case .number: return "number"
            case .string: return "string"
            case .array: return "list"
            case .object: return "record"
            }
        }
    }

    /// Compact JSON.
    public var displayText: String { JSONWriter.compact(.opaque(self)) }

    func write(into out: inout JSONOutput, layout: JSONLayout, level: Int) {
        withExtendedLifetime(tape) {
            var writer = TapeWriter(layout: layout, tape: tape)
            defer { writer.release() }
            writer.write(result, into: &out, level: level)
        }
    }
}
