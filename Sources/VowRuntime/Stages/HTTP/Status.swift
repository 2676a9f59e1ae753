import Foundation
import VowPromises
import VowValue

/// `status`: a response's status code.
struct StatusStage: ValueStage {
    static let name = "status"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("status")
    static let group = StageGroup.data
    static let synopsis = "status"
    static let summary = "Fulfils with the input response's status code."
    static let help = "Fulfils with the status code of the input response (or the status field of a record, such as an http error in a catch)."
    static let examples = [
        StageExample("fetch $base/user.json | status", "200", needsServer: true),
        StageExample("echo {status: 404} | status", "404"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        switch input {
        case .response(let r): return .value(.int(r.status))
        case .record(let r) where r["status"] != nil: return .value(r["status"]!)
        default: throw call.error(.type, "expected a response, got \(input.typeName)")
        }
    }
}
