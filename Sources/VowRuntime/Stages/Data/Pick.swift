import VowPromises
import VowValue

/// `pick EXPR`: JMESPath.
struct PickStage: ValueStage {
    static let name = "pick"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("pick")
    /// EXPR is read as written, never filled in as a template.
    static let expressionArguments = 1
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "pick EXPR"
    static let summary = "Picks a part of its input with a JMESPath expression."
    static let help = """
        Searches the input with EXPR, a full JMESPath expression (`user.name`, `items[0]`,
        `items[?stars > \\`100\\`].name | sort(@)`). On a response, EXPR searches the parsed JSON body.
        Quote an expression that has spaces or `|`. `<`, `<=`, `>`, `>=` order two numbers, or two
        strings by code point, as the reference implementation does; anything else compares as
        null. Errors have kind `pick` and a field `reason`
        (syntax, invalid-type, invalid-arity, invalid-value, unknown-function). Expressions are
        compiled once and cached.
        """
    static let examples = [
        StageExample("echo {user: {name: Ada}} | pick user.name", "Ada"),
        StageExample("echo [{n: 1}, {n: 5}, {n: 3}] | pick '[?n > `2`].n | sort(@)'", "[\n  3,\n  5\n]"),
        StageExample("echo [{n: ann}, {n: bob}, {n: cy}] | pick \"[?n >= 'b'].n\" | to-json", "[\"bob\",\"cy\"]"),
        StageExample("echo {a: 1} | pick missing", "null"),
        StageExample("echo {id: 1, name: Ada} | pick \"{x: id}\" | to-json", #"{"x":1}"#),
        StageExample("echo {a: 1} | pick 'a.['", "error[pick]: ", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        let expr = try args.string(0, "EXPR")
        if case .opaque(let o) = input, let picked = o as? PickedAhead, picked.expression == expr {
            return .value(picked.isAnswer ? picked.value : try Pick.search(expr, in: picked.value))
        }
        return .value(try Pick.search(expr, in: input))
    }
}
