import Foundation
import VowPromises
import VowValue

/// `confirm PROMPT`: yes or no.
struct ConfirmStage: ValueStage {
    static let name = "confirm"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("confirm", streamsAtOnce: false)
    static let settlement: String? = "settles when the answer (a line of standard input) has arrived"
    static let group = StageGroup.files
    static let synopsis = "confirm PROMPT [--default yes|no]"
    static let summary = "Asks a yes/no question; fulfils with true or false."
    static let help = """
        Asks `PROMPT [y/N] ` (`[Y/n]` with --default yes) as `ask` does and fulfils with true for
        y or yes, false for n or no (any case), and the default (no, unless --default yes) for an
        empty answer or an ended standard input; any other answer rejects with kind `type`. In a
        script that must not go on without a yes: `confirm "Delete it all?" | assert @`.
        """
    static let fallback = Flag.value("default", value: "yes|no", help: "the answer for an empty line (default no)")
    static let flags = [fallback.spec]
    static let examples: [StageExample] = []

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let prompt = args.positional.map(Evaluator.interpolationText).joined(separator: " ")
        let yes = try args.value(Self.fallback).map { v -> Bool in
            switch Evaluator.interpolationText(v).lowercased() {
            case "yes", "y", "true": return true
            case "no", "n", "false": return false
            default: throw call.error(.type, "--default must be yes or no")
            }
        } ?? false
        return .promise(TerminalQuestions.answer(call.session, prompt + (yes ? " [Y/n] " : " [y/N] "), secret: false, stage: "confirm", question: prompt) { line in
            switch line?.trimmingCharacters(in: .whitespaces).lowercased() {
            case nil, "": return .bool(yes)
            case "y", "yes": return .bool(true)
            case "n", "no": return .bool(false)
            case let other?: throw call.error(.type, "answer yes or no to '\(prompt)', got '\(other)'")
            }
        })
    }
}
