import Foundation
import VowPromises
import VowValue

/// `headers`: a response's headers.
struct HeadersStage: ValueStage {
    static let name = "headers"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("headers")
    static let group = StageGroup.data
    static let synopsis = "headers"
    static let summary = "Fulfils with the input response's headers as a record (lower-case names)."
    static let help = "Fulfils with the headers of the input response as a record whose keys are lower-case header names; repeated headers are joined with \", \"."
    static let examples = [StageExample("fetch $base/user.json | headers | pick '\"content-type\"'", "application/json", needsServer: true)]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        switch input {
        case .response(let r): return .value(.record(r.headerRecord()))
        case .record(let r) where r["headers"] != nil: return .value(r["headers"]!)
        default: throw call.error(.type, "expected a response, got \(input.typeName)")
        }
    }
}
