import VowPromises
import VowValue
import VowSyntax

/// `reject MESSAGE` / `fail MESSAGE`: a rejection of kind `user`.
struct RejectStage: ValueStage {
    static let name = "reject"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("reject")
    static let alwaysRejects = true
    static let aliases = ["fail"]
    static let group = StageGroup.values
    static let synopsis = "reject MESSAGE  (also: fail MESSAGE)"
    static let summary = "Rejects with an error of kind user and the message."
    static let help = """
        Rejects with an error of kind `user` whose message is MESSAGE. Every following `then` is
        skipped until a `catch`. A record argument sets extra fields: `reject {message: "x", code: 3}`;
        an error record (one with a `kind`, as `catch` hands it on) is raised again with its kind and
        fields, as `throw err` does: `catch (if "kind == 'timeout'" (echo late) else (reject $_))`.
        `--status N` is the exit status of a script that this rejection ends (default 1).
        """
    static let status = Flag.value("status", value: "N", help: "the exit status of a script this rejection ends (default 1)")
    static let flags = [status.spec]
    static let examples = [
        StageExample("reject boom | then echo never | catch echo \"saved: {message}\"", "saved: boom"),
        StageExample("reject boom", "error[user]: boom", fails: true),
        StageExample("fail oops | catch pick kind", "user"),
        StageExample("reject \"no config\" --status 3 | catch pick exitStatus", "3"),
        StageExample("delay 50ms | timeout 10ms | catch (if \"kind == 'user'\" (echo mine) else (reject $_)) | catch pick kind", "timeout"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        var status: Value? = nil
        if let s = try args.value(Self.status) {
            let n = try args.integer(s, "--status")
            guard (1...255).contains(n) else { throw call.error(.type, "--status must be 1 to 255, got \(n)", flag: "status") }
            status = .int(n)
        }
        if case .record(let r)? = args[0] {
            var details = r
            let msg = r["message"].map(Evaluator.interpolationText) ?? "rejected"
            details["message"] = nil
            if let status { details["exitStatus"] = status }
            // An error record given back (`catch (… else (reject $_))`) raises that error again,
            // its kind and fields kept, and the stage that raised it first (`stage`, `at`), as
            // `throw err` keeps err's stack in JavaScript; what described the first run (its
            // input, context, skipped stages) is the new report's to say.
            if let kind = r["kind"]?.stringValue.flatMap(VowError.Kind.init(rawValue:)), kind != .exit {
                details["kind"] = nil
                for k in ["input", "context", "skipped"] { details[k] = nil }
                throw VowError(kind, msg, details: details)
            }
            throw VowError(.user, msg, details: details)
        }
        let msg = args.count == 0 ? "rejected" : args.positional.map(Evaluator.interpolationText).joined(separator: " ")
        throw VowError(.user, msg, details: status.map { ["exitStatus": $0] } ?? Record())
    }
}

extension RejectStage: TwinWriting {
    /// First in a pipeline: a promise that starts rejected, `vow.start(() => vow.reject(…))`.
    static func twinFirst(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> String? {
        let args = twin.positional(plan)
        guard !args.contains(where: { twin.isPending($0) }) else { return nil }
        let values = ([input] + args.map { twin.value($0, input: input, depth: depth) }).joined(separator: ", ")
        if let status = twin.flag(status, in: plan) {
            return "vow.start(() => vow.rejectWithStatus(\(twin.value(status, input: input, depth: depth)), \(values)))"
        }
        return "vow.start(() => vow.reject(\(values)))"
    }

    /// `reject --status N`: the one handler that reads a flag, for the script's exit status.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        guard let status = twin.flag(status, in: plan) else { return nil }
        return twin.preludeCall(plan, input: input, depth: depth, callee: "vow.rejectWithStatus.bind(null, \(twin.value(status, input: input, depth: depth)))")
    }
}
