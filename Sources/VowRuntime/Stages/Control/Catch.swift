import VowPromises
import VowValue
import VowSyntax

/// `catch [HANDLER…]`: recovers from a rejection.
struct CatchStage: StageDefinition {
    static let name = "catch"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let innerIsHandler = true
    static let onRejection = RejectionRole.recovers
    static let passesStream = true
    static let group = StageGroup.control
    static let synopsis = "catch [HANDLER…]"
    static let summary = "Recovers from a rejection: HANDLER gets the error as $_ and its value continues the chain."
    static let help = """
        A rejection skips every stage until the first `catch`. HANDLER runs with the error as its
        input (and as $_): a record {kind, message, stage, status?, body?, …}. What HANDLER fulfils
        with continues the chain, fulfilled; if HANDLER rejects, that rejection passes on. With no
        HANDLER the chain continues with null. A fulfilled value passes through untouched.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("reject boom | then echo never | catch echo \"saved: {message}\"", "saved: boom"),
        StageExample("echo fine | catch echo never", "fine"),
        StageExample("reject boom | catch pick kind", "user"),
        StageExample("reject a | catch reject b", "error[user]: b", fails: true),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let upstream = call.upstream else {
            throw call.error(.type, "nothing to catch here (put it after a stage: … | catch …)")
        }
        return upstream.recover(name: "catch", attributes: call.traceInfo, on: call.executor, resolving: { error in
            // `exit` ends the script: no handler stops it.
            if toVowError(error).kind == .exit { throw error }
            var annotated = call.annotate(error)
            if annotated.skipped.isEmpty { annotated.skipped = call.skippedBefore(annotated) }
            let record = Value.record(annotated.record)
            // The handler is made when a rejection comes, as a `then`'s is when a value comes.
            guard !call.positional.isEmpty else { return .value(.null) }
            return try call.runInner(record, context: ["in a catch handler"])
        })
    }
}

extension CatchStage: TwinWriting {
    static let twinReference: String? = "`.catch((e) => X(record of e))`; with no handler `.catch(() => null)`"

    /// `.catch(vow.onError(X, at))`: X gets the error as a record.
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String? {
        guard let h = twin.handler(plan, depth: depth) else { return "\(upstream)\n.catch(() => null)" }
        return "\(upstream)\n.catch(vow.onError(\(h.code)\(origin.map { ", \(jsString($0.previous))" } ?? "")))"
    }
}

extension CatchStage: StageExplaining {
    /// Recovers: the handler's outcome continues the chain; a fulfilment passes through.
    static func explanation(_ c: Explainer.Context) -> String? {
        if c.kind.args.isEmpty { return "when \(c.prev) rejects, \(c.id) fulfils with null; a fulfilment passes through" }
        return "when an earlier promise rejects, runs \(c.kind.args) with the error as a record: " + c.outcome("the handler", " (the chain recovers)") + "; a fulfilment passes through untouched"
    }
}
