import VowSyntax
import VowValue

/// What a stage is in the JavaScript twin (docs/javascript-twin.md). Each stage declares its
/// own, beside its help and examples.
public enum StageTwin: Sendable {
    /// A handler that finishes at once, returning a value or throwing: `vow.NAME(input, args…)`
    /// in the twin's prelude.
    case handler(String)
    /// A handler that returns a promise, which the chain adopts: `vow.NAME(input, args…)`.
    case promise(String)
    /// A handler that finishes at once, given the stage's flags as an object after the input:
    /// `vow.NAME(input, {flag: value}, args…)`.
    case handlerTakingFlags(String)
    /// A handler that returns a promise, given the stage's flags: `vow.NAME(input, {flags},
    /// args…)`. With `streamsAtOnce`, `--stream` makes it one that finishes at once, with a
    /// stream (an async iterable).
    case promiseTakingFlags(String, streamsAtOnce: Bool)
    /// A stage that acts on the chain itself (`then`, `catch`, `finally`, `tap`, `timeout`, the
    /// combinators): the twin writer knows each by name.
    case control
    /// A stage with no stand-in in the prelude: the twin calls `vow.missing(NAME)`, which throws.
    case none
}

/// Writes the JavaScript twin of a vow program or pipeline: a complete program that `node` runs
/// as it is and that prints what `vow --js` prints, turn for turn.
public struct JavaScriptTwin {
    let registry: StageRegistry
    let source: SourceText
    /// Names bound by `let` so far (their `$name` is a promise).
    var lets: Set<String> = []
    /// Names of `def` stages so far.
    var defs: Set<String> = []
    /// Names bound to plain values (def parameters, script arguments).
    var values: Set<String> = ["args"]
    /// Background job numbers handed out so far.
    var jobs = 0

    init(registry: StageRegistry, source: SourceText) {
        self.registry = registry
        self.source = source
    }

    /// The twin of a whole program.
    public static func program(_ program: Program, registry: StageRegistry = .builtins) -> String {
        var t = JavaScriptTwin(registry: registry, source: program.source)
        var body: [String] = []
        for st in program.statements { body.append(t.statement(st)) }
        return t.wrap(body)
    }

    /// The twin of one pipeline run as a statement (`:explain --js`).
    public static func pipeline(_ p: Pipeline, source: SourceText, registry: StageRegistry = .builtins) -> String {
        var t = JavaScriptTwin(registry: registry, source: source)
        return t.wrap([t.statement(Statement(kind: .pipeline(p, background: false), span: p.span))])
    }

    /// The expression of one pipeline, without the prelude (what `:explain` shows per stage).
    static func expression(_ p: Pipeline, source: SourceText, registry: StageRegistry = .builtins) -> String {
        let t = JavaScriptTwin(registry: registry, source: source)
        return t.pipeline(p, input: "null", depth: 0)
    }

    /// One line on what a stage is in the twin, for `:help` and docs/stages.md.
    public static func reference(for stage: any StageDefinition.Type) -> String {
        func callee(_ f: String) -> String { f.contains("-") ? "vow[\"\(f)\"]" : "vow.\(f)" }
        switch stage.twin {
        case .handler(let f):
            return "a handler that finishes at once: `.then((v) => \(callee(f))(v, …))` returns a value or throws"
        case .promise(let f):
            return "a handler that returns a promise, which the chain adopts: `.then((v) => \(callee(f))(v, …))`"
        case .handlerTakingFlags(let f):
            return "a handler that finishes at once, given the flags: `.then((v) => \(callee(f))(v, {flags}, …))`; with `--stream` it returns an async iterable"
        case .promiseTakingFlags(let f, let streamsAtOnce):
            let stream = streamsAtOnce ? "; with `--stream` it finishes at once, returning an async iterable" : "; with `--stream` the promise fulfils with an async iterable"
            return "a handler that returns a promise, which the chain adopts, given the flags: `.then((v) => \(callee(f))(v, {flags}, …))`\(stream)"
        case .none:
            return "no stand-in in the twin's prelude (the twin calls `vow.missing(\"\(stage.name)\")`, which throws)"
        case .control:
            switch stage.name {
            case "then": return "`.then(X)`; `then (P)` is `.then((v) => P(v))`, a promise that is adopted"
            case "catch": return "`.catch((e) => X(record of e))`; with no handler `.catch(() => null)`"
            case "finally": return "JavaScript's `finally`, with X given the value or the error record: `.then((v) => Promise.resolve(X(v)).then(() => v), (e) => Promise.resolve(X(rec(e))).then(() => { throw e; }))`"
            case "tap": return "`.then((v) => { X(v); return v; })`, or `.then((v) => X(v).then(() => v))` when X returns a promise"
            case "timeout": return "a race against a timer: `vow.timeout(p, D)`; vow's mode also cancels p on expiry, JavaScript does not"
            case "retry": return "`vow.retry(() => upstream, N + 1, D, exp)`: the upstream runs again while it rejects"
            case "until": return "`vow.until(() => upstream, COND, every, timeout, max, exp)`: the upstream runs again, after a wait, until COND holds on its value"
            case "all": return "`Promise.all([A, B])`; a record gives `vow.keyed([\"a\", \"b\"], [A, B])` (keys set in Promise.all's own turn); vow's mode also cancels the others on the first rejection"
            case "race": return "`Promise.race([A, B])`; vow's mode also cancels the losers"
            case "any": return "`Promise.any([A, B])`; vow's mode also cancels the others once one fulfils"
            case "settle": return "`Promise.allSettled([A, B])`, with each reason as a record: `vow.settle([A, B])`"
            case "cancel": return "`vow.cancel(N)`: cancels job N when its promise is a lone delay or sim"
            case "each": return "`vow.each(v, {limit}, (x) => X(x))`: X on every element, at most `limit` at once, each result settled a turn after X's promise; on an async iterable, `for await` with the same bound"
            case "defer": return "`vow.defer(() => P)`: P is kept, and run (last first) when the main function has ended, or on SIGINT or SIGTERM before node exits"
            case "if": return "a conditional in a handler: `.then((v) => vow.condition(v, COND) ? THEN(v) : ELSE(v))` (a text COND picked from v), a group branch a promise that is adopted; a group COND `.then((v) => COND(v).then((c) => vow.holds(c) ? THEN(v) : ELSE(v)))`"
            default: return "no stand-in in the twin's prelude"
            }
        }
    }

    func wrap(_ body: [String]) -> String {
        var out = "\"use strict\";\n" + TwinJMESPath.source + "\n\n" + TwinPrelude.source
        out += "\nconst $args = process.argv.slice(2);\n"
        // `$1`, `$2`…: the script's arguments, as vow reads them.
        let numbered = Set(body.joined().matches(of: /\$([1-9][0-9]*)\b/).compactMap { Int($0.1) })
        if let highest = numbered.max() {
            out += "const [" + (1...highest).map { "$\($0)" }.joined(separator: ", ") + "] = $args;\n"
        }
        out += "let $$;\n(async () => {\n"
        for b in body { out += "  " + b.replacingOccurrences(of: "\n", with: "\n  ") + "\n" }
        out += "})().catch(vow.fail).finally(() => { vow.endQuestions(); return vow.runDeferred(); });\n"
        return out
    }

    mutating func statement(_ st: Statement) -> String {
        let text = source.slice(st.span).split(separator: "\n").first.map(String.init) ?? ""
        let comment = "// " + text
        switch st.kind {
        case .pipeline(let p, let background):
            if background {
                jobs += 1
                return "\(comment)\nvow.job(\(jobs), \(pipeline(p, input: "null", depth: 0)));"
            }
            // A stream prints item by item as its items arrive; any other value prints whole.
            return "\(comment)\nif (vow.isStream($$ = await \(pipeline(p, input: "null", depth: 0)))) await vow.drain($$); else vow.out($$);"
        case .letBinding(let name, _, let value):
            let expr = pipeline(value, input: "null", depth: 0)
            lets.insert(name)
            values.remove(name)
            return "\(comment)\nvar $\(name) = \(expr);"
        case .def(let name, let params, let body):
            defs.insert(name)
            var inner = self
            for p in params {
                inner.values.insert(p)
                inner.lets.remove(p)
            }
            let ps = (["v"] + params.map { "$" + $0 }).joined(separator: ", ")
            return "\(comment)\nvar \(defName(name)) = (\(ps)) => \(inner.pipeline(body, input: "v", depth: 1));"
        case .meta(let name, _, _):
            return "// :\(name) has no JavaScript twin"
        }
    }

    func defName(_ name: String) -> String { "stage_" + name.replacingOccurrences(of: "-", with: "_") }

    // MARK: Pipelines

    /// A promise of `p` run on `input` (a JavaScript expression).
    func pipeline(_ p: Pipeline, input: String, depth: Int) -> String {
        guard let first = p.stages.first else { return "Promise.resolve(\(input))" }
        var expr = firstStage(first, input: input, depth: depth)
        // Where a catch or finally can see the error record, the stages on the way note where a
        // rejection started (`at`) and what it skipped (`skipped`), as vow's records do; a
        // rejection passing a `.then(h, skip)` takes the same turn as one passing `.then(h)`.
        let handlerAt = p.stages.indices.filter { ["catch", "finally"].contains(p.stages[$0].name ?? "") }
        // After a stage that makes a stream, a stage that does not take one gets its items as a
        // list once it has ended (`vow.whole`), as in vow.
        var streamed = makesStream(first)
        for (i, s) in p.stages.enumerated().dropFirst() {
            let seen = handlerAt.contains { $0 > i } || handlerAt.contains(i)
            let origin = seen ? (prev: source.slice(p.stages[i - 1].span), this: source.slice(s.span)) : nil
            expr = later(s, upstream: expr, depth: depth, origin: origin, collects: streamed && !takesStream(s))
            streamed = makesStream(s) || (streamed && ["tap", "catch", "finally", "timeout", "retry"].contains(s.name ?? ""))
        }
        return expr
    }

    /// True for a stage that fulfils with a stream: a source given `--stream`.
    func makesStream(_ s: Stage) -> Bool {
        guard let name = s.name, !defs.contains(name), let def = registry.stage(named: name) else { return false }
        switch def.twin {
        case .handlerTakingFlags, .promiseTakingFlags:
            return s.arguments.contains { if case .flag("stream") = $0.kind { return true } else { return false } }
        default:
            return false
        }
    }

    /// True for a stage that takes a stream as it is: `each`, `take`, `write`, `print` with no
    /// argument.
    func takesStream(_ s: Stage) -> Bool {
        guard let name = s.name, !defs.contains(name) else { return false }
        switch registry.stage(named: name)?.name {
        case "each", "take", "write": return true
        case "print": return positional(s).isEmpty
        default: return false
        }
    }

    /// The first stage of a pipeline: `Promise.resolve(V)`, `Promise.reject(E)`, or the stage run now.
    func firstStage(_ s: Stage, input: String, depth: Int) -> String {
        if case .named(let name, _) = s.head {
            let args = positional(s)
            if name == "resolve", args.count <= 1, !args.contains(where: { isPending($0) }) {
                return "Promise.resolve(\(args.first.map { value($0, input: input, depth: depth) } ?? input))"
            }
            if name == "reject" || name == "fail", !args.contains(where: { isPending($0) }) {
                let values = ([input] + args.map { value($0, input: input, depth: depth) }).joined(separator: ", ")
                if let status = flag("status", in: s) {
                    return "vow.start(() => vow.rejectWithStatus(\(value(status, input: input, depth: depth)), \(values)))"
                }
                return "vow.start(() => vow.reject(\(values)))"
            }
            if name == "then", let inner = innerStage(s) {
                return firstStage(inner, input: input, depth: depth)
            }
        }
        let (code, isPromise) = body(s, input: input, depth: depth)
        if isPromise, !code.hasPrefix("vow.missing") { return code }
        if let n = s.name, n == "echo" || n == "print", !isPromise { return "Promise.resolve(\(code))" }
        return "vow.start(() => \(code))"
    }

    /// A stage after the first: a method on the chain.
    func later(_ s: Stage, upstream: String, depth: Int, origin: (prev: String, this: String)? = nil, collects: Bool = false) -> String {
        let v = "v\(depth + 1)"
        let skip = origin.map { ", vow.skip(\(jsString($0.prev)), \(jsString($0.this)))" } ?? ""
        let at = origin.map { ", \(jsString($0.prev))" } ?? ""
        if case .named(let name, _) = s.head, let def = registry.stage(named: name), !defs.contains(name) {
            switch def.name {
            case "catch":
                guard let h = handler(s, depth: depth) else { return "\(upstream)\n.catch(() => null)" }
                return "\(upstream)\n.catch(vow.onError(\(h.code)\(at)))"
            case "finally":
                guard let h = handler(s, depth: depth) else { return upstream }
                return "\(upstream)\n.then(...vow.finally(\(h.code)\(at)))"
            case "tap":
                guard let h = handler(s, depth: depth) else { return "\(upstream)\n.then(vow.tap((\(v)) => vow.print(\(v), {}))\(skip))" }
                return "\(upstream)\n.then(\(h.isPromise ? "vow.tapAsync" : "vow.tap")(\(h.code))\(skip))"
            case "then":
                guard let h = handler(s, depth: depth) else { return upstream }
                if collects { return "\(upstream)\n.then((\(v)) => vow.whole(\(v), \(h.code))\(skip))" }
                return "\(upstream)\n.then(\(h.code)\(skip))"
            case "timeout":
                let d = positional(s).first.map { value($0, input: "null", depth: depth) } ?? "0"
                return "vow.timeout(\(upstream), \(d))"
            case "retry":
                // Re-runs the whole upstream: the upstream becomes a function of no arguments.
                let n = positional(s).first.map { value($0, input: "null", depth: depth) } ?? "0"
                let delay = flag("delay", in: s).map { value($0, input: "null", depth: depth) } ?? "0"
                let exp = flag("backoff", in: s).map { value($0, input: "null", depth: depth) == "\"exp\"" } ?? false
                let body = upstream.replacingOccurrences(of: "\n", with: "\n  ")
                return "vow.retry(() => \(body), \(n) + 1, \(delay), \(exp))"
            case "until":
                // Polls: the upstream becomes a function of no arguments, run again until COND holds.
                let cond = positional(s).first.map { value($0, input: "null", depth: depth) } ?? "\"@\""
                let every = flag("every", in: s).map { value($0, input: "null", depth: depth) } ?? "1"
                let limit = flag("timeout", in: s).map { value($0, input: "null", depth: depth) } ?? "null"
                let max = flag("max", in: s).map { value($0, input: "null", depth: depth) } ?? "null"
                let exp = flag("backoff", in: s).map { value($0, input: "null", depth: depth) == "\"exp\"" } ?? false
                let body = upstream.replacingOccurrences(of: "\n", with: "\n  ")
                return "vow.until(() => \(body), \(cond), \(every), \(limit), \(max), \(exp))"
            default: break
            }
        }
        let (code, _) = body(s, input: v, depth: depth + 1)
        if collects { return "\(upstream)\n.then((\(v)) => vow.whole(\(v), (\(v)) => \(code))\(skip))" }
        return "\(upstream)\n.then((\(v)) => \(code)\(skip))"
    }

    /// `if COND THEN [else ELSE]` on `input`: a ternary, or, with a group COND, a promise of one.
    func conditional(_ s: Stage, input: String, depth: Int) -> (code: String, isPromise: Bool) {
        guard let parts = try? IfStage.parts(positional(s)) else { return ("vow.missing(\"if\")()", false) }
        func branch(_ a: Argument?) -> (code: String, isPromise: Bool) {
            guard let a else { return (input, false) }
            if case .group(let p) = a.kind { return (pipeline(p, input: input, depth: depth), true) }
            return argument(a, input: input, depth: depth)
        }
        let (yes, no) = (branch(parts.then), branch(parts.otherwise))
        if case .group(let p) = parts.condition.kind {
            return ("\(pipeline(p, input: input, depth: depth)).then((c) => vow.holds(c) ? \(yes.code) : \(no.code))", true)
        }
        let condition = argument(parts.condition, input: input, depth: depth).code
        // Both branches promises, or neither: a mix is still one handler's value, adopted when it is a promise.
        return ("(vow.condition(\(input), \(condition)) ? \(yes.code) : \(no.code))", yes.isPromise && no.isPromise)
    }

    /// The handler of `then X`, `catch X`, `finally X`, `tap X`: a function, and whether it
    /// returns a promise. Nil when the stage has no handler.
    func handler(_ s: Stage, depth: Int) -> (code: String, isPromise: Bool)? {
        let v = "v\(depth + 1)"
        let args = positional(s)
        guard let first = args.first else { return nil }
        if args.count == 1, case .group(let p) = first.kind {
            return ("(\(v)) => \(pipeline(p, input: v, depth: depth + 1))", true)
        }
        guard let inner = innerStage(s) else { return nil }
        let (code, isPromise) = body(inner, input: v, depth: depth + 1)
        return ("(\(v)) => \(code)", isPromise)
    }

    /// The stage that `then X…` and its kin name: X with the rest of the arguments.
    func innerStage(_ s: Stage) -> Stage? {
        let args = s.arguments
        guard let first = args.first else { return nil }
        if case .word(let t) = first.kind, let n = t.literalText {
            return Stage(head: .named(n, first.span), arguments: Array(args.dropFirst()), span: SourceSpan(start: first.span.start, end: s.span.end))
        }
        return Stage(head: .value(first), arguments: [], span: first.span)
    }

    /// What one stage does with `input`: a value expression (it finishes at once, or throws) or a
    /// promise expression.
    func body(_ s: Stage, input: String, depth: Int) -> (code: String, isPromise: Bool) {
        switch s.head {
        case .value(let a):
            return argument(a, input: input, depth: depth)
        case .named(let name, _):
            if defs.contains(name) {
                return withArguments(positional(s), input: input, depth: depth) { vals in
                    "\(defName(name))(\(([input] + vals).joined(separator: ", ")))"
                }.forcingPromise()
            }
            guard let def = registry.stage(named: name) else {
                return ("vow.missing(\(jsString(name)))()", false)
            }
            switch def.name {
            case "then", "catch", "finally", "tap":
                if def.name == "then", let inner = innerStage(s) {
                    if s.arguments.count == 1, case .group(let p) = s.arguments[0].kind {
                        return (pipeline(p, input: input, depth: depth), true)
                    }
                    return body(inner, input: input, depth: depth)
                }
                return ("vow.missing(\(jsString(name)))()", false)
            case "all", "race", "any", "settle":
                return (combinator(def.name, s, input: input, depth: depth), true)
            case "cancel":
                guard case .job(let n)? = positional(s).first?.kind else { return ("vow.missing(\"cancel\")()", false) }
                return ("vow.cancel(\(n))", false)
            case "if":
                return conditional(s, input: input, depth: depth)
            case "defer":
                guard case .group(let p)? = positional(s).first?.kind else { return ("vow.missing(\"defer\")()", false) }
                return ("vow.defer(() => \(pipeline(p, input: "null", depth: depth)))", false)
            case "each":
                let limit = flag("limit", in: s).map { value($0, input: input, depth: depth) }
                let inner = Stage(head: s.head, arguments: Self.removing(flag: "limit", from: s.arguments).filter {
                    if case .flag("progress") = $0.kind { return false } else { return true }
                }, span: s.span)
                guard let h = handler(inner, depth: depth) else { return ("vow.missing(\"each\")()", false) }
                return ("vow.each(\(input), {\(limit.map { " limit: \($0) " } ?? "")}, \(h.code))", false)
            case "sim":
                let flags = s.arguments.enumerated().compactMap { i, a -> String? in
                    guard case .flag(let f) = a.kind, i + 1 < s.arguments.count else { return nil }
                    return "\(f): \(value(s.arguments[i + 1], input: input, depth: depth))"
                }
                let key = jsString(source.slice(s.span))
                return withArguments(positional(s), input: input, depth: depth) { vals in
                    "vow.sim(\(([input, key, flags.isEmpty ? "{}" : "{ \(flags.joined(separator: ", ")) }"] + vals).joined(separator: ", ")))"
                }.forcingPromise()
            default:
                switch def.twin {
                case .handler(let f), .promise(let f):
                    let isPromise: Bool
                    if case .promise = def.twin { isPromise = true } else { isPromise = false }
                    var callee = f.contains("-") ? "vow[\(jsString(f))]" : "vow.\(f)"
                    // `reject --status N`: the one handler that reads a flag, for the script's exit status.
                    if def.name == "reject", let status = flag("status", in: s) {
                        callee = "vow.rejectWithStatus.bind(null, \(value(status, input: input, depth: depth)))"
                    }
                    let r = withArguments(positional(s), input: input, depth: depth) { vals in
                        "\(callee)(\(([input] + vals).joined(separator: ", ")))"
                    }
                    return isPromise ? r.forcingPromise() : r.pair
                case .handlerTakingFlags(let f), .promiseTakingFlags(let f, _):
                    var isPromise = false
                    if case .promiseTakingFlags(_, let streamsAtOnce) = def.twin {
                        isPromise = !(streamsAtOnce && s.arguments.contains { if case .flag("stream") = $0.kind { return true } else { return false } })
                    }
                    let flags = flagObject(s, def: def, input: input, depth: depth)
                    let r = withArguments(positional(s), input: input, depth: depth) { vals in
                        "vow.\(f)(\(([input, flags] + vals).joined(separator: ", ")))"
                    }
                    return isPromise ? r.forcingPromise() : r.pair
                case .control, .none:
                    return ("vow.missing(\(jsString(name)))()", false)
                }
            }
        }
    }

    /// `all [A, B]`, `race …`, `any …`, `settle …` on `input`.
    func combinator(_ name: String, _ s: Stage, input: String, depth: Int) -> String {
        let arg = positional(s).first
        var keys: [String]? = nil
        var elements: [String]
        switch arg?.kind {
        case .list(let ps)?:
            elements = ps.map { pipeline($0, input: input, depth: depth) }
        case .record(let fields)?:
            keys = fields.map(\.key)
            elements = fields.map { pipeline($0.value, input: input, depth: depth) }
        case nil:
            elements = []
            let list = input
            switch name {
            case "all": return "Promise.all(\(list))"
            case "race": return "Promise.race(\(list))"
            case "any": return "Promise.any(\(list))"
            default: return "vow.settle(\(list))"
            }
        default:
            let (code, _) = argument(arg!, input: input, depth: depth)
            switch name {
            case "all": return "Promise.all(\(code))"
            case "race": return "Promise.race(\(code))"
            case "any": return "Promise.any(\(code))"
            default: return "vow.settle(\(code))"
            }
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

    // MARK: Arguments

    /// The value node of `--name` in a stage, if given.
    func flag(_ name: String, in s: Stage) -> Argument? {
        for (i, a) in s.arguments.enumerated() {
            if case .flag(let f) = a.kind, f == name, i + 1 < s.arguments.count { return s.arguments[i + 1] }
        }
        return nil
    }

    /// The flags a stage declares, as a JavaScript object: a flag with a value gives its value, a
    /// choice its word, a switch `true` (`{ stream: "sse", limit: 4 }`).
    func flagObject(_ s: Stage, def: any StageDefinition.Type, input: String, depth: Int) -> String {
        var fields: [String] = []
        var i = 0
        let args = s.arguments
        while i < args.count {
            defer { i += 1 }
            guard case .flag(let f) = args[i].kind, let spec = def.flags.first(where: { $0.name == f }) else { continue }
            let next = i + 1 < args.count ? args[i + 1] : nil
            if spec.value != nil, let next {
                fields.append("\(Self.key(f)): \(value(next, input: input, depth: depth))")
                i += 1
            } else if let next, case .word(let t) = next.kind, let word = t.literalText, spec.choices.contains(word) {
                fields.append("\(Self.key(f)): \(jsString(word))")
                i += 1
            } else {
                fields.append("\(Self.key(f)): true")
            }
        }
        return fields.isEmpty ? "{}" : "{ " + fields.joined(separator: ", ") + " }"
    }

    /// A flag's name as an object key: bare when it is an identifier (`stream`), else quoted.
    static func key(_ flag: String) -> String {
        flag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !(flag.first?.isNumber ?? true) ? flag : jsString(flag)
    }

    /// `arguments` without `--flag` and the value after it.
    static func removing(flag: String, from arguments: [Argument]) -> [Argument] {
        var out: [Argument] = []
        var skip = false
        for a in arguments {
            if skip {
                skip = false
                continue
            }
            if case .flag(let f) = a.kind, f == flag {
                skip = true
                continue
            }
            out.append(a)
        }
        return out
    }

    /// The positional arguments of a stage: flags and their values left out. A flag the stage
    /// does not declare belongs to an inner stage or is refused before anything runs; the word
    /// after it (a secret, say) is left out too, never written into the twin.
    func positional(_ s: Stage) -> [Argument] {
        var out: [Argument] = []
        var skipNext = false
        var choices: [String] = []
        let spec = s.name.flatMap { registry.stage(named: $0) }
        for a in s.arguments {
            if case .flag(let f) = a.kind {
                if let declared = spec?.flags.first(where: { $0.name == f }) {
                    skipNext = declared.value != nil
                    choices = declared.choices
                } else {
                    skipNext = true
                }
                continue
            }
            defer { choices = [] }
            if case .word(let t) = a.kind, let word = t.literalText, choices.contains(word) { continue }
            if skipNext {
                skipNext = false
                continue
            }
            out.append(a)
        }
        return out
    }

    /// True when the argument is a promise in the twin (it waits before the stage runs).
    func isPending(_ a: Argument) -> Bool {
        switch a.kind {
        case .variable(let name, _): return lets.contains(name)
        case .job: return true
        case .group: return true
        case .list(let ps): return ps.contains { $0.stages.count != 1 || body($0.stages[0], input: "null", depth: 0).isPromise }
        case .record(let fs): return fs.contains { $0.value.stages.count != 1 || body($0.value.stages[0], input: "null", depth: 0).isPromise }
        case .word(let t), .string(let t):
            return t.parts.contains { if case .variable(let n, _) = $0 { return lets.contains(n) } else { return false } }
        default: return false
        }
    }

    /// A stage call whose arguments may wait: `Promise.all(args).then(args => call)` with the
    /// arguments gathered in Promise.all's turn, as vow gathers them.
    func withArguments(_ args: [Argument], input: String, depth: Int, _ call: ([String]) -> String) -> Pending {
        let evaluated = args.map { argument($0, input: input, depth: depth) }
        if !evaluated.contains(where: \.isPromise) { return Pending(code: call(evaluated.map(\.code)), isPromise: false) }
        var waits: [String] = []
        var names: [String] = []
        for (i, e) in evaluated.enumerated() {
            if e.isPromise {
                waits.append(e.code)
                names.append("a\(depth)_\(i)")
            } else {
                names.append(e.code)
            }
        }
        let pendingNames = evaluated.enumerated().filter(\.element.isPromise).map { "a\(depth)_\($0.offset)" }
        return Pending(
            code: "vow.allMap([\(waits.joined(separator: ", "))], (x) => x).then(([\(pendingNames.joined(separator: ", "))]) => \(call(names)))",
            isPromise: true)
    }

    /// An argument's expression, plain or promise.
    func value(_ a: Argument, input: String, depth: Int) -> String { argument(a, input: input, depth: depth).code }

    /// An argument's value: a plain expression, or a promise expression.
    func argument(_ a: Argument, input: String, depth: Int) -> (code: String, isPromise: Bool) {
        switch a.kind {
        case .word(let t), .string(let t): return template(t, input: input)
        case .rawString(let s): return (jsString(s), false)
        case .number(let d, let isInteger, let text): return (isInteger ? text : JSONWriter.compact(.double(d)), false)
        case .boolean(let b): return (b ? "true" : "false", false)
        case .null: return ("null", false)
        case .duration(let s, _): return (JSONWriter.compact(.double(s)), false)
        case .list(let ps):
            let parts = ps.map { element($0, input: input, depth: depth) }
            if !parts.contains(where: \.isPromise) { return ("[" + parts.map(\.code).joined(separator: ", ") + "]", false) }
            return ("Promise.all([" + parts.map { $0.isPromise ? $0.code : "Promise.resolve(\($0.code))" }.joined(separator: ", ") + "])", true)
        case .record(let fields):
            let parts = fields.map { element($0.value, input: input, depth: depth) }
            if !parts.contains(where: \.isPromise) {
                return ("{ " + zip(fields, parts).map { "\(jsString($0.key)): \($1.code)" }.joined(separator: ", ") + " }", false)
            }
            let keys = "[" + fields.map { jsString($0.key) }.joined(separator: ", ") + "]"
            return ("vow.keyed(\(keys), [" + parts.map { $0.isPromise ? $0.code : "Promise.resolve(\($0.code))" }.joined(separator: ", ") + "])", true)
        case .variable(let name, let path):
            let base = name == "_" ? input : "$" + name
            if lets.contains(name) {
                guard let path else { return (base, true) }
                return ("\(base).then((x) => vow.pick(x, \(jsString(path))))", true)
            }
            guard let path else { return (base, false) }
            return ("vow.pick(\(base), \(jsString(path)))", false)
        case .job(let n): return ("vow.jobPromise(\(n))", true)
        case .group(let p): return (pipeline(p, input: input, depth: depth), true)
        case .flag(let f): return ("vow.missing(\(jsString("--" + f)))()", false)
        }
    }

    /// A list element, record field or group argument: a value when it is one stage that
    /// finishes at once, else the pipeline's promise.
    func element(_ p: Pipeline, input: String, depth: Int) -> (code: String, isPromise: Bool) {
        if p.stages.count == 1 {
            let b = body(p.stages[0], input: input, depth: depth)
            if !b.isPromise { return b }
        }
        return (pipeline(p, input: input, depth: depth), true)
    }

    /// A template as a JavaScript template literal; one that names a `let` promise waits for it.
    func template(_ t: Template, input: String) -> (code: String, isPromise: Bool) {
        if let lit = t.literalText { return (jsString(lit), false) }
        var waits: [String] = []
        var out = "`"
        for part in t.parts {
            switch part {
            case .literal(let s):
                out += s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "`", with: "\\`").replacingOccurrences(of: "${", with: "\\${")
            case .input(let path):
                out += "${vow.text(vow.pick(\(input), \(path.map(jsString) ?? "null")))}"
            case .variable(let name, let path):
                let base = name == "_" ? input : "$" + name
                if lets.contains(name) {
                    if !waits.contains(name) { waits.append(name) }
                    out += "${vow.text(vow.pick(w.\(name), \(path.map(jsString) ?? "null")))}"
                } else {
                    out += "${vow.text(vow.pick(\(base), \(path.map(jsString) ?? "null")))}"
                }
            }
        }
        out += "`"
        if waits.isEmpty { return (out, false) }
        let ps = waits.map { "$" + $0 }.joined(separator: ", ")
        let ks = waits.map(jsString).joined(separator: ", ")
        return ("vow.allMap([\(ps)], (vs) => { const w = Object.fromEntries([\(ks)].map((k, i) => [k, vs[i]])); return \(out); })", true)
    }

    struct Pending {
        let code: String
        let isPromise: Bool
        func forcingPromise() -> (code: String, isPromise: Bool) { (code, true) }
    }
}

extension JavaScriptTwin.Pending {
    /// The pair form used by `body`.
    var pair: (code: String, isPromise: Bool) { (code, isPromise) }
}

/// A JavaScript string literal: a JSON string is one, and JSONWriter already escapes what a
/// terminal or a JavaScript parser must not see raw.
func jsString(_ s: String) -> String { JSONWriter.compact(.string(s)) }
