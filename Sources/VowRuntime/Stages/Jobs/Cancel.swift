import Foundation
import VowPromises
import VowValue
import VowSyntax

/// `cancel %N`: cancels a job.
struct CancelStage: StageDefinition {
    static let name = "cancel"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let group = StageGroup.jobs
    static let synopsis = "cancel %N"
    static let summary = "Cancels job %N: its timers, requests and processes stop; it rejects with kind cancelled."
    static let help = "Cancels the background job %N back to its source, and fulfils with the job's number."
    static let argumentStyle = ArgumentStyle.raw
    static let examples = [StageExample("delay 5s x &\ncancel %1 | then jobs | pick '[0].state'", "cancelled")]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        call.chain { _ in
            guard let a = call.positional.first, case .job(let n) = a.kind else { throw call.error(.type, "expected a job like %1") }
            guard let job = call.session.jobs.job(n) else { throw call.error(.type, "no job %\(n)") }
            job.promise.cancel(reason: "cancelled by cancel %\(n)")
            return .value(.int(n))
        }
    }
}

extension CancelStage: TwinWriting {
    static let twinReference: String? = "`vow.cancel(N)`: cancels job N when its promise is a lone delay or sim"

    /// `vow.cancel(N)` for `cancel %N`.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        guard case .job(let n)? = twin.positional(plan).first?.kind else { return twin.missing(name) }
        return TwinCode("vow.cancel(\(n))", isPromise: false)
    }
}

extension CancelStage: StageExplaining {
    /// The generic note serves.
    static func explanation(_ c: Explainer.Context) -> String? { nil }
}
