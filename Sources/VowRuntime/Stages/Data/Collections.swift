import VowPromises
import VowValue

/// `len`: length of a list, record, string or bytes.
struct LenStage: ValueStage {
    static let name = "len"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("len")
    static let group = StageGroup.data
    static let synopsis = "len"
    static let summary = "The number of elements, keys, characters or bytes of its input."
    static let help = "Fulfils with the length of the input: elements of a list, keys of a record, characters of a string, bytes of bytes or of a response body."
    static let examples = [
        StageExample("echo [1, 2, 3] | len", "3"),
        StageExample("echo héllo | len", "5"),
        StageExample("echo 5 | len", "error[type]: len: expected a list, record, string or bytes, got number", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        switch input {
        case .list(let l): return .value(.int(l.count))
        case .record(let r): return .value(.int(r.count))
        case .string(let s): return .value(.int(s.count))
        case .bytes(let b): return .value(.int(b.count))
        case .response(let r): return .value(.int(r.body.count))
        default: throw VowError(.type, "len: expected a list, record, string or bytes, got \(input.typeName)")
        }
    }
}

/// `keys`: a record's keys in order.
struct KeysStage: ValueStage {
    static let name = "keys"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("keys")
    static let group = StageGroup.data
    static let synopsis = "keys"
    static let summary = "The keys of a record, in order."
    static let help = "Fulfils with the list of the input record's keys, in their order. A response's keys are its JSON body's."
    static let examples = [StageExample("echo {b: 1, a: 2} | keys | to-json", "[\"b\",\"a\"]")]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        guard case .record(let r) = Pick.target(input) else {
            throw VowError(.type, "keys: expected a record, got \(input.typeName)")
        }
        return .value(.list(r.keys.map { .string($0) }))
    }
}

/// `values`: a record's values in order.
struct ValuesStage: ValueStage {
    static let name = "values"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("values")
    static let group = StageGroup.data
    static let synopsis = "values"
    static let summary = "The values of a record, in order."
    static let help = "Fulfils with the list of the input record's values, in key order."
    static let examples = [StageExample("echo {b: 1, a: 2} | values | to-json", "[1,2]")]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        guard case .record(let r) = Pick.target(input) else {
            throw VowError(.type, "values: expected a record, got \(input.typeName)")
        }
        return .value(.list(r.values))
    }
}

/// `lines`: splits text into lines.
struct LinesStage: ValueStage {
    static let name = "lines"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("lines")
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

/// `format TEMPLATE`: string interpolation.
struct FormatStage: ValueStage {
    static let name = "format"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("format")
    static let group = StageGroup.data
    static let synopsis = "format TEMPLATE"
    static let summary = "Fills a template: {} is the input, {PATH} a part of it, ${name.PATH} a variable."
    static let help = """
        Fulfils with TEMPLATE filled in: `{}` is the whole input, `{PATH}` a part of it (JMESPath),
        `$name` and `${name.PATH}` variables. Strings are inserted raw, other values as JSON.
        Write \\{ and \\} for literal braces.
        """
    static let examples = [
        StageExample("echo {login: ada, stars: 3} | format \"{login} has {stars} stars\"", "ada has 3 stars"),
        StageExample("echo [1, 2] | format \"list: {}\"", "list: [1,2]"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        .value(.string(args.positional.map(Evaluator.interpolationText).joined(separator: " ")))
    }
}
