import Foundation
import VowPromises
import VowValue

/// `jobs`: the job table.
struct JobsStage: ValueStage {
    static let name = "jobs"
    /// In the JavaScript twin: no stand-in: the job table belongs to the shell, not to a program.
    static let twin = StageTwin.none
    static let group = StageGroup.jobs
    static let synopsis = "jobs"
    static let summary = "Lists background jobs: id, statement, state, elapsed seconds."
    static let help = "Fulfils with a list of records {id, statement, state, elapsed} for every job started with `&`."
    static let examples = [StageExample("jobs | to-json", "[]")]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        .value(.list(call.session.jobs.all.map { j in
            let elapsed = (j.settled ?? Date()).timeIntervalSince(j.started)
            return ["id": .int(j.id), "statement": .string(j.statement), "state": .string(j.state), "elapsed": .double((elapsed * 1000).rounded() / 1000)]
        }))
    }
}
