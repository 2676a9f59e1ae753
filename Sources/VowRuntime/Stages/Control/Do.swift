import VowPromises
import VowSyntax
import VowValue

/// `do (A) (B) … V`: a handler's body of statements: A, B… start at once on the input, in order,
/// waiting for none of them; the stage's value is the last argument's.
struct DoStage: StageDefinition {
    static let name = "do"
    /// In the JavaScript twin (docs/javascript-twin.md): statements in a handler's body.
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "do (A) (B) … V"
    static let summary = "Starts the pipelines A, B… at once on the input, waiting for none of them, and gives V: a handler whose body has several statements."
    static let help = """
        The body of a JavaScript handler with several statements, `(v) => { A(v); B(v); return V; }`:
        each argument but the last starts now, on the input, in the order written, and nothing waits
        for it (work started that nobody waits for: a chain it starts runs on by itself, and its
        rejection is unhandled). The last argument is the stage's value: a group is its pipeline's
        promise, which a chain adopts (two turns more, as a handler returning a promise), a promise
        variable is that promise, and a plain value (`null`, `"done"`, `{}`) is the value, in the same
        turn. So `then do (print 0) (resolve 4)` is `.then(() => { console.log(0); return
        Promise.resolve(4); })`, and `then do (resolve null | print inner) (print outer) null` starts
        a chain nobody returns, as an un-returned `then` inside a handler does.
        """
    static let argumentStyle = ArgumentStyle.raw
    static let examples = [
        StageExample("echo 1 | do (print started) (format \"{}!\")", "started\n1!"),
        StageExample("resolve null | then do (resolve null | print inner1 | print inner2) (print outer1) null | print outer2", "outer1\ninner1\nouter2\ninner2"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let statements = try Self.statements(call, stage: "do")
        return call.chain { input in try statements(input) }
    }

    /// The statements of `do` (and of `promise`'s executor) as a function of the input: the
    /// arguments but the last started in order, nothing waiting for them, then the last one's
    /// value or promise.
    static func statements(_ call: StageCall, stage: String) throws -> @Sendable (Value) throws -> Resolution<Value> {
        let args = call.positional
        guard let last = args.last else {
            throw VowError(.syntax, "\(stage): expected the statements to run and the value to give, e.g. \(stage) (print started) (format \"{}!\")")
        }
        let ev = Evaluator(session: call.session)
        return { input in
            for (i, a) in args.dropLast().enumerated() {
                if case .group(let p) = a.kind {
                    // Started, and left: nothing waits for it.
                    let started = call.runPipeline(p, input: input, context: ["in statement \(i + 1) of \(stage)"])
                    // Its rejection is unhandled unless something waits on it by the end of the drain.
                    call.session.track(started, what: "statement \(i + 1) of `\(stage)`", source: call.site.source, span: p.span)
                } else {
                    _ = try ev.argument(a, input: input, scope: call.scope, site: call.site)
                }
            }
            if case .group(let p) = last.kind {
                return .promise(call.runPipeline(p, input: input, context: ["in the value of \(stage)"]))
            }
            return try ev.argument(last, input: input, scope: call.scope, site: call.site)
        }
    }
}

extension DoStage: TwinWriting {
    static let twinReference: String? = "statements in a handler, `(A(v), B(v), V)`: a group a pipeline's promise, which nothing waits for unless it is the last"

    /// JavaScript's comma operator: each statement in order, the value of the last.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        twinStatements(twin.positional(plan), input: input, depth: depth, in: twin) ?? twin.missing(name)
    }

    /// The statements of `do` (and of `promise`'s executor) as one expression, or nil for none.
    static func twinStatements(_ args: [Argument], input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        guard !args.isEmpty else { return nil }
        var parts: [(code: String, isPromise: Bool)] = []
        for a in args {
            if case .group(let p) = a.kind {
                parts.append((twin.pipeline(p, input: input, depth: depth), true))
            } else {
                parts.append(twin.argument(a, input: input, depth: depth))
            }
        }
        if parts.count == 1 { return TwinCode(parts[0].code, isPromise: parts[0].isPromise) }
        return TwinCode("(" + parts.map(\.code).joined(separator: ", ") + ")", isPromise: parts.last!.isPromise)
    }
}

extension DoStage: StageExplaining {
    /// Statements, then a value.
    static func explanation(_ c: Explainer.Context) -> String? {
        "when \(c.prev) fulfils, its handler starts each statement but the last on the value, waiting for none of them, and returns the last: a group is a promise that \(c.id) adopts (two extra turns), a plain value settles \(c.id) in the same turn"
    }
}
