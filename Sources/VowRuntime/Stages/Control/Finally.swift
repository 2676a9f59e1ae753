import VowPromises
import VowValue
import VowSyntax

/// `finally HANDLER…`: runs on both paths.
struct FinallyStage: StageDefinition {
    static let name = "finally"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let innerIsHandler = true
    static let onRejection = RejectionRole.runsThenPassesOn
    static let passesStream = true
    static let group = StageGroup.control
    static let synopsis = "finally HANDLER…"
    static let summary = "Runs HANDLER whether the chain fulfilled or rejected, then passes the outcome on."
    static let help = """
        Runs HANDLER on both paths (its input is the value, or the error record) and, once HANDLER
        has fulfilled, passes the original outcome on unchanged. If HANDLER rejects, its rejection
        passes on instead. A cancelled chain (Ctrl-C, timeout, cancel %N) skips it, as it skips
        every stage.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("echo 1 | finally print cleanup", "cleanup\n1"),
        StageExample("reject x | finally print cleanup | catch pick message", "cleanup\nx"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard !call.positional.isEmpty else { throw call.error(.type, "missing HANDLER") }
        guard let upstream = call.upstream else { throw call.error(.type, "put it after a stage: … | finally …") }
        let ex = call.executor
        return upstream.always(name: "finally", attributes: call.traceInfo, on: ex) { r -> Resolution<Value> in
            let input: Value
            switch r {
            case .success(let v): input = v
            case .failure(let e): input = .record(call.annotate(e).record)
            }
            // JavaScript's finally: Promise.resolve(handler()).then(() => outcome), adopted. A
            // handler that throws at once rejects here, with no adoption.
            let handled: Promise<Value>
            switch try call.runInner(input, context: ["in a finally handler"]) {
            case .value(let v): handled = Promise.resolve(v, on: ex)
            case .promise(let p): handled = p
            }
            return .promise(handled.then(on: ex, resolving: { _ -> Resolution<Value> in
                switch r {
                case .success(let v): return .value(v)
                case .failure(let e): throw e
                }
            }))
        }
    }
}

extension FinallyStage: TwinWriting {
    static let twinReference: String? = "JavaScript's `finally`, with X given the value or the error record: `.then((v) => Promise.resolve(X(v)).then(() => v), (e) => Promise.resolve(X(rec(e))).then(() => { throw e; }))`"

    /// `.then(...vow.finally(X, at))`: both paths, the outcome passed on.
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String? {
        guard let h = twin.handler(plan, depth: depth) else { return upstream }
        return "\(upstream)\n.then(...vow.finally(\(h.code)\(origin.map { ", \(jsString($0.previous))" } ?? "")))"
    }
}

extension FinallyStage: StageExplaining {
    /// Runs on both paths and passes the outcome on.
    static func explanation(_ c: Explainer.Context) -> String? {
        "runs \(c.kind.args) on both paths, then passes \(c.prev)'s outcome on (JavaScript's finally: Promise.resolve(handler).then(() => outcome), adopted); if the handler rejects, that rejection passes on instead"
    }
}
