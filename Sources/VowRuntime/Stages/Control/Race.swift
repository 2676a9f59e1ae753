import VowPromises
import VowValue
import VowSyntax

/// `race`: the first to settle.
struct RaceStage: CombinatorStage {
    static let name = "race"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let twinReference: String? = "`Promise.race([A, B])`; vow's mode also cancels the losers"
    /// What `:explain` says it does, given what it starts.
    static func explain(starting what: String, _ c: Explainer.Context) -> String {
        "starts \(what); settles like the first of them to settle" + (c.javaScriptMode ? c.cancelNote : "\(c.cancelNote): the others are cancelled")
    }
    static let synopsis = "race LIST"
    static let summary = "Settles as the first element settles (fulfilled or rejected) and cancels the rest."
    static let help = "Settles like the first element to settle, then cancels the others. `race []` stays pending forever, as in JavaScript."
    static let examples = [
        StageExample("race [delay 50ms slow, delay 10ms fast]", "fast"),
        StageExample("race [delay 50ms slow, delay 10ms 0 | then reject quick] | catch pick message", "quick"),
    ]

    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value> {
        Promise.race(promises, on: ex, cancelsOthers: cancels)
    }
}
