import Dispatch
import VowPromises
import VowSyntax
import VowValue

/// `timeout D`: a time limit on everything upstream.
struct TimeoutStage: StageDefinition {
    static let name = "timeout"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let settlement: String? = "settles when its inputs do"
    static let onRejection = RejectionRole.passesOn
    static let passesStream = true
    static let group = StageGroup.control
    static let synopsis = "timeout DURATION"
    static let summary = "Rejects with kind timeout if everything upstream has not settled in DURATION, and cancels it."
    static let help = """
        Applies to the whole pipeline before it: if it has not settled within DURATION, the chain
        rejects with an error of kind `timeout` and everything upstream is cancelled (timers
        cleared, requests aborted, processes killed). A stream that arrives in time must also end
        in time: DURATION after the pipeline started, a stream still running ends with the
        `timeout` error and its source is stopped. In JavaScript mode nothing is cancelled, and a
        stream runs on.
        """
    static let argumentStyle = ArgumentStyle.raw
    static let examples = [
        StageExample("delay 5s done | timeout 100ms", "error[timeout]: timed out after 100ms", fails: true),
        StageExample("delay 10ms done | timeout 2s", "done"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let upstream = call.upstream else { throw call.error(.type, "put it after the stages it limits: … | timeout 2s") }
        guard let arg = call.positional.first else { throw call.error(.type, "missing DURATION (e.g. timeout 2s)") }
        let ev = Evaluator(session: call.session)
        let v = try ev.plainArgument(arg, input: .null, scope: call.scope, site: call.site, problem: "timeout: DURATION must be a plain value")
        let seconds = try StageArguments(positional: [], flags: [:], stage: "timeout").seconds(v, "DURATION")
        let ex = call.executor
        let limited = upstream.timeout(seconds, name: "timeout", on: ex, cancelsUpstream: !call.session.javaScriptMode)
        if !call.session.javaScriptMode {
            // A stream that arrived in time is given what is left of DURATION to end.
            let deadline = DispatchTime.now() + seconds
            limited.whenSettled(on: ex) { r in
                guard case .success(let v) = r, let stream = v.stream else { return }
                let left = (Double(deadline.uptimeNanoseconds) - Double(DispatchTime.now().uptimeNanoseconds)) / 1e9
                // The error is located at this stage, as the chain's own timeout is.
                Promise<Void>.delay(max(0, left), value: (), name: "timeout", on: ex).whenSettled(on: ex) { _ in
                    stream.stop(with: call.run.annotate(PromiseTimeoutError(seconds: seconds), before: call.index + 1))
                }
            }
        }
        return limited
    }
}

extension TimeoutStage: TwinWriting {
    static let twinReference: String? = "a race against a timer: `vow.timeout(p, D)`; vow's mode also cancels p on expiry, JavaScript does not"

    /// `vow.timeout(upstream, D)`.
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String? {
        let d = twin.positional(plan).first.map { twin.value($0, input: "null", depth: depth) } ?? "0"
        return "vow.timeout(\(upstream), \(d))"
    }
}

extension TimeoutStage: StageExplaining {
    /// A race against a timer; vow's mode cancels the loser.
    static func explanation(_ c: Explainer.Context) -> String? {
        "races \(c.prev) against a \(c.kind.args) timer; on expiry \(c.id) rejects with kind timeout" + (c.javaScriptMode ? c.cancelNote : "\(c.cancelNote): \(c.prev) is cancelled back to its source")
    }
}
