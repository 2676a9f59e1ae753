import Foundation
import VowPromises
import VowValue

/// `await %N`: a job's outcome.
struct AwaitStage: ValueStage {
    static let name = "await"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("await")
    static let settlement: String? = "settles when the job does"
    static let group = StageGroup.jobs
    static let synopsis = "await %N"
    static let summary = "Waits for job %N and settles as it did."
    static let help = "Waits for the background job %N (or a promise variable) and fulfils or rejects as it does."
    static let examples = [StageExample("delay 10ms 7 &\nawait %1", "7")]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        .value(args[0] ?? input)
    }
}
