import JMESPath
import VowPromises
import VowSyntax
import VowValue

/// `each STAGE… [--limit N]`: maps a list.
struct EachStage: StageDefinition, LooksAhead {
    static let name = "each"
    /// It looks at the stage after it (`LooksAhead`).
    static let looksAhead = true
    /// `each json | where EXPR`: each item's JSON is searched with EXPR as it is parsed, and an
    /// item it does not hold for is never kept (`StagePlan.filterAhead`).
    /// `each STAGE… | len`: only the count is read, so the results are not kept
    /// (`StagePlan.countedAhead`). `each json | pick EXPR` over a stream: each item's document
    /// goes into one tape of the list (`JSONLinesTape`), which `pick` searches with EXPR
    /// (`StagePlan.pickAhead`), as it searches a whole document after `json`.
    static func lookAhead(_ plan: StagePlan, next: StagePlan) {
        if case .builtin(let nextDef, let arguments) = next.kind, nextDef == LenStage.self, arguments.isEmpty,
            next.flags.isEmpty, !next.isHandler
        {
            plan.countedAhead = true
            return
        }
        // `each STAGE… | pick EXPR` where EXPR reads the list only through aggregates: the
        // results are folded into them as they come (`ListFold`), none kept. Not with `--rate`,
        // under which every item waits for its slot.
        if plan.definition != nil, plan.flags.keys.allSatisfy({ $0 == limit.name }), let text = PickAhead.folded(next) {
            // The tape ahead (below) stays for a run the fold does not serve (a traced one).
            plan.foldAhead = text
        }
        // The other two read each item's JSON ahead: `json` alone inside, and no flag but
        // `--limit` (which bounds the items that run, which an item read ahead never does;
        // `--rate` paces every item, so none is read ahead under it).
        guard plan.definition != nil, plan.flags.keys.allSatisfy({ $0 == limit.name }), let inner = plan.inner,
            case .builtin(let innerDef, let innerArgs) = inner.kind, innerDef == JsonStage.self, innerArgs.isEmpty,
            inner.flags.isEmpty
        else { return }
        // `each json | pick EXPR`: the items' documents go into one tape for EXPR to search.
        if var ahead = PickAhead(inner, next: next) {
            ahead.elementDemand = (try? JMESPathExpression.cached(ahead.expression))?.elementDemand
            plan.pickAhead = ahead
            return
        }
        guard case .builtin(let nextDef, let arguments) = next.kind, nextDef == WhereStage.self, next.flags.isEmpty,
            arguments.count == 1, !next.isHandler, let text = PickAhead.literal(arguments[0]),
            (try? JMESPathExpression.cached(text)) != nil
        else { return }
        plan.filterAhead = text
        // `each json | where EXPR | len`: the records EXPR holds for are counted, not kept.
        if next.countedAhead { plan.countedAhead = true }
        // `each json | where EXPR | pick AGG`: they are folded into AGG (`ListFold`), not kept.
        if let folded = next.foldAhead { plan.foldAhead = folded }
    }
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let settlement: String? = "settles when its inputs do"
    static func takesStream(_ positional: ArgumentList) -> Bool { true }
    static let group = StageGroup.control
    static let synopsis = "each STAGE… [--limit N] [--rate N/s]"
    static let summary = "Runs STAGE on every element of the input list, at most N at once; results in input order."
    static let help = """
        Maps the input list through STAGE (a stage with its arguments, or a (group)), with at most N
        elements in flight (default 16). Results keep the input order. The first rejection rejects
        `each` (naming the element) and cancels the elements in flight (in JavaScript mode they run
        on). On a stream, each item is
        handled as it arrives (at most N at once, the stream waiting while N are in flight) and the
        results, in order, fulfil `each` when the stream ends; a rejection stops the stream.
        With --rate (50/s, 120/m, 1000/h, 10/2s), elements start at most that often, spaced
        evenly, whatever --limit allows: no window of the period holds more starts than the
        count (`each fetch … --rate 50/s --limit 8` for an API's limit).
        """
    static let flags = [limit.spec, rate.spec, progress.spec]
    /// `--rate N/s`.
    static let rate = Flag.rate(help: "start at most N elements a second (N/s, N/m, N/h, N/DURATION), spaced evenly")
    /// `--limit N`.
    static let limit = Flag.integer("limit", help: "how many elements run at once (default 16)")
    /// `--progress`.
    static let progress = Flag.switch("progress", help: "a line on stderr (a terminal only): done/total, failures, rate, time left; automatic in a script for more than 20 elements that run over a second")
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("echo [1, 2, 3] | each (then format \"n{}\") --limit 2 | to-json", "[\"n1\",\"n2\",\"n3\"]"),
        StageExample("echo [3, 1] | each delay 10ms | to-json", "[3,1]"),
        StageExample("range 1 3 | each (format \"n{}\") --rate 100/s | to-json", "[\"n1\",\"n2\",\"n3\"]"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let ex = call.executor
        // In JavaScript mode the elements still running when one rejects run on, as the twin's do.
        let cancelsOthers = !call.session.javaScriptMode
        return call.chain { input in
            let limit = try call.integer(Self.limit, default: 16, minimum: 1, input: input)
            let schedule = try call.plain(Self.rate).map(RateSchedule.init)
            if let stream = input.stream {
                let recorded = call.recordsItems(nil)
                guard let inner = call.innerStageForStream(recorded: recorded) else { throw call.error(.type, "missing STAGE") }
                // Under a rate limit every item waits for its slot: none runs directly.
                let start = schedule.map { $0.pacing(inner.promise, on: ex) } ?? inner.promise
                let direct = schedule == nil ? inner.direct : nil
                let filter = direct == nil ? nil : call.filterAhead.map { Self.jsonFilter($0) }
                // Without the filter, `where` gets every result to filter, even before `len`.
                let keepsResults = call.keepsResults(recorded: recorded) || (call.filterAhead != nil && filter == nil)
                // `each … | pick EXPR` folded (`ListFold`): the results are not kept.
                if direct != nil, !recorded, let expression = call.foldAhead, let compiled = try? JMESPathExpression.cached(expression),
                    let fold = ListFold(compiled)
                {
                    // `each json | where EXPR | pick AGG`: the records EXPR holds for, and only they.
                    let screen = call.filterAhead
                    let holds: (@Sendable (Value) throws -> Bool)? = screen.map { e in { @Sendable v in try WhereStage.holds(v, e) } }
                    return .promise(
                        StreamEachRunner(
                            stream: stream, limit: limit, inner: start, direct: direct, ex: ex, cancelsOthers: cancelsOthers,
                            filter: screen.map { Self.jsonFilter($0) }, keepsResults: false,
                            folding: fold, for: expression, documents: screen == nil && Self.innerIsJSON(call.innerPlan),
                            screen: holds
                        ).start())
                }
                return .promise(
                    StreamEachRunner(
                        stream: stream, limit: limit, inner: start, direct: direct, ex: ex, cancelsOthers: cancelsOthers,
                        filter: filter, keepsResults: keepsResults,
                        tapeFor: direct == nil || recorded ? nil : call.pickAhead?.expression, keeping: call.pickAhead?.elementDemand
                    ).start())
            }
            guard case .list(let items) = Pick.target(input) else {
                throw call.error(.type, "expected a list, got \(input.typeName)")
            }
            let recorded = call.recordsItems(items.count)
            let inner: @Sendable (Value) -> InnerRun
            if let schedule {
                guard let given = call.innerStagePromise() else { throw call.error(.type, "missing STAGE") }
                let paced = schedule.pacing(given, on: ex)
                inner = { .promise(paced($0), nil) }
            } else {
                guard let runs = call.innerStageRuns(recorded: recorded) else { throw call.error(.type, "missing STAGE") }
                inner = runs
            }
            if items.isEmpty { return .value(.list([])) }
            let progress = EachProgress.make(total: items.count, asked: call.given(Self.progress), session: call.session)
            return .promise(
                EachRunner(
                    items: items, limit: limit, inner: inner, ex: ex, cancelsOthers: cancelsOthers, progress: progress,
                    // `each … | where … | len` over a list: `where` filters the results.
                    keepsResults: call.keepsResults(recorded: recorded) || call.filterAhead != nil
                ).start())
        }
    }
}

extension EachStage {
    /// Whether the inner stage is `json` alone, with no argument or flag: an item's text is then
    /// the document whose value `json` makes.
    static func innerIsJSON(_ inner: StagePlan?) -> Bool {
        guard let inner, case .builtin(let def, let args) = inner.kind, def == JsonStage.self, args.isEmpty, inner.flags.isEmpty
        else { return false }
        return true
    }

    /// What `each json | where EXPR` does with an item before `json` parses it: text holding a
    /// JSON object or list (as `Pick.jsonText` reads it) is read into a tape and searched with
    /// EXPR there; kept (in its tape, which the runner makes the value `json` makes when it keeps
    /// the record) when EXPR holds, dropped when it does not, so that a record dropped, counted
    /// or folded is never made into values. Anything else (a scalar, text that is not JSON, a
    /// search that fails) goes the ordinary way, so `json` and `where` say what they always said
    /// of it.
    static func jsonFilter(_ expression: String) -> @Sendable (Value) -> StreamEachRunner.Filtered {
        { item in
            let tape: JSONTape?
            switch item {
            case .string(let s): tape = objectOrListTape(s)
            case .opaque(let o as FileText): tape = objectOrListTape(String(decoding: o.bytes, as: UTF8.self))
            default: return .ordinary
            }
            guard let tape, let found = try? Pick.search(expression, in: tape, keepingTape: false) else { return .ordinary }
            return found.isTruthy ? .kept(tape) : .dropped
        }
    }

    /// The tape of `text` when its first character but white space is `{` or `[` and the whole
    /// is JSON (`Pick.jsonText`'s test); nil otherwise.
    static func objectOrListTape(_ text: String) -> JSONTape? {
        Pick.opensObjectOrList(text) ? JSONTape.read(text) : nil
    }

    /// The error of one element, saying which (`element 3 of each`) in its origin's context (the
    /// one it gets later, when it has none yet) and in its `element` field (1-based); its message
    /// is left as it was.
    static func naming(_ error: any Error, _ which: String, element: Int) -> VowError {
        var ve = toVowError(error)
        if var o = ve.origin {
            o.context.append(which)
            ve.origin = o
        } else {
            // The message stays the user's: where it happened is context, shown with the origin.
            ve.pendingContext.append(which)
        }
        if ve.details["element"] == nil { ve.details["element"] = .int(element) }
        return ve
    }
}

/// Runs `each` with a bounded number in flight. Touched only on the session executor, one job
/// at a time: its fields need no dynamic exclusivity checks (they cost a thread-local lookup per
/// access, several per element).
///
/// Sendable: its `var`s are touched only on `ex`, the session's serial executor: `start` runs in
/// the stage's handler there, every callback is a job on `ex` (`settled`, `fulfilled`), and the
/// cancel handler hops to `ex` before it reads `inFlight`. The other fields never change.
final class EachRunner: IndexedSettlementReceiver, @unchecked Sendable {
    let items: [Value]
    let limit: Int
    let inner: @Sendable (Value) -> InnerRun
    let ex: any PromiseExecutor
    /// The results so far, by element; empty when they are not kept (`keepsResults`).
    @exclusivity(unchecked) var results: [Value?]
    @exclusivity(unchecked) var next = 0
    @exclusivity(unchecked) var done = 0
    /// The promise of each element while it runs (indexed by element: no hashing per element).
    @exclusivity(unchecked) var inFlight: [Promise<Value>?]
    /// The run of each element's group while it runs, whose rejection is given the group's
    /// origin when it comes (`PipelineRun.annotate`); empty until an element has one.
    @exclusivity(unchecked) var runs: [PipelineRun?] = []
    let resolver: Resolver<Value>
    let promise: Promise<Value>
    /// Whether a rejection cancels the elements still running (vow's mode; not JavaScript's).
    let cancelsOthers: Bool

    /// The progress line, when one is drawn.
    let progress: EachProgress?
    /// False when only the count of the results is read (`StageCall.keepsResults`): each
    /// stands as null.
    let keepsResults: Bool

    init(
        items: [Value], limit: Int, inner: @escaping @Sendable (Value) -> InnerRun, ex: any PromiseExecutor, cancelsOthers: Bool,
        progress: EachProgress? = nil, keepsResults: Bool = true
    ) {
        self.keepsResults = keepsResults
        self.progress = progress
        self.cancelsOthers = cancelsOthers
        self.items = items
        self.limit = limit
        self.inner = inner
        self.ex = ex
        self.results = keepsResults ? Array(repeating: nil, count: items.count) : []
        self.inFlight = Array(repeating: nil, count: items.count)
        (promise, resolver) = Promise<Value>.pending(name: "each", on: ex)
    }

    func start() -> Promise<Value> {
        resolver.onCancel { [self] in ex.enqueue { for case let p? in self.inFlight { p.cancel() } } }
        for _ in 0..<min(limit, items.count) { launch() }
        return promise
    }

    private func launch() {
        guard next < items.count, !resolver.isSettled else { return }
        let i = next
        next += 1
        let element = inner(items[i])
        switch element {
        case .value(let v):
            // Taken in the turn the reaction to its fulfilled promise would run (`IndexedValueJob`).
            // A value comes only from work that is not recorded item by item (`innerStageRuns`):
            // the job is not reported either.
            enqueueDelivery(v, index: i, on: ex, quiet: true)
        case .promise(let p, let run):
            inFlight[i] = p
            if let run {
                if runs.isEmpty { runs = Array(repeating: nil, count: items.count) }
                runs[i] = run
            }
            p.whenSettled(on: ex, tell: self, index: i)
        }
    }

    /// Element `i` settled with `r`: its promise did, or its value was delivered.
    func settled(_ i: Int, _ r: Result<Value, any Error>) {
        switch r {
        case .success(let v): fulfilled(i, v)
        case .failure(let e):
            inFlight[i] = nil
            let run = runs.isEmpty ? nil : runs[i]
            if run != nil { runs[i] = nil }
            // A group's rejection gets the group's origin here, as `Evaluator.annotating` gives it.
            failed(i, run.map { $0.annotate(e) } ?? e)
        }
    }

    /// Element `i` fulfilled with `v`: kept, and the next element started (or `each` fulfilled).
    func fulfilled(_ i: Int, _ v: Value) {
        inFlight[i] = nil
        if !runs.isEmpty { runs[i] = nil }
        progress?.finished(ok: true)
        if keepsResults { results[i] = v }
        done += 1
        if done == items.count {
            progress?.end()
            resolver.fulfill(.list(keepsResults ? results.map { $0! } : Array(repeating: .null, count: items.count)))
        } else {
            launch()
        }
    }

    /// Element `i` rejected with `e`: `each` rejects, naming it, and the others still running
    /// are cancelled (in vow's mode).
    private func failed(_ i: Int, _ e: any Error) {
        progress?.finished(ok: false)
        progress?.end()
        if resolver.reject(EachStage.naming(e, "element \(i + 1) of each", element: i + 1)), cancelsOthers { for case let q? in inFlight { q.cancel() } }
    }
}

/// Runs `each` over a stream: items are taken as they arrive while fewer than `limit` run, and
/// the results keep the order of the items. Items are taken in batches, as many as wait in the
/// stream (one promise and one turn a batch). An item whose pipeline has a direct form
/// (`PurePipeline`: its stages are pure, nothing observes) gets its value at once and does not
/// count against `limit`; the others run the pipeline the ordinary way. Touched only on the
/// session executor.
///
/// Sendable: its `var`s are touched only on `ex`, the session's serial executor: `start` runs in
/// the stage's handler there, every callback is `whenSettled(on: ex)`, and the cancel handler only
/// cancels the stream (which locks) and hops to `ex`. The other fields never change.
final class StreamEachRunner: @unchecked Sendable {
    let stream: ValueStream
    let limit: Int
    let inner: @Sendable (Value) -> Promise<Value>
    /// An item's value without a pipeline run, or nil when it must run the ordinary way.
    let direct: (@Sendable (Value) -> Value?)?
    /// What a filter ahead (`EachStage.jsonFilter`) makes of an item.
    enum Filtered { case kept(JSONTape), dropped, ordinary }
    /// The filter ahead, when `where` follows `each json` and items run directly.
    let filter: (@Sendable (Value) -> Filtered)?
    /// False when only the count of the results is read (`StageCall.keepsResults`): only
    /// their count is kept, and handed on (`CountedResults`). With a filter (`each json |
    /// where EXPR | len`), the records it keeps are counted and the results of the items that
    /// go the ordinary way are kept, for `where` to filter.
    let keepsResults: Bool
    /// Whether the results of the items that go the ordinary way are kept.
    let keepsOrdinary: Bool
    /// How many records the filter kept and `keepsResults` did not keep.
    @exclusivity(unchecked) var keptByFilter = 0
    /// How many items the filter dropped (they have no place among the results, but an error
    /// names an item by its place in the stream).
    @exclusivity(unchecked) var droppedByFilter = 0
    /// For `each json | pick EXPR`: EXPR, and the tape the items' documents go into while
    /// every item so far held one (`JSONLinesTape`); nil once one did not (the items so far are
    /// then made values, and the rest go the ordinary way).
    let tapeExpression: String?
    @exclusivity(unchecked) var lines: JSONLinesTape?
    /// For `each … | pick EXPR` folded (`ListFold`): EXPR, and the fold every result goes into,
    /// in the items' order, as it comes (a result that comes before those of the items before it
    /// waits in `waiting`).
    let foldExpression: String?
    let fold: ListFold?
    /// Whether an item's text goes to the fold as the document `json` makes of it, read into a
    /// tape and freed (the inner stage is `json` alone).
    let foldsDocuments: Bool
    @exclusivity(unchecked) var nextToFold = 0
    /// What becomes of a result in the fold.
    enum Folded {
        case value(Value)
        /// `where`'s EXPR does not hold for it.
        case skipped
        /// `where`'s EXPR fails on it.
        case failed(any Error)
    }
    @exclusivity(unchecked) var waiting: [Int: Folded] = [:]
    /// For `each json | where EXPR | pick AGG` folded: `where`'s test (`WhereStage.holds`) of a
    /// result that went the ordinary way, and the error it gave on the first such result, in the
    /// items' order, which `where` throws (`PickedAhead.Content.folded`).
    let screen: (@Sendable (Value) throws -> Bool)?
    @exclusivity(unchecked) var screenError: (any Error)?
    let ex: any PromiseExecutor
    /// The results so far, by item (null for one still running); empty when they are not
    /// kept (`keepsResults`), when only `count` grows.
    @exclusivity(unchecked) var results: [Value] = []
    /// How many items have a place among the results: the index of the next one.
    @exclusivity(unchecked) var count = 0
    @exclusivity(unchecked) var running = 0
    @exclusivity(unchecked) var ended = false
    @exclusivity(unchecked) var taking = false
    /// Items taken from the stream and not yet started (from `queued[queuedHead]` on).
    @exclusivity(unchecked) var queued: [Value] = []
    @exclusivity(unchecked) var queuedHead = 0
    @exclusivity(unchecked) var inFlight: [Int: Promise<Value>] = [:]
    let resolver: Resolver<Value>
    let promise: Promise<Value>
    /// Whether a rejection cancels the items still running (vow's mode; not JavaScript's).
    let cancelsOthers: Bool

    init(
        stream: ValueStream, limit: Int, inner: @escaping @Sendable (Value) -> Promise<Value>, direct: (@Sendable (Value) -> Value?)? = nil,
        ex: any PromiseExecutor, cancelsOthers: Bool, filter: (@Sendable (Value) -> Filtered)? = nil, keepsResults: Bool = true,
        tapeFor expression: String? = nil, keeping demand: JMESPathDemand? = nil,
        folding fold: ListFold? = nil, for foldExpression: String? = nil, documents: Bool = false,
        screen: (@Sendable (Value) throws -> Bool)? = nil
    ) {
        self.screen = screen
        self.fold = fold
        self.foldExpression = foldExpression
        self.foldsDocuments = documents
        self.tapeExpression = expression
        self.lines = expression.map { _ in JSONLinesTape(keeping: demand) }
        self.keepsResults = keepsResults
        // A fold keeps none: what goes the ordinary way is folded as it comes too.
        self.keepsOrdinary = fold == nil && (keepsResults || filter != nil)
        self.filter = filter
        self.cancelsOthers = cancelsOthers
        self.stream = stream
        self.limit = limit
        self.inner = inner
        self.direct = direct
        self.ex = ex
        (promise, resolver) = Promise<Value>.pending(name: "each", on: ex)
    }

    func start() -> Promise<Value> {
        resolver.onCancel { [self] in
            stream.cancel()
            ex.enqueue { for p in self.inFlight.values { p.cancel() } }
        }
        take()
        return promise
    }

    /// Starts the items taken while fewer than `limit` run; once none is left, takes the next
    /// batch, unless one is being taken.
    private func take() {
        startQueued()
        guard !taking, !ended, running < limit, queuedHead == queued.count, !resolver.isSettled else { return }
        taking = true
        // Items with a direct form do not run for long: a batch as large as the stream holds.
        let most = direct == nil ? limit - running : max(limit - running, stream.capacity)
        stream.next(upTo: most, on: ex).whenSettled(on: ex) { [self] r in
            taking = false
            switch r {
            case .success(let items) where !items.isEmpty:
                queued = items
                queuedHead = 0
                take()
            case .success:
                ended = true
                finishIfDone()
            case .failure(let e):
                ended = true
                if resolver.reject(e), cancelsOthers { for p in inFlight.values { p.cancel() } }
            }
        }
    }

    /// Starts the items taken, in order, while fewer than `limit` run.
    private func startQueued() {
        while queuedHead < queued.count, running < limit, !resolver.isSettled {
            let v = queued[queuedHead]
            queuedHead += 1
            if let lines {
                if Self.append(v, to: lines) { continue }
                // This item's document is not one the tape takes: the items so far become the
                // values `json` makes of them, and this one and the rest go the ordinary way.
                // Documents kept in part (`JSONLinesTape.init(keeping:)`) stay so: the pick's expression
                // gives the same answer, element by element, whether an element is whole or not.
                let values = lines.finishValues()
                count += values.count
                if keepsResults { results.append(contentsOf: values) }
                self.lines = nil
            }
            // A document folded at once, when no result before it is still to come.
            if let fold, foldsDocuments, nextToFold == count, Self.addDocument(v, to: fold) {
                count += 1
                nextToFold += 1
                continue
            }
            if let filter {
                switch filter(v) {
                case .kept(let tape):
                    if let fold {
                        // From its tape at once, when no result before it is still to come.
                        if nextToFold == count {
                            withExtendedLifetime(tape) { fold.add(tape.root) }
                            nextToFold += 1
                        } else {
                            folded(.value(tape.value(0)), at: count)
                        }
                        count += 1
                    } else if keepsResults {
                        keep(tape.value(0))
                    } else {
                        keptByFilter += 1
                    }
                    continue
                case .dropped:
                    droppedByFilter += 1
                    continue
                case .ordinary: break
                }
            }
            if let direct, let value = direct(v) {
                keep(value)
            } else {
                launch(v)
            }
        }
        if queuedHead == queued.count, queuedHead > 0 {
            queued.removeAll(keepingCapacity: true)
            queuedHead = 0
        }
    }

    /// Gives the next item its place among the results, holding `value` when they are kept.
    private func keep(_ value: Value) {
        if keepsOrdinary { results.append(value) }
        if fold != nil { folded(screened(value), at: count) }
        count += 1
    }

    /// A result that went the ordinary way, through `where`'s test when `where` comes between.
    private func screened(_ value: Value) -> Folded {
        guard let screen else { return .value(value) }
        do { return try screen(value) ? .value(value) : .skipped } catch { return .failed(error) }
    }

    /// What becomes of the result of item `i` in the fold, in the items' order.
    private func folded(_ what: Folded, at i: Int) {
        guard fold != nil else { return }
        guard i == nextToFold else {
            waiting[i] = what
            return
        }
        apply(what)
        nextToFold += 1
        while let next = waiting.removeValue(forKey: nextToFold) {
            apply(next)
            nextToFold += 1
        }
    }

    private func apply(_ what: Folded) {
        switch what {
        case .value(let v): if screenError == nil { fold?.add(v) }
        case .skipped: break
        case .failed(let e): if screenError == nil { screenError = e }
        }
    }

    private func launch(_ v: Value) {
        let i = count
        // Its place in the stream: the items the filter counted or dropped included.
        let place = i + keptByFilter + droppedByFilter + 1
        // Its place among the results (its value when it comes).
        if keepsOrdinary { results.append(.null) }
        count += 1
        running += 1
        let p = inner(v)
        inFlight[i] = p
        p.whenSettled(on: ex) { [self] r in
            inFlight[i] = nil
            running -= 1
            switch r {
            case .success(let v):
                if keepsOrdinary { results[i] = v }
                if fold != nil { folded(screened(v), at: i) }
                take()
                finishIfDone()
            case .failure(let e):
                if resolver.reject(EachStage.naming(e, "item \(place) of the stream", element: place)) {
                    stream.cancel()
                    if cancelsOthers { for q in inFlight.values { q.cancel() } }
                }
            }
        }
    }

    private func finishIfDone() {
        guard ended && running == 0 && queuedHead == queued.count else { return }
        if let fold, let expression = foldExpression {
            // After a failure of `where`'s test the fold's answer is never read.
            let answer = screenError == nil ? Result { () throws(JMESPathError) -> Value in try fold.finish(Value.self) } : .success(.null)
            resolver.fulfill(
                .opaque(PickedAhead(expression: expression, content: .folded(answer, count: count, failedScreen: screenError), source: .null)))
            return
        }
        if let lines, let expression = tapeExpression {
            self.lines = nil
            resolver.fulfill(.opaque(PickedAhead(expression: expression, content: .tape(lines.finish()), source: .null)))
            return
        }
        if keepsResults {
            // Handed over, not copied: the list is the last thing the runner does.
            let all = results
            results = []
            resolver.fulfill(.list(all))
        } else {
            let all = results
            results = []
            resolver.fulfill(.opaque(filter == nil ? CountedResults(count: count) : CountedResults(count: keptByFilter, unfiltered: all)))
        }
    }

    /// `take` given the bytes of the JSON document an item holds (text, or a file's bytes);
    /// false when the item holds none or `take` does not take it.
    private static func document(of item: Value, _ take: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        switch item {
        case .string(var s): return s.withUTF8 { take($0) }
        case .opaque(let o as FileText): return o.bytes.withUnsafeBufferPointer { take($0) }
        default: return false
        }
    }

    /// Adds the document an item holds to the fold.
    private static func addDocument(_ item: Value, to fold: ListFold) -> Bool { document(of: item, fold.addDocument) }

    /// Adds the document an item holds to `lines`.
    private static func append(_ item: Value, to lines: JSONLinesTape) -> Bool { document(of: item, lines.append) }
}

extension EachStage: TwinWriting {
    static let twinReference: String? = "`vow.each(v, {limit}, (x) => X(x))`: X on every element, at most `limit` at once, each result settled a turn after X's promise; on an async iterable, `for await` with the same bound"

    /// `vow.each(input, {limit}, (x) => X(x))`.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        let limit = twin.flag(limit, in: plan).map { twin.value($0, input: input, depth: depth) }
        let rate = twin.flag(rate, in: plan).map { twin.value($0, input: input, depth: depth) }
        guard let h = twin.handler(plan, depth: depth) else { return twin.missing(name) }
        let flags = [limit.map { "limit: \($0)" }, rate.map { "rate: \($0)" }].compactMap { $0 }
        return TwinCode("vow.each(\(input), {\(flags.isEmpty ? "" : " " + flags.joined(separator: ", ") + " ")}, \(h.code))", isPromise: false)
    }
}

extension EachStage: StageExplaining {
    /// Every element or item, bounded, the results adopted.
    static func explanation(_ c: Explainer.Context) -> String? {
        let note = "runs \(c.kind.args) on every element of the list, or every item of a stream as it arrives (`for await`), at most --limit at once (16); it returns a promise of the results in order, which \(c.id) adopts (two extra turns); an empty list gives [] in the same turn"
        return c.kind.first ? note : "when \(c.prev) fulfils, its handler \(note); a rejection of \(c.prev) skips it" + Explainer.skipCost(c.prev, c.id)
    }
}
