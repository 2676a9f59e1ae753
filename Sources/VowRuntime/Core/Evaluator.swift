import JMESPath
import VowHTTP
import VowPromises
import VowSyntax
import VowValue

/// The stages of one pipeline run and their promises: what error provenance is read from.
final class PipelineRun: @unchecked Sendable {
    struct Entry {
        let name: String
        let span: SourceSpan
        let promise: Promise<Value>
        /// A rejection that reaches it is not reported as having skipped it: a handler
        /// (`StageDefinition.handlesRejections`) or a stage that acts on it (`seesRejections`).
        let seesRejections: Bool
    }
    let site: Site
    let input: Value
    var entries: [Entry] = []
    /// The outcome of the first stage when it finished at once (a handler that returned a value
    /// or threw, in JavaScript's terms), nil when it returned a promise. A one-stage pipeline
    /// that finished at once is a plain value where it is used as a handler: no adoption, no turn.
    var immediate: Result<Value, any Error>?

    init(site: Site, input: Value) {
        self.site = site
        self.input = input
    }

    /// The error as a `VowError`, its origin found when missing: the stage that started the final
    /// streak of rejections before `index`.
    func annotate(_ error: any Error, before index: Int? = nil) -> VowError {
        var e = toVowError(error)
        if e.origin != nil { return e }
        let limit = min(index ?? entries.count, entries.count)
        guard limit > 0 else { return e }
        var j = limit - 1
        while j > 0, let prev = entries[j - 1].promise.result, case .failure(let pe) = prev,
            let cur = entries[j].promise.result, case .failure(let ce) = cur,
            String(describing: pe) == String(describing: ce)
        {
            j -= 1
        }
        let stageInput: Value? = j == 0 ? (input.isNull ? nil : input) : (try? entries[j - 1].promise.result?.get())
        e.origin = origin(for: j, input: stageInput)
        e.origin?.context += e.pendingContext
        e.pendingContext = []
        return e
    }

    func origin(for j: Int, input: Value?) -> VowError.Origin {
        let stmt = site.source.slice(site.statement)
        let span = entries[j].span
        let (line, _) = site.source.lineColumn(of: site.statement.start)
        return VowError.Origin(
            stage: entries[j].name, statement: stmt,
            range: (span.start - site.statement.start)..<(span.end - site.statement.start),
            sourceName: site.source.name, line: line, input: input, context: site.context)
    }

    /// The stages after the origin that the rejection skipped (handlers, and the stages that act
    /// on a rejection, ran: they are not listed).
    func skipped(after error: VowError, before limit: Int? = nil) -> [String] {
        guard let origin = error.origin else { return [] }
        let end = min(limit ?? entries.count, entries.count)
        let stmtStart = site.statement.start
        guard let j = entries.firstIndex(where: { $0.span.start - stmtStart == origin.range.lowerBound && origin.context == site.context })
        else {
            // Born deeper (inside a def or a sub-pipeline): find the top-level stage that contains it.
            let at = origin.range.lowerBound + stmtStart
            guard let k = entries.firstIndex(where: { $0.span.start <= at && at < max($0.span.end, $0.span.start + 1) }) else {
                return []
            }
            guard k + 1 < end else { return [] }
            return entries[(k + 1)..<end].filter { !$0.seesRejections }.map { site.source.slice($0.span) }
        }
        guard j + 1 < end else { return [] }
        return entries[(j + 1)..<end].filter { !$0.seesRejections }.map { site.source.slice($0.span) }
    }
}

/// Converts any error that reaches the runtime into a `VowError` of the right kind.
public func toVowError(_ error: any Error) -> VowError {
    switch error {
    case let e as VowError: return e
    case let e as PromiseCancelledError: return VowError(.cancelled, e.reason)
    case let e as PromiseTimeoutError: return VowError(.timeout, e.description)
    case let e as AggregateError:
        let inner = e.errors.map { toVowError($0) }
        var d = Record()
        d["errors"] = .list(inner.map { .record($0.record) })
        let msg = inner.isEmpty ? "all promises rejected (there were none)"
            : "all \(inner.count) promises rejected: " + inner.map(\.message).joined(separator: "; ")
        return VowError(.aggregate, msg, details: d)
    case is PromiseCycleError: return VowError(.type, String(describing: error))
    case let e as JSONError: return VowError(.json, e.description)
    case let e as JMESPathError:
        var d = Record()
        d["reason"] = .string(e.kind.rawValue)
        return VowError(.pick, e.message, details: d)
    default: return VowError(.user, String(describing: error))
    }
}

/// Turns syntax trees into promise chains on the session's executor.
///
/// Call it on the session executor only.
struct Evaluator: Sendable {
    let session: Session

    /// Builds a pipeline: the first stage runs now on `input`, each `|` is a `then`. `plans`,
    /// when given, are the pipeline's stages already resolved (`plan(_:)`), as a stage that runs
    /// the same pipeline on many inputs (`each`, a handler) keeps them.
    ///
    /// With `nullEnds` (the step of `iterate`), a null between two stages skips the rest, as
    /// `?.` does in JavaScript: the pipeline rejects with `Evaluator.nothingToWorkOn`.
    func pipeline(
        _ p: Pipeline, plans: [StagePlan]? = nil, nullEnds: Bool = false, input: Value, scope: Scope, site: Site
    ) -> (promise: Promise<Value>, run: PipelineRun) {
        let run = PipelineRun(site: site, input: input)
        let promise = stages(p.stages[...], plans: plans, nullEnds: nullEnds, input: input, scope: scope, site: site, run: run)
        return (promise, run)
    }

    private func stages(
        _ stages: ArraySlice<Stage>, plans: [StagePlan]?, nullEnds: Bool = false, input: Value, scope: Scope, site: Site, run: PipelineRun
    ) -> Promise<Value> {
        let plans = plans ?? Planner(session: session).plan(stages)
        var current: Promise<Value>? = nil
        for (offset, node) in stages.enumerated() {
            let i = run.entries.count
            let plan = plans[offset]
            let priorRange = stages.startIndex..<(stages.startIndex + offset)
            // Only a stage that re-runs its upstream (`retry`, `until`) gets a closure for it.
            let rerun: (@Sendable () -> Promise<Value>)? = offset == 0 || plan.definition?.rerunsUpstream != true ? nil : { @Sendable [stages] in
                let again = PipelineRun(site: site, input: input)
                return self.stages(stages[priorRange], plans: nil, input: input, scope: scope, site: site, run: again)
            }
            if nullEnds, offset > 0, let before = current {
                let text = site.source.slice(node.span)
                current = before.then(on: session.executor) { v in
                    if v.isNull { throw Self.nothingToWorkOn(text) }
                    return v
                }
            }
            let (name, promise) = execute(
                plan, upstream: current, input: input, rerun: rerun, scope: scope, site: site, run: run, index: i)
            let sees = plan.onRejection.seesRejection
            run.entries.append(.init(name: name, span: node.span, promise: promise, seesRejections: sees))
            current = promise
        }
        return current ?? Promise.resolve(input, on: session.executor)
    }

    /// The rejection of a pipeline run with `nullEnds` whose stage `stage` got null.
    static func nothingToWorkOn(_ stage: String) -> VowError {
        var d = Record()
        d["nothingToWorkOn"] = .bool(true)
        return VowError(.type, "nothing to work on: the value before '\(stage)' is null", details: d)
    }

    /// True for the rejection `nothingToWorkOn` makes.
    static func isNothingToWorkOn(_ error: any Error) -> Bool {
        toVowError(error).details["nothingToWorkOn"] == .bool(true)
    }

    /// Every stage of `p` planned (`Planner`), for running `p` many times.
    func plans(_ p: Pipeline) -> [StagePlan] { Planner(session: session).plan(p) }

    /// Applies one resolved stage to the upstream promise.
    private func execute(
        _ plan: StagePlan, upstream: Promise<Value>?, input: Value, rerun: (@Sendable () -> Promise<Value>)?,
        scope: Scope, site: Site, run: PipelineRun, index: Int
    ) -> (String, Promise<Value>) {
        let ex = session.executor
        let name = plan.name
        // A stage that cannot start rejects the pipeline here; what runs upstream of it is
        // no longer wanted, and would otherwise go on with no one to see or stop it.
        func cannotStart(_ error: any Error) -> Promise<Value> {
            upstream?.abandon(reason: "cancelled: the stage after it could not start")
            if upstream == nil { run.immediate = .failure(error) }
            return Promise.reject(error, name: name, on: ex)
        }
        let promise: Promise<Value>
        switch plan.kind {
        case .value(let arg):
            let name = site.source.slice(arg.span)
            let body: @Sendable (Value) throws -> Resolution<Value> = { v in
                try self.argument(arg, input: v, scope: scope, site: site)
            }
            if let upstream {
                return (name, upstream.then(name: name, on: ex, resolving: body))
            }
            do {
                switch try body(input) {
                case .value(let v):
                    run.immediate = .success(v)
                    return (name, Promise.resolve(v, name: name, on: ex))
                case .promise(let p): return (name, p)
                }
            } catch {
                run.immediate = .failure(error)
                return (name, Promise.reject(error, name: name, on: ex))
            }
        case .user(let user):
            promise = applyUser(user, node: plan.node, upstream: upstream, input: input, scope: scope, site: site, run: run, index: index)
        case .builtin(let def, let positional, let flags):
            let call = StageCall(
                session: session, name: name, node: plan.node, positional: positional, flagNodes: flags,
                upstream: upstream, pipelineInput: input, rerunUpstream: rerun, scope: scope, site: site, run: run, index: index)
            call.labelsAdoptedPromise = plan.rewrittenThen != nil
            call.pickAhead = plan.pickAhead
            call.feedsJSON = plan.feedsJSON
            call.innerPlan = plan.inner
            do {
                promise = try def.init().apply(call)
            } catch {
                promise = cannotStart(error)
            }
        case .refused(let problem):
            promise = cannotStart(problem.error)
        }
        if let span = plan.rewrittenThen, PromiseObservation.isActive {
            let (line, col) = site.source.lineColumn(of: span.start)
            PromiseObservation.label(promise, StageTraceInfo(stage: "then", text: site.source.slice(span), line: line, column: col))
        }
        return (plan.reportedName, promise)
    }

    /// How deep `def` stages may nest (a def whose body calls itself, directly or through
    /// another): past it the stage rejects with kind `recursion` instead of exhausting the stack
    /// or memory; a def nesting itself in one turn stops sooner, when the thread's stack runs low
    /// (`StackRoom`).
    static let maxDefDepth = 1000

    /// Calls a `def` stage: arguments bound to its parameters, its body run on the input.
    private func applyUser(
        _ user: UserStage, node: Stage, upstream: Promise<Value>?, input: Value, scope: Scope, site: Site,
        run: PipelineRun, index: Int
    ) -> Promise<Value> {
        let call = StageCall(
            session: session, name: user.name, node: node, positional: node.arguments, flagNodes: [:],
            upstream: upstream, pipelineInput: input, rerunUpstream: nil, scope: scope, site: site, run: run, index: index)
        return call.chain { input, ctx in
            let resolved = try ctx.evaluateArguments(call, input: input)
            let start: @Sendable (StageArguments) throws -> Resolution<Value> = { args in
                guard args.count == user.params.count else {
                    throw VowError(.type, "\(user.name) takes \(user.params.count) argument(s) (\(user.params.map { "$" + $0 }.joined(separator: ", "))), got \(args.count)")
                }
                var locals: [String: Binding] = [:]
                for (p, v) in zip(user.params, args.positional) { locals[p] = .value(v) }
                let inner = Scope(session: self.session, locals: locals, parent: nil)
                guard site.depth < Self.maxDefDepth, StackRoom.enough() else {
                    throw VowError(
                        .recursion,
                        "stage \(user.name) (def) is nested \(site.depth) deep, past what vow allows: a def that calls itself (or one that calls it back) never stops",
                        details: ["stage": .string(user.name), "limit": .int(Self.maxDefDepth)])
                }
                // A def calling itself (or back) is named in the context once, not once a level.
                let entry = "in stage \(user.name) (def)"
                let context = site.context.contains(entry) ? site.context : site.context + [entry]
                let innerSite = Site(source: user.source, statement: user.body.span, context: context, depth: site.depth + 1)
                let (p, innerRun) = self.pipeline(user.body, input: input, scope: inner, site: innerSite)
                return .promise(Self.annotating(p, innerRun))
            }
            switch resolved {
            case .value(let a): return try start(a)
            case .promise(let p): return .promise(p.then(on: self.session.executor, resolving: start))
            }
        }
    }

    // MARK: Arguments

    /// Evaluates an argument that must be a value now (a duration, a count, a word for a
    /// process): a pipeline argument is cancelled at once and the stage rejects with `problem`.
    func plainArgument(_ a: Argument, input: Value, scope: Scope, site: Site, problem: @autoclosure () -> String) throws -> Value {
        switch try argument(a, input: input, scope: scope, site: site) {
        case .value(let v): return v
        case .promise(let p):
            p.abandon(reason: "cancelled: not a plain value")
            throw VowError(.type, problem())
        }
    }

    /// Evaluates one argument against `input`: a value now, or a promise of one.
    func argument(_ a: Argument, input: Value, scope: Scope, site: Site) throws -> Resolution<Value> {
        switch a.kind {
        case .word(let t), .string(let t):
            return try template(t, input: input, scope: scope)
        case .rawString(let s): return .value(.string(s))
        case .number(let d, let isInteger, let text):
            if isInteger, let i = Int(text) { return .value(.int(i)) }
            return .value(.double(d))
        case .boolean(let b): return .value(.bool(b))
        case .null: return .value(.null)
        case .duration(let s, _): return .value(.double(s))
        case .list(let elements):
            var values: [Value] = []
            var promises: [Promise<Value>] = []
            var allValues = true
            for (i, e) in elements.enumerated() {
                let elementSite = Site(source: site.source, statement: site.statement, context: site.context + ["element \(i + 1) of a list"], depth: site.depth)
                let r = try sync(e, input: input, scope: scope, site: elementSite)
                switch r {
                case .value(let v):
                    values.append(v)
                    promises.append(Promise.resolve(v, on: session.executor))
                case .promise(let p):
                    allValues = false
                    promises.append(p)
                }
            }
            if allValues { return .value(.list(values)) }
            return .promise(Promise.all(promises, on: session.executor, cancelsOthers: !session.javaScriptMode).relay { $0.map(Value.list) })
        case .record(let fields):
            var rec = Record()
            var pairs: [(key: String, value: Promise<Value>)] = []
            var allValues = true
            for f in fields {
                let fieldSite = Site(source: site.source, statement: site.statement, context: site.context + ["field \(f.key) of a record"], depth: site.depth)
                switch try sync(f.value, input: input, scope: scope, site: fieldSite) {
                case .value(let v):
                    rec[f.key] = v
                    pairs.append((f.key, Promise.resolve(v, on: session.executor)))
                case .promise(let p):
                    allValues = false
                    pairs.append((f.key, p))
                }
            }
            if allValues { return .value(.record(rec)) }
            let keys = pairs.map(\.key)
            return .promise(Promise.all(pairs.map(\.value), on: session.executor, cancelsOthers: !session.javaScriptMode).relay { r in
                r.map { values in Value.record(Record(zip(keys, values).map { ($0, $1) })) }
            })
        case .variable(let name, let path):
            if name == "_" { return .value(try pick(input, path)) }
            guard let b = scope.lookup(name) else {
                let hint = closest(to: name, among: Array(session.globals.keys)).map { " (did you mean $\($0)?)" } ?? ""
                throw VowError(.type, "unknown variable $\(name)\(hint)")
            }
            switch b {
            case .value(let v): return .value(try pick(v, path))
            case .promise(let p):
                // `let` holds its promise against cancellation, so chaining on it directly is safe.
                guard let path else { return .promise(p) }
                return .promise(p.then(on: session.executor) { v in try self.pick(v, path) })
            }
        case .job(let n):
            guard let job = session.jobs.job(n) else { throw VowError(.type, "no job %\(n)") }
            return .promise(job.promise)
        case .group(let p):
            // A group is a pipeline, and a pipeline is a promise, even one that finishes at once:
            // `| (resolve 1)` adopts it, as `.then(() => Promise.resolve(1))` does.
            let (promise, run) = pipeline(p, input: input, scope: scope, site: site)
            return .promise(Self.annotating(promise, run))
        case .flag(let f):
            throw VowError(.syntax, "unexpected flag --\(f) here")
        }
    }

    /// A sub-pipeline run on `input`: a value when it finished at once (one plain stage), else its promise.
    func sync(_ p: Pipeline, input: Value, scope: Scope, site: Site) throws -> Resolution<Value> {
        let (promise, run) = pipeline(p, input: input, scope: scope, site: site)
        if p.stages.count == 1, let now = run.immediate {
            switch now {
            case .success(let v): return .value(v)
            case .failure(let e): throw run.annotate(e)
            }
        }
        return .promise(Self.annotating(promise, run))
    }

    /// `promise`, whose rejection is given its origin within `run` in the same instant (no turn).
    static func annotating(_ promise: Promise<Value>, _ run: PipelineRun) -> Promise<Value> {
        // Already fulfilled: there is nothing to annotate, and the relay would settle in this
        // same instant, so the promise itself serves.
        if case .success? = promise.result { return promise }
        return promise.relay { r in
            if case .failure(let e) = r { return .failure(run.annotate(e)) }
            return r
        }
    }

    /// Interpolates a template: `{}`, `{PATH}`, `$name.PATH`, `${name.PATH}`.
    func template(_ t: Template, input: Value, scope: Scope) throws -> Resolution<Value> {
        if let lit = t.literalText { return .value(.string(lit)) }
        // Variables bound to pending promises make the whole template wait for them.
        var waits: [String: Promise<Value>]? = nil
        for part in t.parts {
            if case .variable(let name, _) = part, name != "_", case .promise(let p)? = scope.lookup(name) {
                if case .success = p.result {} else { waits = (waits ?? [:]).merging([name: p]) { $1 } }
            }
        }
        guard let waits else { return .value(try render(t, input: input, scope: scope, settled: [:])) }
        let names = Array(waits.keys)
        return .promise(Promise.all(names.map { waits[$0]! }, on: session.executor, cancelsOthers: false).relay { r in
            Result { try self.render(t, input: input, scope: scope, settled: Dictionary(uniqueKeysWithValues: zip(names, try r.get()))) }
        })
    }

    /// The text of a template whose variables are all settled (`settled` holds those that were
    /// pending when it was evaluated).
    private func render(_ t: Template, input: Value, scope: Scope, settled: [String: Value]) throws -> Value {
        var out = ""
        for part in t.parts {
            switch part {
            case .literal(let s): out += s
            case .input(let path): out += Self.interpolationText(try pick(input, path))
            case .variable(let name, let path):
                let v: Value
                if name == "_" {
                    v = input
                } else if let s = settled[name] {
                    v = s
                } else {
                    switch scope.lookup(name) {
                    case .value(let x)?: v = x
                    case .promise(let p)?: v = (try? p.result?.get()) ?? .null
                    case nil: throw VowError(.type, "unknown variable $\(name)")
                    }
                }
                out += Self.interpolationText(try pick(v, path))
            }
        }
        return .string(out)
    }

    /// How a value reads inside a string: text raw, everything else as compact JSON.
    static func interpolationText(_ v: Value) -> String {
        switch v {
        case .string(let s): return s
        case .int(let i): return String(i)  // what the JSON writer writes, without its buffer
        default: return JSONWriter.compact(v)
        }
    }

    /// `value.PATH` by JMESPath; a response is searched through its parsed body.
    func pick(_ v: Value, _ path: String?) throws -> Value {
        guard let path, !path.isEmpty else { return v }
        return try Pick.search(path, in: v)
    }
}

/// JMESPath searches on values, with responses read through their body.
public enum Pick {
    /// Searches `value` (a response's parsed body) with the compiled, cached expression.
    public static func search(_ expression: String, in value: Value) throws -> Value {
        let expr: JMESPathExpression
        do { expr = try JMESPathExpression.cached(expression) } catch { throw pickError(error, expression) }
        let searched = try body(value)
        do { return try expr.search(searched) } catch { throw pickError(error, expression) }
    }

    /// What `pick` searches: a response's JSON body, else the value itself. A response whose body
    /// is not JSON (an HTML page, an empty body) rejects with kind `json`, naming its content type
    /// and showing the start of the body, rather than giving null.
    public static func body(_ v: Value) throws -> Value {
        guard case .response(let r) = v else { return v }
        do {
            return try JSON.parse(r.body)
        } catch {
            let type = r.header("Content-Type") ?? "none"
            let start: String
            if r.body.isEmpty {
                start = "the body is empty"
            } else if let text = String(validating: r.body.prefix(200), as: UTF8.self) ?? String(validating: r.body.prefix(197), as: UTF8.self) {
                let line = text.split(whereSeparator: \.isNewline).prefix(3).joined(separator: " ")
                start = "it starts: " + String(line.prefix(120)) + (r.body.count > 120 ? "…" : "")
            } else {
                start = "it is \(r.body.count) bytes of binary data"
            }
            var d = Record()
            d["contentType"] = .string(type)
            d["status"] = .int(r.status)
            d["url"] = .string(redactURL(r.url))
            throw VowError(.json, "pick: the body is not JSON (Content-Type: \(type)); \(start) — \(r.method) \(redactURL(r.url))", details: d)
        }
    }

    /// What `each`, `keys` and `values` read: a response's JSON body (or its text), else the value.
    public static func target(_ v: Value) -> Value {
        if case .response(let r) = v {
            if let parsed = try? JSON.parse(r.body) { return parsed }
            return .string(String(decoding: r.body, as: UTF8.self))
        }
        return v
    }

    static func pickError(_ e: JMESPathError, _ expression: String) -> VowError {
        var d = Record()
        d["reason"] = .string(e.kind.rawValue)
        d["expression"] = .string(expression)
        var msg = "\(e.kind.rawValue): \(e.message) in '\(expression)'"
        if let off = e.offset {
            d["offset"] = .int(off)
            let prefix = String(expression.prefix(off))
            msg += "\n    \(expression)\n    \(String(repeating: " ", count: prefix.count))^"
        }
        return VowError(.pick, msg, details: d)
    }
}
