import VowPromises
import VowValue

/// `json`: parses text, bytes or a response body.
struct JsonStage: ValueStage, LooksAhead {
    static let name = "json"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("json")
    /// It looks at the stage after it (`LooksAhead`).
    static let looksAhead = true
    /// Followed by `pick` with a literal expression, it finds a simple path's value itself, or
    /// reads the document into a tape for `pick` to search (`PickAhead`).
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

    /// How many whole kilobytes of text `input` holds (0 for a value that is not text).
    static func kilobytes(_ input: Value) -> Int {
        switch input {
        case .string(let s): return s.utf8.count / 1024
        case .bytes(let b): return b.count / 1024
        default: return 0
        }
    }

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        // A file `read` handed on as it was read is parsed as the bytes it is.
        let input = if case .opaque(let o as FileText) = input { Value.bytes(o.bytes) } else { input }
        // Under an observer that spares large work (the REPL's), a document over a megabyte is
        // read as with no observer: the stage's promise is the same, its value held otherwise.
        if !call.records(items: Self.kilobytes(input)) {
            if let ahead = call.pickAhead, let found = Self.scan(input, ahead, printed: call.pickResultIsPrinted) {
                return .value(.opaque(found))
            }
            // The statement's value, printed: from the tape, never made into values.
            if call.resultIsPrinted, let tape = Self.tape(input) {
                if tape.root.holdsTapeContainer { return .value(.opaque(JSONTapeValue(tape: tape, result: tape.root))) }
                return .value(tape.value(0))
            }
        }
        do {
            switch input {
            case .string(let s): return .value(try JSON.parse(s))
            case .bytes(let b): return .value(try JSON.parse(b))
            case .response(let r): return .value(try JSON.parse(r.body))
            case .list, .record, .int, .double, .bool, .null: return .value(input)
            case .opaque: throw call.error(.type, "expected text, bytes or a response, got \(input.typeName)")
            }
        } catch let error as JSONError {
            throw VowError(.json, error.description)
        }
    }

    /// The tape of the input's text, or nil when the input is not text (or not JSON, which the
    /// reader then reports).
    static func tape(_ input: Value) -> JSONTape? {
        switch input {
        case .string(let s): return JSONTape.read(s)
        case .bytes(let b): return JSONTape.read(b)
        case .response(let r): return JSONTape.read(r.body)
        default: return nil
        }
    }

    /// What the `pick` that follows needs, read from the text: the value at its path (or the
    /// record or list of the values at its paths, for a multiselect of simple paths), or the
    /// document's tape for its expression to search; nil when the input is not text (or not
    /// JSON, which the full parse then reports). `printed`: that `pick`'s value goes straight
    /// to the printer, so the whole document (`pick @`) goes there as its tape.
    static func scan(_ input: Value, _ ahead: PickAhead, printed: Bool) -> PickedAhead? {
        let found: Value?
        if let path = ahead.path, let query = ahead.pathQuery {
            if path.isEmpty, printed, let tape = tape(input) {
                let whole: Value = tape.root.holdsTapeContainer ? .opaque(JSONTapeValue(tape: tape, result: tape.root)) : tape.value(0)
                return PickedAhead(expression: ahead.expression, content: .answer(whole), source: input)
            }
            found = scanText(input) { JSONPathScan.value(atPathOf: query, in: $0, textIsUTF8: $1) }
        } else if let selection = ahead.selection {
            found = scanText(input) { JSONPathScan.value(of: selection, in: $0, textIsUTF8: $1) }
        } else {
            return tape(input).map { PickedAhead(expression: ahead.expression, content: .tape($0), source: input) }
        }
        return found.map { PickedAhead(expression: ahead.expression, content: .answer($0), source: input) }
    }

    /// `scan` on the input's text: its bytes, and whether they are known to be UTF-8 (a
    /// String's); nil when the input is not text.
    private static func scanText(_ input: Value, _ scan: (UnsafeBufferPointer<UInt8>, Bool) -> Value?) -> Value? {
        switch input {
        case .string(var s): return s.withUTF8 { scan($0, true) }
        case .bytes(let b): return b.withUnsafeBufferPointer { scan($0, false) }
        case .response(let r): return r.body.withUnsafeBufferPointer { scan($0, false) }
        default: return nil
        }
    }
}
