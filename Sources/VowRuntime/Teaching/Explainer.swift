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
    /// the session cancels what it no longer needs (vow's default) or runs as JavaScript does.
    public static func explain(_ pipeline: Pipeline, source: SourceText, javaScriptMode: Bool = false, registry: StageRegistry = .builtins) -> String {
        var lines: [(code: String, note: String)] = []
        var kinds: [Kind] = []
        let stages = pipeline.stages
        let twin = JavaScriptTwin(registry: registry, source: source)
        // Whether the stage before makes a stream (as the twin writer follows it).
        var streamed = false
        for (i, stage) in stages.enumerated() {
            let id = "p\(i + 1)", prev = "p\(i)"
            let kind = Kind(stage, twin: twin, first: i == 0)
            kinds.append(kind)
            let reads = streamed && i > 0 ? (twin.takesStream(stage) ? StreamUse.takes : .collects) : StreamUse.none
            let js = i == 0 ? twin.firstStage(stage, input: "null", depth: 0) : twin.later(stage, upstream: prev, depth: 0, collects: reads == .collects)
            let code = "\(id) = " + js.replacing(#/\n */#, with: " ").replacingOccurrences(of: "[ ", with: "[").replacingOccurrences(of: " ]", with: "]")
                .replacingOccurrences(of: " .then(", with: ".then(").replacingOccurrences(of: " .catch(", with: ".catch(")
            lines.append((code, describe(kind, stage: stage, id: id, prev: prev, source: source, javaScriptMode: javaScriptMode, reads: reads)))
            streamed = twin.makesStream(stage) || (streamed && ["tap", "catch", "finally", "timeout", "retry"].contains(stage.name ?? ""))
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
                let n = kinds[j].name
                if n == "catch" || n == "retry" || n == "timeout" {
                    handledBy = j
                    break
                }
                if n == "finally" { continue }
                skipped.append(source.slice(stages[j].span))
            }
            var line = "  p\(i + 1) \(source.slice(stages[i].span)) rejects → "
            if !skipped.isEmpty { line += "skips \(skipped.joined(separator: ", ")) → " }
            if let k = handledBy {
                switch kinds[k].name {
                case "catch": line += "p\(k + 1) catch handles it"
                case "retry": line += "p\(k + 1) retry runs p1…p\(k) again (while attempts remain)"
                default: line += "p\(k + 1) timeout passes the rejection on"
                }
            } else {
                line += "the statement rejects: vow prints the error with this stage underlined"
            }
            rejecting.append(line)
        }
        if !rejecting.isEmpty { out += "\nIf a stage rejects:\n" + rejecting.joined(separator: "\n") + "\n" }
        let finallies = kinds.enumerated().filter { $0.element.name == "finally" }.map { "p\($0.offset + 1)" }
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

    /// What one stage is, read from its JavaScript twin.
    struct Kind {
        /// The stage's name (`(value)` for a value, `(group)` for a group).
        let name: String
        /// The stage's arguments as written.
        let args: String
        /// The handler (of the stage itself, or of `then X`/`catch X`…): returns a promise.
        let returnsPromise: Bool
        /// The handler always throws (`reject`, `fail`).
        let throwsAlways: Bool
        /// The first stage of the pipeline.
        let first: Bool
        /// The stage itself may reject (stages that only pass a value on, and handlers, do not
        /// start a rejection of their own except through their handler).
        var canReject: Bool {
            if ["resolve", "echo", "print", "then", "tap", "finally", "catch", "(value)"].contains(name) {
                return throwsAlways || (["then", "tap", "finally", "catch"].contains(name) && (returnsPromise || handlerMayThrow))
            }
            return true
        }
        let handlerMayThrow: Bool

        init(_ stage: Stage, twin: JavaScriptTwin, first: Bool) {
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
            var inner: Stage? = stage
            if ["then", "catch", "finally", "tap"].contains(name) { inner = twin.innerStage(stage) }
            let innerName = inner?.name ?? ""
            throwsAlways = innerName == "reject" || innerName == "fail"
            handlerMayThrow = throwsAlways || !["resolve", "echo", "print", ""].contains(innerName)
            if let inner, stage.arguments.count == 1, case .group = stage.arguments[0].kind, inner.name == nil {
                returnsPromise = true
            } else if let inner {
                returnsPromise = twin.body(inner, input: "v", depth: 0).isPromise
            } else {
                returnsPromise = false
            }
        }
    }

    /// The note under one stage's line: what its handler does, in JavaScript's terms, and where
    /// vow's default mode departs from JavaScript.
    static func describe(_ k: Kind, stage: Stage, id: String, prev: String, source: SourceText, javaScriptMode: Bool, reads: StreamUse = .none) -> String {
        let shown = k.args.isEmpty ? k.name : "\(k.name) \(k.args)"
        let cancelNote = javaScriptMode
            ? " (JavaScript mode: nothing is cancelled, as in JavaScript)"
            : ". vow departs from JavaScript here: it cancels the promises it no longer needs (vow --js and :mode js do not)"
        func adoption(_ what: String) -> String {
            "\(what) returns a promise, which \(id) adopts: \(id) settles as that promise does, two turns after it (flattening)"
        }
        func outcome(_ what: String, _ onWhat: String) -> String {
            if k.throwsAlways { return "\(what) throws, so \(id) rejects with that error in the same turn" }
            if k.returnsPromise { return adoption(what) }
            return "\(what) returns a plain value, so \(id) fulfils with it in the same turn\(onWhat)"
        }
        if stage.arguments.contains(where: { if case .flag("stream") = $0.kind { return true } else { return false } }) {
            let start = k.first ? "\(shown) starts at once" : "when \(prev) fulfils, \(shown) starts"
            return "\(start); \(id) fulfils with a stream, not with one value: in JavaScript an async iterator (an async generator), consumed with `for await (const item of …)`. Its items are read as they are consumed: `each` handles them as they arrive, `take N` stops the source after N, any other stage gets them as a list once the stream ends (docs/streams.md)"
        }
        switch reads {
        case .takes where k.name != "each":
            return "when \(prev) fulfils with the stream, its handler (\(shown)) reads it with `for await` and returns a promise, which \(id) adopts (two extra turns): \(id) settles once the reading is done; a rejection of \(prev) skips it"
        case .collects:
            return "when \(prev) fulfils with the stream, its handler collects the items into a list with `for await` (`vow.whole`), then runs \(shown) on the list: a promise, which \(id) adopts (two extra turns) once the stream has ended; a rejection of \(prev) skips it"
        default:
            break
        }
        switch k.name {
        case "catch":
            if k.args.isEmpty { return "when \(prev) rejects, \(id) fulfils with null; a fulfilment passes through" }
            return "when an earlier promise rejects, runs \(k.args) with the error as a record: " + outcome("the handler", " (the chain recovers)") + "; a fulfilment passes through untouched"
        case "finally":
            return "runs \(k.args) on both paths, then passes \(prev)'s outcome on (JavaScript's finally: Promise.resolve(handler).then(() => outcome), adopted); if the handler rejects, that rejection passes on instead"
        case "tap":
            return "runs \(k.args) on \(prev)'s value for its effect and passes the value on" + (k.returnsPromise ? ", after the promise it returns fulfils (adopted)" : " in the same turn")
        case "timeout":
            return "races \(prev) against a \(k.args) timer; on expiry \(id) rejects with kind timeout" + (javaScriptMode ? cancelNote : "\(cancelNote): \(prev) is cancelled back to its source")
        case "retry":
            return "when \(prev) rejects, runs the stages before it again, up to \(k.args.split(separator: " ").first.map(String.init) ?? "N") more times; rejects with the last error"
        case "until":
            return "when \(prev) fulfils with a value on which its condition does not hold, waits and runs the stages before it again; \(id) fulfils with the first value on which it holds, or rejects with kind timeout when --timeout or --max is reached; a rejection of \(prev) ends it"
        case "if":
            return "when \(prev) fulfils, its handler runs one branch on the value, as the condition holds or not: a group branch is a pipeline, a promise that \(id) adopts (two extra turns); a plain branch is a value, in the same turn"
        case "exit":
            return "ends the script (process.exit) when \(prev) fulfils; no later stage or statement runs"
        case "defer":
            return "keeps its pipeline to run when the script ends (last registered first) and fulfils with the empty string at once"
        case "each":
            let note = "runs \(k.args) on every element of the list, or every item of a stream as it arrives (`for await`), at most --limit at once (16); it returns a promise of the results in order, which \(id) adopts (two extra turns); an empty list gives [] in the same turn"
            return k.first ? note : "when \(prev) fulfils, its handler \(note); a rejection of \(prev) skips it"
        case "all", "race", "any", "settle":
            let els: [String]
            switch stage.arguments.first?.kind {
            case .list(let items)?: els = items.map { source.slice($0.span) }
            case .record(let fields)?: els = fields.map { "\($0.key): " + source.slice($0.value.span) }
            default: els = []
            }
            let what = els.isEmpty ? "the promises of its input list" : "\(els.count) promises at once (\(els.joined(separator: "; ")))"
            var note: String
            switch k.name {
            case "all": note = "starts \(what); fulfils with every value in order once all fulfil; the first rejection rejects it at once" + (javaScriptMode ? cancelNote : "\(cancelNote): the others are cancelled (fail-fast)")
            case "race": note = "starts \(what); settles like the first of them to settle" + (javaScriptMode ? cancelNote : "\(cancelNote): the others are cancelled")
            case "any": note = "starts \(what); fulfils with the first to fulfil; rejects with an aggregate error only when all reject" + (javaScriptMode ? cancelNote : "\(cancelNote): the others are cancelled")
            default: note = "starts \(what); waits for all of them and never rejects: one {status, value|reason} each"
            }
            return k.first ? note : "when \(prev) fulfils, its handler \(note); the handler returns that promise, which \(id) adopts (two extra turns)"
        default:
            break
        }
        if k.first {
            if k.name == "resolve" { return "already fulfilled" }
            if k.throwsAlways { return "already rejected" }
            if k.returnsPromise { return "\(shown) starts at once; \(id) \(settlesNote(k.name))" }
            return "\(shown) runs at once; \(id) is already fulfilled with its value (rejected if it throws)"
        }
        let what = k.name == "then" ? "its handler (\(k.args))" : "its handler (\(shown))"
        if k.returnsPromise, k.name != "(group)", k.name != "then", settlesNote(k.name) != "settles later" {
            return "when \(prev) fulfils, \(adoption(what)); that promise \(settlesNote(k.name))"
        }
        return "when \(prev) fulfils, " + outcome(what, "") + "; a rejection of \(prev) skips it"
    }

    static func settlesNote(_ name: String) -> String {
        switch name {
        case "fetch", "get", "post", "put", "patch", "delete", "head":
            return "settles when the response has arrived; rejects on a network error, a 4xx/5xx status or a timeout"
        case "delay": return "fulfils when the timer fires"
        case "sim": return "settles after its simulated delay, fulfilled or (with --fail) rejected"
        case "run": return "settles when the process exits; rejects on a non-zero status"
        case "await": return "settles when the job does"
        case "all", "race", "any", "settle", "each", "iterate", "retry", "timeout", "until": return "settles when its inputs do"
        case "ask", "confirm", "choose": return "settles when the answer (a line of standard input) has arrived"
        default: return "settles later"
        }
    }
}
