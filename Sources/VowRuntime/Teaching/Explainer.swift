import VowSyntax
import VowValue

/// `:explain PIPELINE`: the promise chain a pipeline becomes, without running it.
///
/// One line per promise, written as its JavaScript twin (`p2 = p1.then((v1) => vow.json(v1))`),
/// what its handler really does (returns a value, throws, or returns a promise that is adopted),
/// where vow's default mode departs from JavaScript, and, for each stage that can reject, where
/// its rejection would go and what it would skip.
public enum Explainer {
    /// The explanation of `pipeline`, whose text is in `source`. `javaScriptMode` says whether
    /// the session cancels what it no longer needs (vow's default) or runs as JavaScript does;
    /// `promises` are the variables that hold promises (`let`), whose `$name` a stage waits for.
    public static func explain(
        _ pipeline: Pipeline, source: SourceText, javaScriptMode: Bool = false, registry: StageRegistry = .builtins, promises: Set<String> = [],
        defs: [String: UserStage] = [:]
    ) -> String {
        var lines: [(code: String, note: String)] = []
        var kinds: [Kind] = []
        let stages = pipeline.stages
        var twin = JavaScriptTwin(registry: registry, source: source)
        twin.lets = promises
        twin.defs = defs
        let plans = twin.plan(pipeline)
        // Whether the stage before makes a stream (as the twin writer follows it).
        var streamed = false
        for (i, (stage, plan)) in zip(stages, plans).enumerated() {
            let id = "p\(i + 1)", prev = "p\(i)"
            let kind = Kind(stage, plan, twin: twin, first: i == 0)
            kinds.append(kind)
            let reads = streamed && i > 0 ? (twin.takesStream(plan) ? StreamUse.takes : .collects) : StreamUse.none
            let js = i == 0 ? twin.firstStage(plan, input: "null", depth: 0) : twin.later(plan, upstream: prev, depth: 0, collects: reads == .collects)
            let code = "\(id) = " + js.replacing(#/\n */#, with: " ").replacingOccurrences(of: "[ ", with: "[").replacingOccurrences(of: " ]", with: "]")
                .replacingOccurrences(of: " .then(", with: ".then(").replacingOccurrences(of: " .catch(", with: ".catch(")
            let waits = twin.positional(plan).contains { twin.isPending($0) }
            let context = Context(
                kind: kind, stage: stage, plan: plan, id: id, prev: prev, source: source, javaScriptMode: javaScriptMode, reads: reads,
                waitsForArguments: waits)
            lines.append((code, describe(context, reads: reads)))
            streamed = twin.makesStream(plan) || (streamed && plan.definition?.passesStream == true)
        }
        var out = "The chain (\(stages.count) promise\(stages.count == 1 ? "" : "s")), as JavaScript:\n"
        for l in lines {
            out += "  \(l.code)\n      \(l.note)\n"
        }
        // Where each rejection goes.
        var rejecting: [String] = []
        for (i, kind) in kinds.enumerated() where kind.canReject {
            var skipped: [String] = []
            var handledBy: Int?
            for j in (i + 1)..<max(i + 1, stages.count) {
                let role = kinds[j].onRejection
                if role == .runsThenPassesOn { continue }
                if role != .skipped {
                    handledBy = j
                    break
                }
                skipped.append(source.slice(stages[j].span))
            }
            var line = "  p\(i + 1) \(source.slice(stages[i].span)) rejects → "
            if !skipped.isEmpty { line += "skips \(skipped.joined(separator: ", ")) → " }
            if let k = handledBy {
                switch kinds[k].onRejection {
                case .recovers: line += "p\(k + 1) \(kinds[k].name) handles it"
                case .reruns: line += "p\(k + 1) \(kinds[k].name) runs p1…p\(k) again (while attempts remain)"
                default: line += "p\(k + 1) \(kinds[k].name) passes the rejection on"
                }
            } else {
                line += "the statement rejects: vow prints the error with this stage underlined"
            }
            rejecting.append(line)
        }
        if !rejecting.isEmpty { out += "\nIf a stage rejects:\n" + rejecting.joined(separator: "\n") + "\n" }
        let finallies = kinds.enumerated().filter { $0.element.onRejection == .runsThenPassesOn }.map { "p\($0.offset + 1)" }
        if !finallies.isEmpty {
            out += "  (finally at \(finallies.joined(separator: ", ")) runs on both paths and passes the outcome on)\n"
        }
        // Secrets typed in the pipeline (--bearer, --auth, Authorization/Cookie headers) are masked.
        return VowError.redactingSecrets(out.hasSuffix("\n") ? String(out.dropLast()) : out)
    }

    /// How a stage after one that makes a stream reads it.
    enum StreamUse {
        /// The stage before makes no stream.
        case none
        /// The stage takes the stream as it is (`each`, `take`, `write`, `print`).
        case takes
        /// The stage gets the items as a list once the stream has ended.
        case collects
    }

    /// What one stage is, read from its plan and its JavaScript twin.
    struct Kind {
        /// The stage's name as written (`(value)` for a value, `(group)` for a group).
        let name: String
        /// The stage's arguments as written.
        let args: String
        /// The handler (of the stage itself, or of `then X`/`catch X`…): returns a promise.
        let returnsPromise: Bool
        /// The handler always throws (`reject`, `fail`).
        let throwsAlways: Bool
        /// The first stage of the pipeline.
        let first: Bool
        /// Its handler may throw.
        let handlerMayThrow: Bool
        /// What it does with a rejection that reaches it.
        let onRejection: RejectionRole
        /// It runs a handler it is given (`then X`, `catch X`, `tap X`, `finally X`) rather
        /// than doing work of its own.
        let runsAHandler: Bool
        /// It starts no rejection of its own (`resolve`, `echo`, a value), or only through its
        /// handler.
        let quiet: Bool
        /// When its promise settles, for a stage that waits (`StageDefinition.settlement`).
        let settlement: String?

        /// The stage itself may reject (stages that only pass a value on, and handlers, do not
        /// start a rejection of their own except through their handler).
        var canReject: Bool {
            if quiet { return throwsAlways || (runsAHandler && (returnsPromise || handlerMayThrow)) }
            return true
        }

        init(_ stage: StageNode, _ plan: StagePlan, twin: JavaScriptTwin, first: Bool) {
            self.first = first
            let source = twin.source
            switch stage.head {
            case .named(let n, let span):
                name = n
                args = source.slice(SourceSpan(start: span.end, end: stage.span.end)).trimmingCharacters(in: .whitespaces)
            case .value(let a):
                if case .group = a.kind { name = "(group)" } else { name = "(value)" }
                args = source.slice(stage.span)
            }
            onRejection = plan.onRejection
            // `then X` rewritten runs X as its handler; `catch X`, `tap X`… hold X as their inner stage.
            let wraps = plan.rewrittenThen != nil || plan.definition?.innerIsHandler == true
            runsAHandler = wraps
            let inner: StagePlan? = plan.rewrittenThen != nil ? plan : wraps ? plan.inner : plan
            let innerDefinition = inner?.definition
            throwsAlways = innerDefinition?.alwaysRejects == true
            handlerMayThrow = throwsAlways || (innerDefinition.map { $0.rejectsOnItsOwn } ?? (inner.map { if case .user = $0.kind { true } else { false } } ?? false))
            if case .value = plan.kind { quiet = name == "(value)" } else { quiet = wraps || plan.definition?.rejectsOnItsOwn == false }
            settlement = wraps ? nil : plan.definition?.settlement
            if wraps, plan.rewrittenThen == nil, inner == nil {
                // A group handler (`then (P)`): a pipeline, always a promise.
                returnsPromise = twin.handler(plan, depth: -1)?.isPromise ?? false
            } else if let inner {
                returnsPromise = twin.body(inner, input: "v", depth: 0).isPromise
            } else {
                returnsPromise = false
            }
        }
    }

    /// What `describe` and a stage's own explanation (`StageExplaining`) know of a stage.
    struct Context {
        /// The stage, read from its plan.
        let kind: Kind
        /// Its syntax.
        let stage: StageNode
        /// Its plan.
        let plan: StagePlan
        /// Its promise's name (`p2`) and the one before (`p1`).
        let id: String, prev: String
        /// The source text.
        let source: SourceText
        /// Whether the session runs as JavaScript does (nothing cancelled).
        let javaScriptMode: Bool
        /// How it reads a stream the stage before makes.
        let reads: StreamUse
        /// Whether an argument is a promise (a `let` variable, a job, a group) that the stage
        /// waits for before it runs.
        var waitsForArguments = false

        /// The stage as written.
        var shown: String { kind.args.isEmpty ? kind.name : "\(kind.name) \(kind.args)" }
        /// Where vow's default mode departs from JavaScript by cancelling what it no longer needs.
        var cancelNote: String {
            javaScriptMode
                ? " (JavaScript mode: nothing is cancelled, as in JavaScript)"
                : ". vow departs from JavaScript here: it cancels the promises it no longer needs (vow --js and :mode js do not)"
        }
        /// `what` returns a promise that this stage's promise adopts.
        func adoption(_ what: String) -> String {
            "\(what) returns a promise, which \(id) adopts (flattening): \(id) settles as that promise does, one turn after it settles when it is still pending, two turns after it is returned when it has already settled"
        }
        /// What `what` (a handler) does, in JavaScript's terms.
        func outcome(_ what: String, _ onWhat: String) -> String {
            if kind.throwsAlways { return "\(what) throws, so \(id) rejects with that error in the same turn" }
            if kind.returnsPromise { return adoption(what) }
            return "\(what) returns a plain value, so \(id) fulfils with it in the same turn\(onWhat)"
        }
    }

    /// What a rejection passing a stage it skips costs: a turn, as in JavaScript, where the
    /// rejection passes a `.then` without a rejection handler in a job of its own.
    static func skipCost(_ prev: String, _ id: String) -> String {
        " (the skip still takes a turn: \(id) rejects with \(prev)'s error one turn after \(prev) rejects)"
    }

    /// The note under one stage's line: what its handler does, in JavaScript's terms, and where
    /// vow's default mode departs from JavaScript.
    static func describe(_ c: Context, reads: StreamUse = .none) -> String {
        let k = c.kind, id = c.id, prev = c.prev, shown = c.shown
        let explaining = c.plan.definition as? any StageExplaining.Type
        if c.stage.arguments.contains(where: { if case .flag("stream") = $0.kind { return true } else { return false } }) {
            let start = k.first ? "\(shown) starts at once" : "when \(prev) fulfils, \(shown) starts"
            return "\(start); \(id) fulfils with a stream, not with one value: in JavaScript an async iterator (an async generator), consumed with `for await (const item of …)`. Its items are read as they are consumed: `each` handles them as they arrive, `take N` stops the source after N, any other stage gets them as a list once the stream ends (docs/streams.md)"
        }
        switch reads {
        case .takes where explaining == nil:
            return "when \(prev) fulfils with the stream, its handler (\(shown)) reads it with `for await` and returns a promise, which \(id) adopts (two extra turns): \(id) settles once the reading is done; a rejection of \(prev) skips it"
        case .collects:
            return "when \(prev) fulfils with the stream, its handler collects the items into a list with `for await` (`vow.whole`), then runs \(shown) on the list: a promise, which \(id) adopts (two extra turns) once the stream has ended; a rejection of \(prev) skips it"
        default:
            break
        }
        if let explaining, let note = explaining.explanation(c) { return note }
        let settles = k.settlement ?? "settles later"
        if k.first {
            if k.throwsAlways { return "already rejected" }
            if k.returnsPromise { return "\(shown) starts at once; \(id) \(settles)" }
            return "\(shown) runs at once; \(id) is already fulfilled with its value (rejected if it throws)"
        }
        let what = k.runsAHandler ? "its handler (\(k.args))" : "its handler (\(shown))"
        if k.returnsPromise, k.name != "(group)", !k.runsAHandler, k.settlement != nil {
            return "when \(prev) fulfils, \(c.adoption(what)); that promise \(settles)"
        }
        return "when \(prev) fulfils, " + c.outcome(what, "") + "; a rejection of \(prev) skips it" + Self.skipCost(prev, id)
    }
}

/// A stage that says itself what it does in the promise chain, for `:explain` (the control
/// stages, whose notes no generic sentence covers). `StageCapabilityTests` fails for a control
/// stage that does not conform.
protocol StageExplaining: StageDefinition {
    /// The note under the stage's line, or nil for the generic one.
    static func explanation(_ c: Explainer.Context) -> String?
}
