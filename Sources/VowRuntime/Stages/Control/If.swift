import VowPromises
import VowSyntax
import VowValue

/// `if COND THEN [else ELSE]`: one branch, chosen by COND on the input.
struct IfStage: StageDefinition {
    static let name = "if"
    /// In the JavaScript twin (docs/javascript-twin.md): a conditional in a handler.
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "if COND THEN [else ELSE]"
    static let summary = "Runs THEN (or ELSE) on the input, as COND holds on it or not; with no else, passes the input on."
    static let help = """
        COND is a JMESPath expression evaluated on the input (as `pick` would: `ok`,
        "status == 'done'", '@ > `10`'), or a group `( … )`, a pipeline run on the input whose value
        decides. It holds when its value is truthy: anything but false, null, an empty string, an
        empty list and an empty record (JMESPath's truthiness). THEN and ELSE are groups, pipelines
        run on the input (`(echo yes)`, `(fetch $api/retry | json)`), or plain values; only the
        branch chosen runs, and its value continues the chain. With no `else`, an input for which
        COND does not hold passes on unchanged. In the twin it is
        `.then((v) => holds(COND, v) ? THEN(v) : ELSE(v))`: a branch that is a group is a pipeline,
        a promise the chain adopts, as a `then` handler returning a promise.
        """
    static let argumentStyle = ArgumentStyle.raw
    /// COND, when it is written as text, is JMESPath: the planning pass checks it before
    /// anything runs.
    static let expressionArguments = 1
    static let examples = [
        StageExample("echo {ok: false} | if ok (echo yes) else (echo no)", "no"),
        StageExample("echo 12 | if '@ > `10`' (format \"big {}\") | then format \"{}!\"", "big 12!"),
        StageExample("echo 3 | if '@ > `10`' (format \"big {}\")", "3"),
        StageExample("echo [1, 2] | if (len | format \"{}\" | pick '@ == `\"2\"`') two else other", "two"),
    ]

    /// The parts of `if COND THEN [else ELSE]`.
    struct Parts {
        let condition: Argument
        let then: Argument
        let otherwise: Argument?
    }

    /// The parts of a call's arguments, or the syntax error that says how to write them.
    static func parts(_ args: ArgumentList) throws -> Parts {
        let usage = "if COND THEN [else ELSE], e.g. if ok (echo yes) else (echo no)"
        guard args.count == 2 || args.count == 4 else {
            throw VowError.ofStage(.syntax, "expected \(usage); got \(args.count) argument\(args.count == 1 ? "" : "s")")
        }
        if args.count == 4 {
            guard case .word(let t) = args[2].kind, t.literalText == "else" else {
                throw VowError.ofStage(.syntax, "the third argument must be the word else: \(usage)")
            }
        }
        return Parts(condition: args[0], then: args[1], otherwise: args.count == 4 ? args[3] : nil)
    }

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let parts = try call.namingErrors { try Self.parts(call.positional) }
        let ex = call.executor
        let ev = Evaluator(session: call.session)
        /// The branch `a` run on `input`: a group is a pipeline (a promise), any other argument its value.
        @Sendable func run(_ a: Argument, _ input: Value, _ which: String) throws -> Resolution<Value> {
            if case .group(let p) = a.kind { return .promise(call.runPipeline(p, input: input, context: ["in the \(which) branch of if"])) }
            return try ev.argument(a, input: input, scope: call.scope, site: call.site)
        }
        return call.chain { input in
            let decide: @Sendable (Value) throws -> Resolution<Value> = { value in
                if value.isTruthy { return try run(parts.then, input, "then") }
                guard let otherwise = parts.otherwise else { return .value(input) }
                return try run(otherwise, input, "else")
            }
            if case .group(let p) = parts.condition.kind {
                let held = call.runPipeline(p, input: input, context: ["in the condition of if"])
                return .promise(held.then(on: ex, resolving: decide))
            }
            // A word or a string is read as the expression it is, never as a template; vow's
            // variables it names are bound in it.
            if let text = parts.condition.expressionText {
                switch try ev.expression(text, scope: call.scope) {
                case .value(let bound): return try decide(try Pick.search(bound.stringValue ?? text, in: input))
                case .promise(let p):
                    return .promise(p.then(on: ex, resolving: { bound in try decide(try Pick.search(bound.stringValue ?? text, in: input)) }))
                }
            }
            let expression = try ev.plainArgument(
                parts.condition, input: input, scope: call.scope, site: call.site, problem: "if: COND must be an expression or a group")
            guard case .string(let text) = expression else {
                return try decide(expression)  // a literal: true, false, null, a number
            }
            return try decide(try Pick.search(text, in: input))
        }
    }
}

extension IfStage: TwinWriting {
    static let twinReference: String? = "a conditional in a handler: `.then((v) => vow.condition(v, COND) ? THEN(v) : ELSE(v))` (a text COND picked from v), a group branch a promise that is adopted; a group COND `.then((v) => COND(v).then((c) => vow.holds(c) ? THEN(v) : ELSE(v)))`"

    /// A ternary on `input`, or, with a group COND, a promise of one.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        guard let parts = try? IfStage.parts(twin.positional(plan)) else { return twin.missing(name) }
        func branch(_ a: Argument?) -> (code: String, isPromise: Bool) {
            guard let a else { return (input, false) }
            if case .group(let p) = a.kind { return (twin.pipeline(p, input: input, depth: depth), true) }
            return twin.argument(a, input: input, depth: depth)
        }
        let (yes, no) = (branch(parts.then), branch(parts.otherwise))
        if case .group(let p) = parts.condition.kind {
            return TwinCode("\(twin.pipeline(p, input: input, depth: depth)).then((c) => vow.holds(c) ? \(yes.code) : \(no.code))", isPromise: true)
        }
        let condition = parts.condition.expressionText.map { twin.expression($0) } ?? twin.argument(parts.condition, input: input, depth: depth)
        if condition.isPromise {
            return TwinCode("\(condition.code).then((c) => (vow.condition(\(input), c) ? \(yes.code) : \(no.code)))", isPromise: true)
        }
        // Both branches promises, or neither: a mix is still one handler's value, adopted when it is a promise.
        return TwinCode("(vow.condition(\(input), \(condition.code)) ? \(yes.code) : \(no.code))", isPromise: yes.isPromise && no.isPromise)
    }
}

extension IfStage: StageExplaining {
    /// One branch, as the condition holds or not.
    static func explanation(_ c: Explainer.Context) -> String? {
        "when \(c.prev) fulfils, its handler runs one branch on the value, as the condition holds or not: a group branch is a pipeline, a promise that \(c.id) adopts (two extra turns); a plain branch is a value, in the same turn"
    }
}
