import VowPromises
import VowValue

/// `ask PROMPT`: a line the user types.
struct AskStage: ValueStage {
    static let name = "ask"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("ask", streamsAtOnce: false)
    static let settlement: String? = "settles when the answer (a line of standard input) has arrived"
    static let group = StageGroup.files
    static let synopsis = "ask PROMPT [--default V] [--secret]"
    static let summary = "Asks PROMPT and fulfils with the line typed (one line of standard input when piped)."
    static let help = """
        On a terminal, writes `PROMPT: ` (or `PROMPT [V]: ` with a default) to stderr and fulfils
        with the line typed; --secret turns echo off while it is typed (a password). When standard
        input is not a terminal, each question takes the next line, in the order the questions
        were asked: `printf 'Ada\\nblue\\n' | vow script.vow` answers two. An empty answer gives
        --default when there is one; a standard input that has ended gives --default, or rejects
        with kind `io` naming the question.
        """
    static let flags = [fallback.spec, secret.spec]
    /// `--default V`.
    static let fallback = Flag.value("default", value: "V", help: "the answer when the line is empty or standard input has ended")
    /// `--secret`.
    static let secret = Flag.switch("secret", help: "do not echo what is typed (on a terminal)")
    static let examples: [StageExample] = []

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let prompt = args.positional.map(Evaluator.interpolationText).joined(separator: " ")
        let fallback = try args.value(Self.fallback).map(Evaluator.interpolationText)
        let shown = prompt + (fallback.map { " [\($0)]" } ?? "") + ": "
        return .promise(TerminalQuestions.answer(call.session, shown, secret: args[Self.secret], stage: "ask", question: prompt) { line in
            if let line, !line.isEmpty { return .string(line) }
            if let fallback { return .string(fallback) }
            if let line { return .string(line) }
            throw TerminalQuestions.ended("ask", prompt)
        })
    }
}

extension TerminalQuestions {
    /// A promise of `parse` applied to the answer to `shown`, settled as a task (an I/O callback).
    static func answer(
        _ session: Session, _ shown: String, secret: Bool, stage: String, question: String,
        parse: @escaping @Sendable (String?) throws -> Value
    ) -> Promise<Value> {
        let ex = session.executor
        let (promise, resolver) = Promise<Value>.pending(name: stage, on: ex)
        WorkInFlight.track(promise)
        session.questions.ask(shown, secret: secret) { line in
            let outcome = Result { try parse(line) }
            ex.enqueueTask { resolver.settle(outcome) }
        }
        return promise
    }

    /// The error of a question that standard input ended before.
    static func ended(_ stage: String, _ question: String) -> VowError {
        VowError(.io, "\(stage): standard input ended before an answer to '\(question)'", details: ["question": .string(question)])
    }
}
