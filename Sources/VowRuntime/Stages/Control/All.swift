import VowPromises
import VowValue
import VowSyntax

/// `all`: every value, fail-fast.
struct AllStage: CombinatorStage {
    static let name = "all"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let twinReference: String? = "`Promise.all([A, B])`; a record gives `vow.keyed([\"a\", \"b\"], [A, B])` (keys set in Promise.all's own turn); vow's mode also cancels the others on the first rejection"
    /// What `:explain` says it does, given what it starts.
    static func explain(starting what: String, _ c: Explainer.Context) -> String {
        "starts \(what); fulfils with every value in order once all fulfil; the first rejection rejects it at once" + (c.javaScriptMode ? c.cancelNote : "\(c.cancelNote): the others are cancelled (fail-fast)")
    }
    static let synopsis = "all [LIST | RECORD]"
    static let summary = "Waits for every element; fails fast on the first rejection and cancels the rest."
    static let help = """
        Runs the elements of the list or record literal at once and fulfils with their values, in
        the literal's order (a record gives a record with the same keys), once all have fulfilled.
        The first rejection rejects `all` and cancels the elements still pending (an extension over
        JavaScript's Promise.all, which lets them run on). `all []` fulfils with [].
        """
    static let examples = [
        StageExample("all {a: delay 50ms 1, b: delay 10ms 2} | to-json", "{\"a\":1,\"b\":2}"),
        StageExample("all [delay 20ms 1, echo 2] | to-json", "[1,2]"),
        StageExample("all [] | to-json", "[]"),
        StageExample("all [delay 1s a, reject no] | catch pick message", "no"),
    ]

    /// `all` over a list or record of plain values: JavaScript's `Promise.all` resolves each
    /// (a promise and a reaction an element) and fulfils in the job of the last reaction. Those
    /// jobs are queued together and do nothing else, so nothing runs between the first and the
    /// last: one job queued where the first would be fulfils it in the same place.
    func combinePlainValues(_ input: Value, _ ex: any PromiseExecutor) -> Promise<Value>? {
        func plain(_ v: Value) -> Bool {
            if case .opaque(let o) = v, o is PromiseHandle { return false }
            return true
        }
        switch input {
        case .list(let l) where !l.isEmpty && l.allSatisfy(plain): break
        case .record(let r) where !r.isEmpty && r.values.allSatisfy(plain): break
        default: return nil
        }
        return settledInOneJob(input, ex)
    }

    /// Elements that all fulfilled as they ran (`all [resolve 1, echo 2]`) are plain values by
    /// then: their reactions would be queued together, when `all` attaches them, and do nothing
    /// else, as for plain values above. So one job fulfils it, and no element's promise is kept.
    static let combinesFulfilledElements = true

    func combineFulfilled(_ keys: [String]?, _ values: [Value], _ ex: any PromiseExecutor) -> Promise<Value> {
        guard let keys else { return settledInOneJob(.list(values), ex) }
        return settledInOneJob(.record(Record(zip(keys, values).map { ($0, $1) })), ex)
    }

    /// A promise fulfilled with `value` by a job queued now.
    private func settledInOneJob(_ value: Value, _ ex: any PromiseExecutor) -> Promise<Value> {
        let (promise, resolver) = Promise<Value>.pending(name: "all", on: ex)
        ex.enqueue { resolver.fulfill(value) }
        return promise
    }

    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value> {
        // The values are shaped in the turn the last one arrives, as Promise.all resolves.
        Promise.all(promises, on: ex, cancelsOthers: cancels).transformedAtOnce { r in
            r.map { values -> Value in
                guard let keys else { return .list(values) }
                return .record(Record(zip(keys, values).map { ($0, $1) }))
            }
        }
    }
}
