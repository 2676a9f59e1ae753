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
    /// Whether each stage's code begins with `/*@LINE:COLUMN*/`, where the stage is in the
    /// source: the page of a run highlights the line of the stage a turn runs.
    var marksStages = false
    /// The `def` stages of the program so far (their twins are functions).
    var defs: [String: UserStage] = [:]
    /// Names bound to plain values (def parameters, script arguments).
    var values: Set<String> = ["args"]
    /// Background job numbers handed out so far.
    var jobs = 0

    init(registry: StageRegistry, source: SourceText) {
        self.registry = registry
        self.source = source
    }

    /// The twin of a whole program. With `preludeModule`, the prelude is not written into it:
    /// the program requires it from that path (`vow --emit-js-to`, `JavaScriptTwin.preludeModule`).
    public static func program(
        _ program: Program, registry: StageRegistry = .builtins, preludeModule: String? = nil, marksStages: Bool = false
    ) -> String {
        var t = JavaScriptTwin(registry: registry, source: program.source)
        t.marksStages = marksStages
        // A def may call one defined after it, as in vow, which knows every def of a program
        // before it runs (`Planner.checking`).
        for st in program.statements {
            if case .def(let name, let params, let body, let isAsync) = st.kind {
                t.defs[name] = UserStage(name: name, params: params, body: body, source: program.source, isAsync: isAsync)
            }
        }
        var body: [String] = []
        for st in program.statements { body.append(t.statement(st)) }
        // The arguments and flags are checked before the first statement runs, as vow checks
        // them (ScriptArguments.check).
        var check = ""
        let flags = ScriptFlagStage.declared(in: program)
        let declaresArgs = ArgStage.isDeclared(in: program)
        if declaresArgs || !flags.isEmpty {
            let usage = jsString(ArgStage.usage(of: program.source, script: nil))
            let list = "[" + flags.map { "[\(jsString($0.name)), \($0.value.map(jsString) ?? "null")]" }.joined(separator: ", ") + "]"
            check = "vow.checkScript($args, \(ArgStage.required(in: program)), \(usage), \(list), \(declaresArgs));\n"
        }
        return t.wrap(body, preludeModule: preludeModule, check: check)
    }

    /// The prelude as a module of its own, for twins that require it (`program(_:preludeModule:)`):
    /// JMESPath and the prelude, exporting `vow`.
    public static var preludeModule: String {
        "\"use strict\";\n" + TwinSource.jmespath + "\n\n" + TwinSource.prelude + stageFunctions(.builtins) + "\nmodule.exports = { vow };\n"
    }

    /// The name `vow --emit-js-to` gives the prelude written beside a twin.
    public static let preludeFileName = "vow-twin-prelude.js"

    /// The twin of one pipeline run as a statement (`:explain --js`); `promises` are the
    /// variables that hold promises, `defs` the session's `def` stages, written before it.
    public static func pipeline(
        _ p: Pipeline, source: SourceText, registry: StageRegistry = .builtins, promises: Set<String> = [], defs: [String: UserStage] = [:]
    ) -> String {
        var t = JavaScriptTwin(registry: registry, source: source)
        t.lets = promises
        let definitions = t.defining(defs)
        return t.wrap(definitions + [t.statement(Statement(kind: .pipeline(p, background: false), span: p.span))])
    }


    /// The expression of one pipeline, without the prelude (what `:explain` shows per stage).
    static func expression(_ p: Pipeline, source: SourceText, registry: StageRegistry = .builtins) -> String {
        let t = JavaScriptTwin(registry: registry, source: source)
        return t.pipeline(p, input: "null", depth: 0)
    }

    /// The prelude's function `f`: `vow.f`, or `vow["f-g"]` for a name with a dash.
    static func callee(_ f: String) -> String { f.utf8.contains(UInt8(ascii: "-")) ? "vow[\(jsString(f))]" : "vow.\(f)" }

    /// One line on what a stage is in the twin, for `:help` and docs/stages.md.
    public static func reference(for stage: any StageDefinition.Type) -> String {
        if let writing = stage as? any TwinWriting.Type, let line = writing.twinReference { return line }
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
            return "no stand-in in the twin's prelude"
        }
    }

    /// The twin functions that stages write beside themselves (`StageDefinition.twinFunction`),
    /// added to the prelude's `vow`.
    static func stageFunctions(_ registry: StageRegistry) -> String {
        var out = ""
        for stage in registry.stages {
            guard let function = stage.twinFunction else { continue }
            let name: String
            switch stage.twin {
            case .handler(let f), .promise(let f), .handlerTakingFlags(let f), .promiseTakingFlags(let f, _): name = f
            case .control, .none: name = stage.name
            }
            out += "\nvow[\(jsString(name))] = \(function);"
        }
        return out.isEmpty ? "" : out + "\n"
    }

    /// `check` runs before the first statement (a script's arguments and flags).
    func wrap(_ body: [String], preludeModule: String? = nil, check: String = "") -> String {
        var out = "\"use strict\";\n"
        if let preludeModule {
            out += "const { vow } = require(\(jsString(preludeModule)));\n"
        } else {
            out += TwinSource.jmespath + "\n\n" + TwinSource.prelude + Self.stageFunctions(registry)
        }
        out += "\nconst $args = process.argv.slice(2);\n"
        // `$1`, `$2`…: the script's arguments, as vow reads them.
        if let highest = body.compactMap(TwinText.highestNumberedArgument(in:)).max() {
            out += "const [" + (1...highest).map { "$\($0)" }.joined(separator: ", ") + "] = $args;\n"
        }
        // `$env`: the environment, as vow reads it (a `let env` or `def` parameter comes first).
        if body.contains(where: { TwinText.contains($0[...], "$env") }), !lets.contains("env") {
            out += "const $env = Object.fromEntries(Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));\n"
        }
        out += check
        out += "let $$;\n(async () => {\n"
        for b in body { out += "  " + TwinText.indented(b) + "\n" }
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
            // A stage that printed its value already (`print`) ends a statement that prints no more.
            if registry.printsItsValue(p) { return "\(comment)\nawait \(pipeline(p, input: "null", depth: 0));" }
            // A stream prints item by item as its items arrive; any other value prints whole.
            // A program prints what was asked for (`ProgramPrinting`).
            switch registry.inPrograms(p) {
            case .nothing: return "\(comment)\nawait \(pipeline(p, input: "null", depth: 0));"
            case .unlessNull: return "\(comment)\nif (vow.isStream($$ = await \(pipeline(p, input: "null", depth: 0)))) await vow.drain($$); else if ($$ != null) vow.out($$);"
            case .value: return "\(comment)\nif (vow.isStream($$ = await \(pipeline(p, input: "null", depth: 0)))) await vow.drain($$); else vow.out($$);"
            }
        case .letBinding(let name, _, let value):
            let expr = pipeline(value, input: "null", depth: 0)
            lets.insert(name)
            values.remove(name)
            return "\(comment)\nvar $\(name) = \(expr);"
        case .def(let name, let params, let body, let isAsync):
            defs[name] = UserStage(name: name, params: params, body: body, source: source, isAsync: isAsync)
            var inner = self
            for p in params {
                inner.values.insert(p)
                inner.lets.remove(p)
            }
            let ps = (["v"] + params.map { "$" + $0 }).joined(separator: ", ")
            if isAsync {
                return "\(comment)\nvar \(defName(name)) = async (\(ps)) => {\n" + inner.asyncBody(name, body).map { "  " + $0 + "\n" }.joined() + "};"
            }
            return "\(comment)\nvar \(defName(name)) = (\(ps)) => \(inner.pipeline(body, input: "v", depth: 1));"
        case .meta(let name, _, _):
            return "// :\(name) has no JavaScript twin"
        }
    }


    // MARK: Pipelines

    /// The plans of a pipeline, by the same planning pass the evaluator runs: the program's
    /// `def` stages so far, the built-ins, external `vow-NAME` stages.
    func plan(_ p: Pipeline) -> [StagePlan] { Planner(registry: registry, defs: defs).plan(p) }

    /// How many links a chain may have before it is written a link a statement (`pipeline`).
    static let longChain = 500

    /// What stands for the upstream while a stage's code is written (`pipeline`): text no
    /// JavaScript the twin writes holds.
    static let upstreamMark = "\u{1}upstream\u{1}"

    /// A promise of `p` run on `input` (a JavaScript expression).
    /// `/*@LINE:COLUMN*/` of the stage `plan` when `marksStages`, else nothing.
    func mark(_ plan: StagePlan) -> String {
        guard marksStages else { return "" }
        let (line, column) = source.lineColumn(of: plan.node.span.start)
        return "/*@\(line):\(column)*/"
    }

    func pipeline(_ p: Pipeline, input: String, depth: Int) -> String {
        let plans = plan(p)
        guard let first = plans.first else { return "Promise.resolve(\(input))" }
        // The chain so far, in pieces: a stage that appends to its upstream (`.then(…)`) adds a
        // piece, and only one that wraps it (`vow.retry(() => upstream, …)`) joins them, so a long
        // pipeline is written in linear time.
        var pieces = [mark(plans[0]) + firstStage(first, input: input, depth: depth)]
        // Where a catch or finally can see the error record, the stages on the way note where a
        // rejection started (`at`) and what it skipped (`skipped`), as vow's records do; a
        // rejection passing a `.then(h, skip)` takes the same turn as one passing `.then(h)`.
        let lastHandler = plans.lastIndex { $0.isHandler }
        // After a stage that makes a stream, a stage that does not take one gets its items as a
        // list once it has ended (`vow.whole`), as in vow.
        var streamed = makesStream(first)
        for (i, plan) in plans.enumerated().dropFirst() {
            let origin = (lastHandler ?? -1) >= i ? TwinOrigin(previous: source.slice(p.stages[i - 1].span), this: source.slice(p.stages[i].span)) : nil
            let code = later(plan, upstream: Self.upstreamMark, depth: depth, origin: origin, collects: streamed && !takesStream(plan))
            if code.hasPrefix(Self.upstreamMark), !TwinText.contains(code.dropFirst(Self.upstreamMark.count), Self.upstreamMark) {
                var piece = String(code.dropFirst(Self.upstreamMark.count))
                if marksStages { piece = piece.hasPrefix("\n") ? "\n" + mark(plan) + piece.dropFirst() : mark(plan) + piece }
                pieces.append(piece)
            } else if TwinText.contains(code[...], Self.upstreamMark) {
                pieces = [code.replacingOccurrences(of: Self.upstreamMark, with: pieces.joined())]
            } else {
                // A stage that wrote its upstream some other way: written again with it whole.
                pieces = [later(plan, upstream: pieces.joined(), depth: depth, origin: origin, collects: streamed && !takesStream(plan))]
            }
            streamed = makesStream(plan) || (streamed && plan.definition?.passesStream == true)
        }
        // A long chain is written a link a statement: one expression of thousands of `.then`s
        // is deeper than node's parser goes. The promises and their turns are the same.
        if pieces.count > Self.longChain {
            return "(() => {\nlet c = \(pieces[0]);\n" + pieces.dropFirst().map { "c = c\($0);\n" }.joined() + "return c;\n})()"
        }
        return pieces.joined()
    }

    /// True for a stage that fulfils with a stream: a source given `--stream`.
    func makesStream(_ plan: StagePlan) -> Bool {
        guard let def = plan.definition, plan.flags["stream"] != nil else { return false }
        switch def.twin {
        case .handlerTakingFlags, .promiseTakingFlags: return true
        default: return false
        }
    }

    /// True for a stage that takes a stream as it is (`StageDefinition.takesStream`).
    func takesStream(_ plan: StagePlan) -> Bool {
        guard case .builtin(let def, let positional) = plan.kind else { return false }
        return def.takesStream(positional)
    }

    /// The first stage of a pipeline: `Promise.resolve(V)`, `Promise.reject(E)`, or the stage run now.
    func firstStage(_ plan: StagePlan, input: String, depth: Int) -> String {
        if let writing = plan.definition as? any TwinWriting.Type, let code = writing.twinFirst(plan, input: input, depth: depth, in: self) {
            return code
        }
        let b = body(plan, input: input, depth: depth)
        if b.isPromise, !b.code.hasPrefix("vow.missing") { return b.code }
        // An object literal is wrapped, or the arrow function would read it as its block.
        return b.code.hasPrefix("{") ? "vow.start(() => (\(b.code)))" : "vow.start(() => \(b.code))"
    }

    /// A stage after the first: a method on the chain.
    func later(_ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin? = nil, collects: Bool = false) -> String {
        if let writing = plan.definition as? any TwinWriting.Type,
            let code = writing.twinChained(plan, upstream: upstream, depth: depth, origin: origin, collects: collects, in: self)
        {
            return code
        }
        let v = "v\(depth + 1)"
        let code = body(plan, input: v, depth: depth + 1).code
        if collects { return "\(upstream)\n.then((\(v)) => vow.whole(\(v), (\(v)) => \(code))\(skip(origin)))" }
        return "\(upstream)\n.then((\(v)) => \(code)\(skip(origin)))"
    }

    /// The second argument of a `.then` that a rejection passes: `vow.skip(previous, this)`,
    /// noting what it skipped, where a later handler will see the record.
    func skip(_ origin: TwinOrigin?) -> String {
        origin.map { ", vow.skip(\(jsString($0.previous)), \(jsString($0.this)))" } ?? ""
    }

    /// The handler of `then X`, `catch X`, `finally X`, `tap X`, `each X`: a function, and
    /// whether it returns a promise. Nil when the stage has no handler.
    func handler(_ plan: StagePlan, depth: Int) -> TwinCode? {
        let v = "v\(depth + 1)"
        guard case .builtin(_, let positional) = plan.kind, let first = positional.first else { return nil }
        if positional.count == 1, case .group(let p) = first.kind {
            return TwinCode("(\(v)) => \(pipeline(p, input: v, depth: depth + 1))", isPromise: true)
        }
        guard let inner = plan.inner else { return nil }
        let b = body(inner, input: v, depth: depth + 1)
        return TwinCode("(\(v)) => \(b.code)", isPromise: b.isPromise)
    }

    /// What one stage does with `input`: a value expression (it finishes at once, or throws) or a
    /// promise expression.
    func body(_ plan: StagePlan, input: String, depth: Int) -> TwinCode {
        switch plan.kind {
        case .value(let a):
            let r = argument(a, input: input, depth: depth)
            return TwinCode(r.code, isPromise: r.isPromise)
        case .user(let user):
            return withArguments(unflagged(plan.node.arguments), input: input, depth: depth) { vals in
                "\(defName(user.name))(\(([input] + vals).joined(separator: ", ")))"
            }.asPromise
        case .refused:
            return missing(plan.name)
        case .builtin(let def, _):
            if let writing = def as? any TwinWriting.Type, let code = writing.twinBody(plan, input: input, depth: depth, in: self) {
                return code
            }
            return preludeCall(plan, input: input, depth: depth)
        }
    }

    /// A stage with no twin here: `vow.missing(NAME)()`, which throws when it runs.
    func missing(_ name: String) -> TwinCode { TwinCode("vow.missing(\(jsString(name)))()", isPromise: false) }

    /// A stage as the prelude function its `StageDefinition.twin` names, called with the input,
    /// the flags (for the stages that take them) and the positional arguments.
    func preludeCall(_ plan: StagePlan, input: String, depth: Int, callee given: String? = nil) -> TwinCode {
        guard case .builtin(let def, let positional) = plan.kind else { return missing(plan.name) }
        let flags = plan.flags
        switch def.twin {
        case .handler(let f), .promise(let f):
            let isPromise: Bool
            if case .promise = def.twin { isPromise = true } else { isPromise = false }
            let callee = given ?? Self.callee(f)
            let r = withArguments(positional, input: input, depth: depth, expressions: def.expressionArguments) { vals in
                "\(callee)(\(([input] + vals).joined(separator: ", ")))"
            }
            return isPromise ? r.asPromise : r
        case .handlerTakingFlags(let f), .promiseTakingFlags(let f, _):
            var isPromise = false
            if case .promiseTakingFlags(_, let streamsAtOnce) = def.twin {
                isPromise = !(streamsAtOnce && flags["stream"] != nil)
            }
            let object = flagObject(plan, input: input, depth: depth)
            let r = withArguments(
                positional, input: input, depth: depth, expressions: def.expressionArguments, wordsAsWritten: def.takesWordsAsWritten
            ) { vals in
                "\(Self.callee(f))(\(([input, object] + vals).joined(separator: ", ")))"
            }
            return isPromise ? r.asPromise : r
        case .control, .none:
            return missing(plan.name)
        }
    }
}

/// A JavaScript string literal: a JSON string is one, and JSONWriter already escapes what a
/// terminal or a JavaScript parser must not see raw.
func jsString(_ s: String) -> String { JSONWriter.compact(.string(s)) }
