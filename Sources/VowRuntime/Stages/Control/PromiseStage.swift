import VowPromises
import VowSyntax
import VowValue

/// `promise (A) … V`: JavaScript's `new Promise((resolve) => { A; resolve(V); })`, its executor
/// run at once.
struct PromiseStage: StageDefinition {
    static let name = "promise"
    /// In the JavaScript twin (docs/javascript-twin.md): `new Promise` with an executor.
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "promise (A) … V"
    static let summary = "A new promise whose executor runs now: starts A… on the input, then resolves the promise with V (a promise V is adopted, two turns more)."
    static let help = """
        JavaScript's `new Promise((resolve) => { A(v); …; resolve(V); })`: the executor runs at
        once, when the stage does; it starts each argument but the last, waiting for none of them
        (as `do` does), and resolves the new promise with the last: a plain value fulfils it now; a
        promise (a group, a promise variable) is adopted, so the new promise settles two turns
        after it, where `$p` alone (as `Promise.resolve(p)` returns p itself) takes none. The
        puzzle `new Promise((r) => r(p))` against `Promise.resolve(p)` is `promise $p` against `$p`.
        The new promise is always a promise: after a `|`, the chain adopts it.
        """
    static let argumentStyle = ArgumentStyle.raw
    static let examples = [
        StageExample("promise (print executor) 5 | format \"got {}\"", "executor\ngot 5"),
        StageExample("let p = resolve 1\npromise $p | print new &\n$p | print same &\nresolve null | print t1 | print t2 | print t3 &", "same\nt1\nt2\nnew\nt3"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let statements = try DoStage.statements(call, stage: "promise")
        let ex = call.executor
        return call.chain { input in
            switch try statements(input) {
            case .value(let v): return .promise(Promise.resolve(v, on: ex))
            case .promise(let p):
                let (made, resolver) = Promise<Value>.pending(name: "promise", on: ex)
                resolver.adopt(p)
                return .promise(made)
            }
        }
    }
}

extension PromiseStage: TwinWriting {
    static let twinReference: String? = "`new Promise((resolve) => resolve((A(v), …, V)))`: the executor runs at once; a promise V is adopted"

    /// `new Promise((resolve) => resolve(…))`.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        guard let body = DoStage.twinStatements(twin.positional(plan), end: plan.node.span.end, input: input, depth: depth, in: twin) else { return twin.missing(name) }
        return TwinCode("new Promise((resolve) => resolve(\(body.code)))", isPromise: true)
    }
}

extension PromiseStage: StageExplaining {
    /// A new promise, resolved by its executor.
    static func explanation(_ c: Explainer.Context) -> String? {
        "a new promise whose executor runs at once: it starts the statements and resolves \(c.id) with the last, fulfilling it now with a plain value, or adopting a promise (two turns after it settles)"
    }
}
