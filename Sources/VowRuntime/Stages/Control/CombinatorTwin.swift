import VowSyntax

extension JavaScriptTwin {
    /// `all [A, B]`, `race …`, `any …`, `settle …` on `input`: `Promise.all` and its kin over the
    /// elements' promises (`vow.keyed` for a record, `vow.settle` for `settle`).
    func combinator(_ name: String, _ plan: StagePlan, input: String, depth: Int) -> String {
        let arg = positional(plan).first
        var keys: [String]? = nil
        var elements: [String]
        switch arg?.kind {
        case .list(let ps)?:
            elements = ps.map { pipeline($0, input: input, depth: depth) }
        case .record(let fields)?:
            keys = fields.map(\.key)
            elements = fields.map { pipeline($0.value, input: input, depth: depth) }
        case nil:
            // The input's elements: a list's, or a record's values (`vow.over`).
            return "vow.over(\(jsString(name)), \(input))"
        default:
            let (code, _) = argument(arg!, input: input, depth: depth)
            return "vow.over(\(jsString(name)), \(code))"
        }
        let list = "[\n  " + elements.map { $0.replacingOccurrences(of: "\n", with: "\n  ") }.joined(separator: ",\n  ") + "\n]"
        let keyList = keys.map { "[" + $0.map(jsString).joined(separator: ", ") + "]" }
        switch name {
        case "all": return keyList.map { "vow.keyed(\($0), \(list))" } ?? "Promise.all(\(list))"
        case "race": return "Promise.race(\(list))"
        case "any": return "Promise.any(\(list))"
        default: return "vow.settle(\(list)\(keyList.map { ", " + $0 } ?? ""))"
        }
    }
}

extension CombinatorStage {
    /// The combinator over its elements (`JavaScriptTwin.combinator`).
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        TwinCode(twin.combinator(name, plan, input: input, depth: depth), isPromise: true)
    }

    /// What it starts (`explain(starting:_:)` says how it settles), made a handler's when the
    /// stage is not first.
    static func explanation(_ c: Explainer.Context) -> String? {
        let els: [String]
        switch c.stage.arguments.first?.kind {
        case .list(let items)?: els = items.map { c.source.slice($0.span) }
        case .record(let fields)?: els = fields.map { "\($0.key): " + c.source.slice($0.value.span) }
        default: els = []
        }
        let what = els.isEmpty ? "the promises of its input list" : "\(els.count) promises at once (\(els.joined(separator: "; ")))"
        let text = explain(starting: what, c)
        return c.kind.first ? text : "when \(c.prev) fulfils, its handler \(text); the handler returns that promise, which \(c.id) adopts (two extra turns)"
    }
}
