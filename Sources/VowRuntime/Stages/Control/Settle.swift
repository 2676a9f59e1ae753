import VowPromises
import VowValue
import VowSyntax

/// `settle`: every outcome.
struct SettleStage: CombinatorStage {
    static let name = "settle"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let twinReference: String? = "`Promise.allSettled([A, B])`, with each reason as a record: `vow.settle([A, B])`"
    /// What `:explain` says it does, given what it starts.
    static func explain(starting what: String, _ c: Explainer.Context) -> String {
        "starts \(what); waits for all of them and never rejects: one {status, value|reason} each"
    }
    static let synopsis = "settle [LIST | RECORD]"
    static let summary = "Waits for every element and never rejects: one {status, value|reason} per element."
    static let help = "JavaScript's Promise.allSettled: fulfils with `{status: \"fulfilled\", value}` or `{status: \"rejected\", reason}` per element, in order (keyed for a record)."
    static let examples = [
        StageExample("settle [echo 1, reject no] | pick '[*].status' | to-json", "[\"fulfilled\",\"rejected\"]"),
    ]

    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value> {
        Promise.settle(promises, on: ex).transformedAtOnce { r in
            r.map { outcomes -> Value in
                let records: [Value] = outcomes.map { r in
                    switch r {
                    case .success(let v): return ["status": "fulfilled", "value": v]
                    case .failure(let e): return ["status": "rejected", "reason": .record(toVowError(e).record)]
                    }
                }
                guard let keys else { return .list(records) }
                return .record(Record(zip(keys, records).map { ($0, $1) }))
            }
        }
    }
}
