import VowPromises
import VowValue

/// `reject MESSAGE` / `fail MESSAGE`: a rejection of kind `user`.
struct RejectStage: ValueStage {
    static let name = "reject"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("reject")
    static let aliases = ["fail"]
    static let group = StageGroup.values
    static let synopsis = "reject MESSAGE  (also: fail MESSAGE)"
    static let summary = "Rejects with an error of kind user and the message."
    static let help = """
        Rejects with an error of kind `user` whose message is MESSAGE. Every following `then` is
        skipped until a `catch`. A record argument sets extra fields: `reject {message: "x", code: 3}`.
        """
    static let examples = [
        StageExample("reject boom | then echo never | catch echo \"saved: {message}\"", "saved: boom"),
        StageExample("reject boom", "error[user]: boom", fails: true),
        StageExample("fail oops | catch pick kind", "user"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        if case .record(let r)? = args[0] {
            var details = r
            let msg = r["message"].map(Evaluator.interpolationText) ?? "rejected"
            details["message"] = nil
            throw VowError(.user, msg, details: details)
        }
        let msg = args.count == 0 ? "rejected" : args.positional.map(Evaluator.interpolationText).joined(separator: " ")
        throw VowError(.user, msg)
    }
}
