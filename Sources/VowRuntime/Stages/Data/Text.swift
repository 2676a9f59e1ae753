import VowPromises
import VowValue

/// Reads the text of a value: a string, bytes, or a response body.
func textOf(_ v: Value, stage: String) throws -> String {
    switch v {
    case .string(let s): return s
    case .bytes(let b):
        guard let s = String(validating: b, as: UTF8.self) else {
            throw VowError(.type, "\(stage): the input is not valid UTF-8 text (\(b.count) bytes)")
        }
        return s
    case .response(let r):
        guard let s = String(validating: r.body, as: UTF8.self) else {
            throw VowError(.type, "\(stage): the response body is not valid UTF-8 text (\(r.body.count) bytes)")
        }
        return s
    default:
        throw VowError(.type, "\(stage): expected text, bytes or a response, got \(v.typeName)")
    }
}

/// `text`: the input as text.
struct TextStage: ValueStage {
    static let name = "text"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("text")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "text"
    static let summary = "Reads its input as UTF-8 text (a response body, bytes, or any value as JSON)."
    static let help = """
        Fulfils with the input as text: a response's body, bytes decoded as UTF-8 (invalid UTF-8
        rejects with kind `type`), a string unchanged, any other value as compact JSON.
        """
    static let examples = [
        StageExample("echo [1, 2] | text", "[1,2]"),
        StageExample("echo hi | text | len", "2"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        switch input {
        case .string, .bytes, .response: return .value(.string(try textOf(input, stage: "text")))
        default: return .value(.string(JSONWriter.compact(input)))
        }
    }
}
