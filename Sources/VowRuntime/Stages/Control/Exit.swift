import VowPromises
import VowValue

/// `exit [STATUS] [MESSAGE]`: ends the script.
struct ExitStage: ValueStage {
    static let name = "exit"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("exit")
    static let group = StageGroup.control
    static let synopsis = "exit [STATUS] [MESSAGE]"
    static let summary = "Ends the script with STATUS (default 0), writing MESSAGE to stderr as it is."
    static let help = """
        Ends the script at once with exit status STATUS (default 0; text that is a whole number, as
        `"{status}"` gives it, counts; anything else is an error), as node's `process.exit` does:
        MESSAGE, when given, goes to standard error as written, with no error excerpt; no later
        statement runs and background jobs are not waited for. `catch` does not stop it (it is not
        an error; `finally` handlers before it still run as the ending passes them). In the REPL it
        ends the statement and says what a script would do. `reject --status N` ends a script with
        status N through an ordinary, catchable rejection instead.
        """
    static let examples = [
        StageExample("echo 1 | print | exit 0 | then echo never", "1"),
        StageExample("exit 3 \"bad input\" | catch echo caught", "bad input", fails: true),
        StageExample("exit oops", "error[type]: exit: STATUS must be a whole number from 0 to 255, got \"oops\"", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        var words = args.positional
        var status = 0
        // The first word is the status, however it is written: a status made from data is text
        // (`catch exit "{status}"`). One that is no whole number is an error, never the message.
        if let first = words.first {
            guard let n = first.intValue ?? first.stringValue.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
                throw call.error(.type, "STATUS must be a whole number from 0 to 255, got \(JSONWriter.compact(first)) (a message alone is written exit 0 MESSAGE)", argument: 0)
            }
            guard (0...255).contains(n) else { throw call.error(.type, "STATUS must be 0 to 255, got \(n)", argument: 0) }
            status = n
            words.removeFirst()
        }
        throw VowError(.exit, words.map(Evaluator.interpolationText).joined(separator: " "), details: ["status": .int(status)])
    }
}

extension ExitStage: StageExplaining {
    /// Ends the script.
    static func explanation(_ c: Explainer.Context) -> String? {
        "ends the script (process.exit) when \(c.prev) fulfils; no later stage or statement runs"
    }
}
