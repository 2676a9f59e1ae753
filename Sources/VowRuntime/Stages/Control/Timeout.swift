import VowPromises
import VowSyntax
import VowValue

/// `timeout D`: a time limit on everything upstream.
struct TimeoutStage: StageDefinition {
    static let name = "timeout"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "timeout DURATION"
    static let summary = "Rejects with kind timeout if everything upstream has not settled in DURATION, and cancels it."
    static let help = """
        Applies to the whole pipeline before it: if it has not settled within DURATION, the chain
        rejects with an error of kind `timeout` and everything upstream is cancelled (timers
        cleared, requests aborted, processes killed).
        """
    static let argumentStyle = ArgumentStyle.raw
    static let examples = [
        StageExample("delay 5s done | timeout 100ms", "error[timeout]: timed out after 100ms", fails: true),
        StageExample("delay 10ms done | timeout 2s", "done"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let upstream = call.upstream else { throw VowError(.type, "timeout: put it after the stages it limits: … | timeout 2s") }
        guard let arg = call.positional.first else { throw VowError(.type, "timeout: missing DURATION (e.g. timeout 2s)") }
        let ev = Evaluator(session: call.session)
        let v = try ev.plainArgument(arg, input: .null, scope: call.scope, site: call.site, problem: "timeout: DURATION must be a plain value")
        let seconds = try StageArguments(positional: [], flags: [:], stage: "timeout").seconds(v, "DURATION")
        return upstream.timeout(seconds, name: "timeout", on: call.executor, cancelsUpstream: !call.session.javaScriptMode)
    }
}
