import VowPromises
import VowSyntax
import VowValue

/// `thenable STAGE…`: a thenable that is not a promise, an object with a `then` method that
/// runs STAGE and resolves with what it gives.
struct ThenableStage: StageDefinition {
    static let name = "thenable"
    /// In the JavaScript twin (docs/javascript-twin.md): an object with a `then` method.
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "thenable STAGE…"
    static let summary = "A thenable that is no promise: an object whose then method runs STAGE on the input and resolves with what it gives, one turn after it is resolved with."
    static let help = """
        JavaScript adopts any object with a `then` method, not only promises:
        `{ then(resolve, reject) { resolve(STAGE(v)) } }`. A chain resolved with such a thenable
        calls its `then` in a turn of its own (NewPromiseResolveThenableJob), and settles as that
        `then` resolves it: a value settles it in that turn, one turn after the handler returned
        the thenable, where a returned promise settles it two turns later (adoption). `thenable
        echo 42` is `{ then(r) { r(42) } }`; `thenable do (print called) echo 42` logs as its
        `then` is called; `thenable reject no` rejects; `thenable delay 10ms 42` resolves with a
        promise, which is adopted. First in a statement it is `Promise.resolve(thenable)`. A
        thenable holds a function, so it is no vow value: it is never the value of a `let` or a
        list element, only what a chain is resolved with.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("resolve 1 | thenable echo 42", "42"),
        StageExample("resolve 1 | thenable do (print \"then called\") echo 42", "then called\n42"),
        StageExample("resolve 1 | thenable reject no | catch format \"caught {message}\"", "caught no"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let inner = call.innerStage(context: ["in a thenable's then"]) else {
            throw call.error(.type, "missing STAGE: thenable runs a stage when its then is called (e.g. thenable echo 42)")
        }
        let ex = call.executor
        // Returned by a handler (the stage after another, or first in a handler's body), the
        // thenable is what the chain is resolved with, and no promise of its own; first in a
        // statement or a group, it is `Promise.resolve(thenable)`, its then called at once.
        let returned = call.upstream != nil || call.run.isHandler
        let attributes = call.traceInfo
        return call.chain { input in
            .promise(Promise<Value>.thenable(name: "thenable", attributes: attributes, on: ex, observed: !returned, callsNow: !returned) { resolver in
                do {
                    switch try inner(input) {
                    case .value(let v): resolver.fulfill(v)
                    case .promise(let p): resolver.adopt(p)
                    }
                } catch {
                    resolver.reject(error)
                }
            })
        }
    }
}

extension ThenableStage: TwinWriting {
    static let twinReference: String? = "`vow.thenable(() => X(v))`: `{ then(resolve, reject) { resolve(X(v)) } }`, a throw rejecting"

    /// The thenable, a plain value: first in a pipeline it is started (`Promise.resolve`), as a
    /// handler's value the chain is resolved with it.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        if case .builtin(_, let positional) = plan.kind, positional.count == 1, case .group(let p) = positional[0].kind {
            return TwinCode("vow.thenable(() => \(twin.pipeline(p, input: input, depth: depth)))", isPromise: false)
        }
        guard let inner = plan.inner else { return nil }
        return TwinCode("vow.thenable(() => \(twin.body(inner, input: input, depth: depth).code))", isPromise: false)
    }
}

extension ThenableStage: StageExplaining {
    /// A thenable, not a promise: one turn to call its then.
    static func explanation(_ c: Explainer.Context) -> String? {
        "\(c.id) is resolved with a thenable (an object with a then method, not a promise): the next turn calls its then, which runs \(c.kind.args) and resolves \(c.id) with what it gives (a value at once; a promise is adopted)"
    }
}
