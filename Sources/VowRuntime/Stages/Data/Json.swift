import VowPromises
import VowValue

/// `json`: parses text, bytes or a response body.
struct JsonStage: ValueStage, LooksAhead {
    static let name = "json"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("json")
    /// It looks at the stage after it (`LooksAhead`).
    static let looksAhead = true
    /// Followed by `pick` with a literal expression, it builds only what the expression can
    /// look at (`PickAhead`).
    static func lookAhead(_ plan: StagePlan, next: StagePlan) {
        plan.pickAhead = PickAhead(plan, next: next)
    }
    /// A pure function of its input: the same text parses to the same value or the same error.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "json"
    static let summary = "Parses its input (text, bytes or a response body) as JSON."
    static let help = """
        Parses the input as JSON: key order kept, a duplicate key keeps its last value, integers exact
        to 64 bits. Invalid JSON rejects with kind `json`, naming the line and column. A value that is
        already parsed (a list, a record, a number) passes through unchanged.
        """
    static let examples = [
        StageExample("echo '{\"a\": [1, 2]}' | json | pick a[1]", "2"),
        StageExample("echo '{\"b\": 1, \"a\": 2}' | json | keys", "[\n  \"b\",\n  \"a\"\n]"),
        StageExample("echo '{\"a\": 1,}' | json", "error[json]: ", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        // A file `read` handed on as it was read is parsed as the bytes it is.
        let input = if case .opaque(let o as FileText) = input { Value.bytes(o.bytes) } else { input }
        if let ahead = ctx.call.pickAhead, !PromiseObservation.isActive, let found = Self.scan(input, ahead) {
            return .value(.opaque(found))
        }
        do {
            switch input {
            case .string(let s): return .value(try JSON.parse(s))
            case .bytes(let b): return .value(try JSON.parse(b))
            case .response(let r): return .value(try JSON.parse(r.body))
            case .list, .record, .int, .double, .bool, .null: return .value(input)
            case .opaque: throw VowError(.type, "json: expected text, bytes or a response, got \(input.typeName)")
            }
        } catch let error as JSONError {
            throw VowError(.json, error.description)
        }
    }

    /// What the `pick` that follows needs, read from the text: the value at its path, or the
    /// part of the document it can look at; nil when the input is not text (or not JSON, which
    /// the full parse then reports).
    static func scan(_ input: Value, _ ahead: PickAhead) -> PickedAhead? {
        let found: Value?
        switch (input, ahead.path) {
        case (.string(let s), let path?): found = JSONPathScan.value(at: path, in: s)
        case (.bytes(let b), let path?): found = JSONPathScan.value(at: path, in: b)
        case (.response(let r), let path?): found = JSONPathScan.value(at: path, in: r.body)
        case (.string(let s), nil): found = JSONPathScan.document(for: ahead.demand, in: s)
        case (.bytes(let b), nil): found = JSONPathScan.document(for: ahead.demand, in: b)
        case (.response(let r), nil): found = JSONPathScan.document(for: ahead.demand, in: r.body)
        default: found = nil
        }
        return found.map { PickedAhead(expression: ahead.expression, value: $0, isAnswer: ahead.path != nil, source: input) }
    }
}
