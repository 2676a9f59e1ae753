import Foundation
import VowPromises
import VowSyntax
import VowValue
import VowHTTP

/// One vow session: its variables, user stages, jobs, executor and HTTP engine.
///
/// Every handler of a session runs on its one serial executor, so a program always prints in the
/// same order. Variables and definitions are only touched on that executor; the job table is
/// locked because the REPL reads it from the terminal thread.
public final class Session: @unchecked Sendable {
    /// The session's serial executor.
    public let executor: SerialPromiseExecutor
    /// The stages this session knows.
    public let registry: StageRegistry
    /// Where `print` writes.
    public let output: OutputSink
    /// Where diagnostics go that are not results: `--verbose` exchanges (standard error).
    public let diagnostics: OutputSink
    /// The process's environment when the session began (read once: building it is costly, and
    /// every request consults it for proxies).
    public let environment = ProcessInfo.processInfo.environment
    /// `$env`: the environment as a record, its names in order, made the first time it is read
    /// (a `let env = …` or `--var env=…` comes first). Touched on the executor only.
    var environmentRecord: Value {
        if let made = environmentMade { return made }
        let made = Value.record(Record(environment.sorted { $0.key < $1.key }.map { ($0.key, Value.string($0.value)) }))
        environmentMade = made
        return made
    }
    private var environmentMade: Value?
    /// Command-line options.
    public let options: SessionOptions
    /// Background jobs.
    public let jobs = JobTable()
    /// The session's HTTP client.
    public let http = HTTPEngine()
    /// The HTTP sessions (`--session NAME`) this session has opened.
    public let httpSessions = HTTPSessions()
    /// The HTTP cache GET requests go through (`HTTPCache.standard()`: off with
    /// `VOW_HTTP_CACHE=off`); nil for none.
    public let httpCache: HTTPCache? = HTTPCache.standard()
    /// The APIs declared by name (`api add`), which HTTP stages resolve `NAME/PATH` against.
    public let apis = APIProfiles()
    /// The identifiers the latest collection responses held, for the REPL's completion.
    public let seenIdentifiers = SeenIdentifiers()
    /// The answers `ask`, `confirm` and `choose` read from standard input, in the order asked.
    let questions = TerminalQuestions()
    /// A script on a terminal draws `each`'s progress by itself (set by the command line).
    public var autoProgress = false
    /// The clean-up `defer` registered, in order; run last first when the script ends. On the
    /// executor.
    var deferred: [@Sendable () -> Promise<Value>] = []

    /// Takes the registered clean-up, last registered first (on the executor).
    public func takeDeferred() -> [@Sendable () -> Promise<Value>] {
        defer { deferred = [] }
        return deferred.reversed()
    }
    /// JavaScript mode (`vow --js`, `:mode js`): combinators and `timeout` cancel nothing they no
    /// longer need, so every program of offline stages prints what node prints for its twin.
    /// Ctrl-C and `cancel %N` still cancel. Read and written on the executor and by the shell
    /// between statements.
    public var javaScriptMode: Bool {
        get { mode.withLock { $0 } }
        set { mode.withLock { $0 = newValue } }
    }
    private let mode = Locked(false)

    /// Set by the shell: renders a value the way results print (for `print`).
    public var renderValue: @Sendable (Value) -> String = { v in JSONWriter.compact(v) }
    /// How text from outside that `print` and `tap` write raw is shown: as it is, or, when
    /// standard output is a terminal, with its control characters made visible (`TerminalText`).
    public var showText: @Sendable (String) -> String = { $0 }

    /// What `print` and `tap` write for `v`: a string raw (`showText`), any other value as
    /// results print it (`renderValue`).
    func printed(_ v: Value) -> String { v.stringValue.map(showText) ?? renderValue(v) }

    var globals: [String: Binding] = [:]
    /// Promises once bound by `let` whose name was bound again while they were pending: they run
    /// on, as in JavaScript, and `close` cancels them with the rest.
    var unboundPending: [Promise<Value>] = []
    /// The `let` promises whose unhandled rejection is looked for (`track(let:)`).
    let trackedLets = TrackedLets()
    var simAttempts: [String: Int] = [:]

    private var statementRuns = 0

    /// A new number for a top-level statement that starts (a `Site`'s `run`). On the executor.
    func nextStatementRun() -> Int {
        statementRuns += 1
        // Attempt counts of statements long finished are of no more use.
        if simAttempts.count > 4096 { simAttempts = [:] }
        return statementRuns
    }

    /// The attempt number of a `sim` stage for this seed and stage text in this statement run
    /// (1, 2, …), so that `retry` re-runs draw the next outcome, and the same statement run again
    /// (typed again, a second `:load`) draws the same outcomes as the first time. On the executor.
    func nextSimAttempt(seed: Int, key: String, run: Int) -> Int {
        let k = "\(run)|\(seed)|\(key)"
        let n = (simAttempts[k] ?? 0) + 1
        simAttempts[k] = n
        return n
    }
    /// The `def` stages given so far, by name. On the executor.
    public internal(set) var defs: [String: UserStage] = [:] {
        // A name may now mean another stage: a plan made before is not taken again.
        didSet {
            lastOneStagePlan = nil
            lastPureStage = nil
        }
    }
    /// The plan of the one-stage pipeline planned last to run (`Evaluator.plans`), which the next
    /// one written as it is takes again (`StagePlan.again`): a long pipeline of `then (pick @)`
    /// hops plans each hop's group when it runs. Dropped when a `def` is given. On the executor.
    var lastOneStagePlan: StagePlan?
    /// The direct form (`PureStage`, nil for none) made last for a one-stage pipeline, with the
    /// plan and scope it was made for, which the next one planned alike in the same scope takes
    /// again (`PlanCache.pureStage`): a `then (pick @)` hop runs its group once, and made and
    /// freed a direct form each time. Dropped when a `def` is given. On the executor.
    var lastPureStage: (plan: StagePlan, scope: Scope, pure: PureStage?)?
    /// The plans the check of a program made for its statements (`StatementStarter.check`),
    /// which starting them takes rather than planning every stage a second time. Behind a lock:
    /// the check runs off the executor and must not queue a job there (a job of its own would
    /// show in `--turns`).
    let checkedPlans = Locked<CheckedPlans?>(nil)

    /// Makes a session.
    public init(
        registry: StageRegistry = .builtins, output: OutputSink = .standardOutput,
        diagnostics: OutputSink = .standardError, options: SessionOptions = SessionOptions()
    ) {
        self.diagnostics = diagnostics
        self.executor = SerialPromiseExecutor(label: "vow.session")
        self.registry = registry
        self.output = output
        self.options = options
        globals["args"] = .value(.list(options.arguments.map { .string($0) }))
        for (i, a) in options.arguments.enumerated() { globals["\(i + 1)"] = .value(.string(a)) }
        for (k, v) in options.variables { globals[k] = .value(v) }
    }

    /// Runs `body` on the session executor and waits for its result (from a non-executor thread).
    /// With `startsStatements`, the job is the start of a run of statements, as a record of
    /// turns shows it (`SerialPromiseExecutor.enqueueStart`).
    public func onExecutor<R: Sendable>(startsStatements: Bool = false, _ body: @escaping @Sendable () -> R) -> R {
        let box = Locked<R?>(nil)
        let sem = DispatchSemaphore(value: 0)
        let job: @Sendable () -> Void = {
            let r = body()
            box.withLock { $0 = r }
            sem.signal()
        }
        if startsStatements { executor.enqueueStart(job) } else { executor.enqueue(job) }
        sem.wait()
        return box.withLock { $0! }
    }

    /// The names of variables and their state, for `:vars` and completion: one line each, a long
    /// value shortened to `width` characters with its size. Call on the executor.
    public func variableSummaries(width: Int = 100) -> [(name: String, summary: String)] {
        func short(_ v: Value) -> String {
            let text = TerminalText.visibleLine(JSONWriter.compact(v))
            guard text.count > width else { return text }
            let size: String
            switch v {
            case .list(let l): size = " (\(l.count) items)"
            case .record(let r): size = " (\(r.count) keys)"
            case .string(let s): size = " (\(s.count) characters)"
            default: size = ""
            }
            return String(text.prefix(width)) + "…" + size
        }
        return globals.keys.sorted().map { name in
            switch globals[name]! {
            case .value(let v): return (name, short(v))
            case .promise(let p):
                switch p.result {
                case nil: return (name, "<promise pending>")
                case .success(let v)?: return (name, "<promise fulfilled> " + short(v))
                case .failure(let e)?: return (name, "<promise rejected> " + short(.string(String(describing: e))))
                }
            }
        }
    }

    /// True when `promise` is bound to a name or is a job's (`%N`); on the executor.
    func isBound(_ promise: Promise<Value>) -> Bool {
        globals.values.contains { if case .promise(let p) = $0 { return p === promise } else { return false } }
            || jobs.all.contains { $0.promise === promise }
    }

    /// Binds `name` to a `let` statement's promise (on the executor).
    /// Binds `name` to a plain value (`reduce --as`), replacing what it held. On the executor.
    func setValue(_ name: String, _ value: Value) {
        globals[name] = .value(value)
    }

    func bind(_ name: String, _ promise: Promise<Value>) {
        if case .promise(let old)? = globals[name], old.isPending {
            unboundPending.removeAll { !$0.isPending }
            unboundPending.append(old)
        }
        globals[name] = .promise(promise)
    }

    /// Ends the session's work: cancels every `let`-bound promise (even one whose name was bound
    /// again) and every job still pending (their timers are cleared, requests aborted, processes
    /// killed), waits up to `settle` for the handlers that the cancellation set off to run, and
    /// shuts the HTTP engine down. For a host that runs many sessions in one process; call it from
    /// outside the executor.
    public func close(settle: DispatchTimeInterval = .seconds(1)) {
        onExecutor { [self] in
            for case .promise(let p) in globals.values where p.isPending { p.cancel(reason: "cancelled: session closed") }
            for p in unboundPending where p.isPending { p.cancel(reason: "cancelled: session closed") }
            unboundPending = []
            for job in jobs.all where job.promise.isPending { job.promise.cancel(reason: "cancelled: session closed") }
        }
        _ = executor.waitUntilIdle(timeout: settle)
        http.shutdown()
    }

    /// The names of user-defined stages.
    public var userStageNames: [String] { defs.keys.sorted() }
    /// The names of global variables.
    public var variableNames: [String] { globals.keys.sorted() }

    /// The value of the variable `name` when it has one now: a plain value, or what its promise
    /// fulfilled with; nil while pending, after a rejection, or for no such variable. On the
    /// executor.
    public func settledValue(of name: String) -> Value? {
        switch globals[name] {
        case .value(let v)?: return v
        case .promise(let p)?:
            if case .success(let v)? = p.result { return v }
            return nil
        case nil: return nil
        }
    }

    /// The names of the variables that hold promises (bound by `let`). On the executor.
    public var promiseVariableNames: Set<String> {
        Set(globals.compactMap { if case .promise = $0.value { return $0.key } else { return nil } })
    }
}
