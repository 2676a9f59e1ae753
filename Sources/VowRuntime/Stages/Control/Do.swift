import VowPromises
import VowSyntax
import VowValue

/// `do (A) (B) … V`: a handler's body of statements: A, B… start at once on the input, in order,
/// waiting for none of them; the stage's value is the last argument's, or that of the stage the
/// words after the groups form (`do (print x) reject y`), run in the same turn.
struct DoStage: StageDefinition {
    static let name = "do"
    /// In the JavaScript twin (docs/javascript-twin.md): statements in a handler's body.
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "do (A) (B) … V | do (A) (B) … STAGE…"
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

        After the groups, words that begin with a stage's name are that stage, run on the input in
        the same turn, as `then X` runs X: its value is the stage's value, and its rejection is a
        throw. `catch do (print "logged {message}") reject again` is `.catch((e) => {
        console.log(…); throw new Error("again"); })`: the chain rejects in that turn, where a
        group `(reject again)` would be a rejected promise adopted two turns later.
        """
    static let argumentStyle = ArgumentStyle.raw
    static let examples = [
        StageExample("echo 1 | do (print started) (format \"{}!\")", "started\n1!"),
        StageExample("resolve null | then do (resolve null | print inner1 | print inner2) (print outer1) null | print outer2", "outer1\ninner1\nouter2\ninner2"),
        StageExample("reject a | catch do (print \"logged {message}\") reject again | catch format \"{message}\"", "logged a\nagain"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let statements = try Self.statements(call, stage: "do")
        return call.chain { input in try statements(input) }
    }

    /// The statements of `do` (and of `promise`'s executor) as a function of the input: the
    /// arguments but the last started in order, nothing waiting for them, then the last one's
    /// value or promise.
    static func statements(_ call: StageCall, stage: String) throws -> @Sendable (Value) throws -> Resolution<Value> {
        let all = call.positional
        guard !all.isEmpty else {
            throw VowError(.syntax, "\(stage): expected the statements to run and the value to give, e.g. \(stage) (print started) (format \"{}!\")")
        }
        let ev = Evaluator(session: call.session)
        let planner = Planner(session: call.session)
        let k = finalStageStart(all) { planner.namesStage($0) }
        let finalStage = k.map { k in
            finalStageRun(call, node: StageNode.inner(first: all[k], rest: all[(k + 1)...], end: call.node.span.end), stage: stage)
        }
        let args = k.map { all[..<$0] } ?? all[...]
        return { input in
            for (i, a) in args.dropLast(finalStage == nil ? 1 : 0).enumerated() {
                if case .group(let p) = a.kind {
                    // Started, and left: nothing waits for it.
                    let started = call.runPipeline(p, input: input, context: ["in statement \(i + 1) of \(stage)"])
                    // Its rejection is unhandled unless something waits on it by the end of the drain.
                    call.session.track(started, what: "statement \(i + 1) of `\(stage)`", source: call.site.source, span: p.span)
                } else {
                    _ = try ev.argument(a, input: input, scope: call.scope, site: call.site)
                }
            }
            if let finalStage { return try finalStage(input) }
            let last = args.last!
            if case .group(let p) = last.kind {
                return .promise(call.runPipeline(p, input: input, context: ["in the value of \(stage)"]))
            }
            return try ev.argument(last, input: input, scope: call.scope, site: call.site)
        }
    }

    /// Where the stage the last words form begins: after at least one group, at a word that
    /// names a stage (`do (print x) reject y`); nil when the last argument is the value.
    static func finalStageStart(_ args: ArgumentList, namesStage: (String) -> Bool) -> Int? {
        guard let lastGroup = args.lastIndex(where: \.isGroup) else { return nil }
        let k = lastGroup + 1
        guard k < args.count, case .word(let t) = args[k].kind, let name = t.literalText, namesStage(name) else { return nil }
        return k
    }

    /// Runs the final stage on an input as `then X` runs X: its value at once when it has one
    /// (a rejection at once is a throw), else its promise.
    private static func finalStageRun(_ call: StageCall, node: StageNode, stage: String) -> @Sendable (Value) throws -> Resolution<Value> {
        let ev = Evaluator(session: call.session)
        let pipe = Pipeline(one: node)
        let plans = Planner(session: call.session).plan(pipe)
        let site = call.site(adding: ["in the value of \(stage)"])
        let scope = call.scope
        return { input in
            let (promise, run) = ev.pipeline(pipe, plans: plans, input: input, scope: scope, site: site)
            switch run.immediate {
            case .success(let v)?: return .value(v)
            case .failure(let e)?: throw e
            case nil: return .promise(promise)
            }
        }
    }
}

extension DoStage: TwinWriting {
    static let twinReference: String? = "statements in a handler, `(A(v), B(v), V)`: a group a pipeline's promise, which nothing waits for unless it is the last"

    /// JavaScript's comma operator: each statement in order, the value of the last.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        twinStatements(twin.positional(plan), end: plan.node.span.end, input: input, depth: depth, in: twin) ?? twin.missing(name)
    }

    /// The statements of `do` (and of `promise`'s executor) as one expression, or nil for none;
    /// a final stage (`do (print x) reject y`) is its body, a throw when it rejects at once.
    static func twinStatements(_ all: ArgumentList, end: Int, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        guard !all.isEmpty else { return nil }
        let planner = Planner(registry: twin.registry, defs: twin.defs)
        let k = finalStageStart(all) { planner.namesStage($0) }
        let args = k.map { ArgumentList(all[..<$0]) } ?? all
        var parts: [(code: String, isPromise: Bool)] = []
        for a in args {
            if case .group(let p) = a.kind {
                parts.append((twin.pipeline(p, input: input, depth: depth), true))
            } else {
                parts.append(twin.argument(a, input: input, depth: depth))
            }
        }
        if let k {
            let node = StageNode.inner(first: all[k], rest: all[(k + 1)...], end: end)
            let final = twin.body(twin.plan(Pipeline(one: node))[0], input: input, depth: depth)
            parts.append((final.code, final.isPromise))
        }
        if parts.count == 1 { return TwinCode(parts[0].code, isPromise: parts[0].isPromise) }
        return TwinCode("(" + parts.map(\.code).joined(separator: ", ") + ")", isPromise: parts.last!.isPromise)
    }
}

extension DoStage: StageExplaining {
    /// Statements, then a value.
    static func explanation(_ c: Explainer.Context) -> String? {
        "when \(c.prev) fulfils, its handler starts each statement but the last on the value, waiting for none of them, and returns the last: a group is a promise that \(c.id) adopts (two extra turns), a plain value or a final stage settles \(c.id) in the same turn (a final stage that rejects at once is a throw)"
    }
}
