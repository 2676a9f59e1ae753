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

/// `json`: parses text, bytes or a response body.
struct JsonStage: ValueStage {
    static let name = "json"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("json")
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
}

/// `to-json`: compact JSON text.
struct ToJsonStage: ValueStage {
    static let name = "to-json"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("to-json")
    static let group = StageGroup.data
    static let synopsis = "to-json [--pretty]"
    static let summary = "Turns its input into JSON text (compact, or --pretty)."
    static let help = "Fulfils with the input written as JSON text: compact by default, indented with --pretty."
    static let flags = [FlagSpec("pretty", help: "indent with two spaces")]
    static let examples = [
        StageExample("echo {a: [1, 2.5, \"x\"]} | to-json", "{\"a\":[1,2.5,\"x\"]}"),
        StageExample("echo '{\"a\":1}' | json | to-json | json | pick a", "1"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        .value(.string(args.has("pretty") ? JSONWriter.pretty(input) : JSONWriter.compact(input)))
    }
}

/// `text`: the input as text.
struct TextStage: ValueStage {
    static let name = "text"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("text")
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

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        switch input {
        case .string, .bytes, .response: return .value(.string(try textOf(input, stage: "text")))
        default: return .value(.string(JSONWriter.compact(input)))
        }
    }
}

/// `pick EXPR`: JMESPath.
struct PickStage: ValueStage {
    static let name = "pick"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("pick")
    static let group = StageGroup.data
    static let synopsis = "pick EXPR"
    static let summary = "Picks a part of its input with a JMESPath expression."
    static let help = """
        Searches the input with EXPR, a full JMESPath expression (`user.name`, `items[0]`,
        `items[?stars > \\`100\\`].name | sort(@)`). On a response, EXPR searches the parsed JSON body.
        Quote an expression that has spaces or `|`. Errors have kind `pick` and a field `reason`
        (syntax, invalid-type, invalid-arity, invalid-value, unknown-function). Expressions are
        compiled once and cached.
        """
    static let examples = [
        StageExample("echo {user: {name: Ada}} | pick user.name", "Ada"),
        StageExample("echo [{n: 1}, {n: 5}, {n: 3}] | pick '[?n > `2`].n | sort(@)'", "[\n  3,\n  5\n]"),
        StageExample("echo {a: 1} | pick missing", "null"),
        StageExample("echo {a: 1} | pick 'a.['", "error[pick]: ", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        let expr = try args.string(0, "EXPR")
        return .value(try Pick.search(expr, in: input))
    }
}
