import Foundation
import VowPromises
import VowValue

/// `choose PROMPT --from LIST`: one of a list.
struct ChooseStage: ValueStage {
    static let name = "choose"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("choose", streamsAtOnce: false)
    static let settlement: String? = "settles when the answer (a line of standard input) has arrived"
    static let group = StageGroup.files
    static let synopsis = "choose PROMPT --from LIST"
    static let summary = "Asks for one of LIST (by its number or its text); fulfils with that element."
    static let help = """
        On a terminal, lists the elements of LIST numbered from 1 on stderr, then asks `PROMPT
        [1-N]: ` as `ask` does. The answer is a number (that element) or the text of an element
        (compared with its text, or its compact JSON); when standard input is not a terminal it is
        the next line. Anything else, or an ended standard input, rejects naming the question.
        """
    static let from = Flag.value("from", value: "LIST", help: "the elements to choose from")
    static let flags = [from.spec]
    static let examples: [StageExample] = []

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let prompt = args.positional.map(Evaluator.interpolationText).joined(separator: " ")
        guard case .list(let items)? = try args.value(Self.from), !items.isEmpty else {
            throw call.error(.type, "--from must be a list with at least one element")
        }
        let texts = items.map(Evaluator.interpolationText)
        var shown = ""
        if isatty(0) == 1 {
            for (i, t) in texts.enumerated() { shown += "  \(i + 1)) \(TerminalText.visibleLine(t))\n" }
        }
        shown += "\(prompt) [1-\(items.count)]: "
        return .promise(TerminalQuestions.answer(call.session, shown, secret: false, stage: "choose", question: prompt) { line in
            guard let line else { throw TerminalQuestions.ended("choose", prompt) }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if let n = Int(answer), (1...items.count).contains(n) { return items[n - 1] }
            if let i = texts.firstIndex(of: answer) { return items[i] }
            throw call.error(.type, "'\(answer)' is not one of the \(items.count) choices of '\(prompt)' (a number from 1 to \(items.count), or one of them)")
        })
    }
}
