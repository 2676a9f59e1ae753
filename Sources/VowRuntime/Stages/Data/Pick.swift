import JMESPath
import VowPromises
import VowValue

/// `pick EXPR`: JMESPath.
struct PickStage: ValueStage {
    static let name = "pick"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("pick")
    /// EXPR is read as written, never filled in as a template.
    static let expressionArguments = 1
    /// A pure function of its input and arguments (`now()` reads the clock, but has no effect and
    /// never fails, so running the stage directly gives what a pipeline would).
    static let isPure = true
    static let group = StageGroup.data
    /// One expression: a second word is a mistake (`where age > 30` unquoted), never dropped.
    static let positionalLimit: Int? = 1
    static let synopsis = "pick EXPR"
    static let summary = "Picks a part of its input with a JMESPath expression."
    static let help = """
        Searches the input with EXPR, a JMESPath Community expression (`user.name`, `items[0]`,
        `items[?stars > \\`100\\`].name | sort(@)`, `let $min = limit in items[?n > $min]`,
        `done / total * \\`100\\``): docs/language.md says what it may hold, with vow's own
        functions (`round`, `now`, `to_iso8601`, `from_iso8601`, `matches`, `regex_replace`). On a
        response, EXPR searches the parsed JSON body; on text that holds a JSON object or list
        (`read users.json`, `stdin`), that JSON. Other text is searched as a string, and a
        search that finds nothing in it is an error that says to add `| json` or `| lines`,
        rather than null. Quote an expression that has spaces or `|`,
        and one with `$` in single quotes (or write `\\$` in double quotes). `<`, `<=`, `>`, `>=`
        order two numbers, or two strings by code point, as the reference implementation does;
        anything else compares as null. Errors have kind `pick` and a field `reason` (syntax,
        invalid-type, invalid-arity, invalid-value, unknown-function, not-a-number,
        undefined-variable). Expressions are compiled once and cached.
        """
    static let examples = [
        StageExample("echo {user: {name: Ada}} | pick user.name", "Ada"),
        StageExample("echo [{n: 1}, {n: 5}, {n: 3}] | pick '[?n > `2`].n | sort(@)'", "[\n  3,\n  5\n]"),
        StageExample("echo [{n: ann}, {n: bob}, {n: cy}] | pick \"[?n >= 'b'].n\" | to-json", "[\"bob\",\"cy\"]"),
        StageExample("echo {done: 7, total: 9} | pick 'round(done / total * `100`, `1`)'", "77.8"),
        StageExample("echo {home: WA, states: [{name: WA, n: 1}, {name: CA, n: 2}]} | pick 'states[?name == $.home].n'", "[\n  1\n]"),
        StageExample("echo {a: 1} | pick missing", "null"),
        StageExample("echo {id: 1, name: Ada} | pick \"{x: id}\" | to-json", #"{"x":1}"#),
        StageExample("echo {a: 1} | pick 'a.['", "error[syntax]: pick: unexpected end of expression", fails: true),
        StageExample("echo '[{\"name\": \"Ada\"}]' | pick '[0].name'", "Ada"),
        StageExample("echo 'hello world' | pick name", "error[type]: pick: 'name' finds nothing in text: the input is text, not JSON (it starts \"hello world\")", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let expr = try args.string(0, "EXPR")
        if case .opaque(let o) = input, let picked = o as? PickedAhead, picked.expression == expr {
            switch picked.content {
            case .answer(let v): return .value(v)
            case .folded(.success(let v), _, _): return .value(v)
            case .folded(.failure(let e), _, _): throw Pick.pickError(e, expr)
            case .tape(let tape):
                return .value(try Pick.search(expr, in: tape, keepingTape: call.resultIsPrinted && !call.recordsEveryPromise))
            }
        }
        return .value(try Pick.searchReadingText(expr, in: input, stage: "pick"))
    }

    /// The expression compiled once (`PreparedPick`), when it compiles.
    func prepared(_ args: StageArguments) -> (any PreparedStage)? {
        guard let text = try? args.string(0, "EXPR"), let expression = try? JMESPathExpression.cached(text) else { return nil }
        return PreparedPick(expression)
    }
}
