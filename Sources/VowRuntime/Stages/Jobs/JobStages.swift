import Foundation
import VowPromises
import VowValue

/// `jobs`: the job table.
struct JobsStage: ValueStage {
    static let name = "jobs"
    static let group = StageGroup.jobs
    static let synopsis = "jobs"
    static let summary = "Lists background jobs: id, statement, state, elapsed seconds."
    static let help = "Fulfils with a list of records {id, statement, state, elapsed} for every job started with `&`."
    static let examples = [StageExample("jobs | to-json", "[]")]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        .value(.list(ctx.session.jobs.all.map { j in
            let elapsed = (j.settled ?? Date()).timeIntervalSince(j.started)
            return ["id": .int(j.id), "statement": .string(j.statement), "state": .string(j.state), "elapsed": .double((elapsed * 1000).rounded() / 1000)]
        }))
    }
}

/// `await %N`: a job's outcome.
struct AwaitStage: ValueStage {
    static let name = "await"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("await")
    static let group = StageGroup.jobs
    static let synopsis = "await %N"
    static let summary = "Waits for job %N and settles as it did."
    static let help = "Waits for the background job %N (or a promise variable) and fulfils or rejects as it does."
    static let examples = [StageExample("delay 10ms 7 &\nawait %1", "7")]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        .value(args[0] ?? input)
    }
}

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
        call.chain { _, ctx in
            guard let a = call.positional.first, case .job(let n) = a.kind else { throw VowError(.type, "cancel: expected a job like %1") }
            guard let job = ctx.session.jobs.job(n) else { throw VowError(.type, "cancel: no job %\(n)") }
            job.promise.cancel(reason: "cancelled by cancel %\(n)")
            return .value(.int(n))
        }
    }
}
