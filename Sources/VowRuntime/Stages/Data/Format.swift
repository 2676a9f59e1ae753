import VowPromises
import VowValue

/// `format TEMPLATE`: string interpolation.
struct FormatStage: ValueStage {
    static let name = "format"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("format")
    /// A pure function of its input and arguments.
    static let isPure = true
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

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        if args.positional.count == 1 { return .value(.string(Evaluator.interpolationText(args.positional[0]))) }
        return .value(.string(args.positional.map(Evaluator.interpolationText).joined(separator: " ")))
    }
}
