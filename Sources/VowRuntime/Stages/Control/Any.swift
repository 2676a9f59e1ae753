import VowPromises
import VowValue
import VowSyntax

/// `any`: the first to fulfil.
struct AnyStage: CombinatorStage {
    static let name = "any"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let twinReference: String? = "`Promise.any([A, B])`; vow's mode also cancels the others once one fulfils"
    /// What `:explain` says it does, given what it starts.
    static func explain(starting what: String, _ c: Explainer.Context) -> String {
        "starts \(what); fulfils with the first to fulfil; rejects with an aggregate error only when all reject" + (c.javaScriptMode ? c.cancelNote : "\(c.cancelNote): the others are cancelled")
    }
    static let synopsis = "any LIST"
    static let summary = "Fulfils with the first element to fulfil; if all reject, an aggregate error lists every reason."
    static let help = """
        Fulfils with the first element to fulfil and cancels the others. If every element rejects,
        rejects with an error of kind `aggregate` whose field `errors` lists every reason, in the
        list's order. `any []` rejects at once.
        """
    static let examples = [
        StageExample("any [reject x, delay 10ms ok]", "ok"),
        StageExample("any [reject x, reject y]", "error[aggregate]: all 2 promises rejected: x; y", fails: true),
    ]

    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value> {
        Promise.any(promises, on: ex, cancelsOthers: cancels)
    }
}
