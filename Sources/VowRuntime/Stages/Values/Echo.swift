import VowPromises
import VowValue
import VowSyntax

/// `echo VALUE`: the value itself, whatever the input.
struct EchoStage: ValueStage {
    static let name = "echo"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("echo")
    static let rejectsOnItsOwn = false
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.values
    /// `echo null` in a program prints null: it was asked for.
    static let inPrograms = ProgramPrinting.value
    static let synopsis = "echo VALUE…"
    static let summary = "Fulfils with its argument (several arguments are joined with spaces)."
    static let help = """
        Fulfils with VALUE, ignoring the input. With several arguments, they are joined with single
        spaces into one string, as in a shell. Inside VALUE, {} is the input and {PATH} a part of it.
        """
    static let examples = [
        StageExample("echo hello", "hello"),
        StageExample("echo 42", "42"),
        StageExample("echo [1, 2] | len", "2"),
        StageExample("echo hello world", "hello world"),
        StageExample("echo {a: 1} | echo \"got {a}\"", "got 1"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        switch args.count {
        case 0: return .value(.null)
        case 1: return .value(args[0]!)
        default: return .value(.string(args.positional.map(Evaluator.interpolationText).joined(separator: " ")))
        }
    }
}

extension EchoStage: TwinWriting {
    /// First in a pipeline: a promise already fulfilled with the value, `Promise.resolve(…)`.
    static func twinFirst(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> String? {
        let b = twin.preludeCall(plan, input: input, depth: depth)
        return b.isPromise ? nil : "Promise.resolve(\(b.code))"
    }
}
