import Dispatch
import Foundation
import Synchronization
import VowPromises
import VowRuntime
import VowSyntax
import VowValue
import VowHTTP

/// Exit statuses, as docs/language.md lists them.
public enum ExitStatus {
    /// Every statement fulfilled.
    public static let ok: Int32 = 0
    /// A statement (or a background job) rejected.
    public static let rejected: Int32 = 1
    /// A syntax error: nothing ran.
    public static let syntax: Int32 = 2
    /// Interrupted (Ctrl-C).
    public static let interrupted: Int32 = 130
    /// Ended by SIGTERM (128 + 15).
    public static let terminated: Int32 = 143
}

/// Runs vow programs non-interactively (`vow FILE`, `vow -c`, a script on stdin) and prints
/// results to stdout and errors to stderr.
///
/// Sendable: what other threads touch (Ctrl-C, the executor) is locked or atomic (`running`,
/// `streaming`, `cleanup`, `awaitedJob`, `currentRun`, the flags), and the `let`s never change.
/// `reportJob`, `spinner` and `waitsForJobs` are set while it is set up, before any statement runs.
/// `tracer` and `quietJobNotices` change only on the thread that calls `run`, or on the executor
/// (`:trace on`) while that thread waits for `ProgramRun.done`.
public final class Runner: @unchecked Sendable {
    /// The session statements run in.
    public let session: Session
    let interpreter: StatementStarter
    let renderer: Renderer
    let errorSink: @Sendable (String) -> Void
    /// The statement being waited for: its promise (Ctrl-C cancels it), its run and when it
    /// started (for the spinner).
    let running = Locked<(promise: Promise<Value>, run: StatementRun, since: Date)?>(nil)
    /// The stream a statement's result is printing, item by item (Ctrl-C stops it).
    let streaming = Locked<ValueStream?>(nil)
    let interrupted = Atomic<Bool>(false)
    /// SIGTERM ended the run.
    let terminated = Atomic<Bool>(false)
    /// `defer`'s clean-up is running; a Ctrl-C then skips the rest of it.
    let cleaning = Atomic<Bool>(false)
    let skipCleanup = Atomic<Bool>(false)
    let cleanup = Locked<Promise<Value>?>(nil)
    /// How long the clean-up of `defer` may take in all.
    static let cleanupGrace: Double = 5
    /// Where background job reports go (text, and whether it is an error); by default straight
    /// to stdout or stderr. The REPL routes them above the line being edited.
    public var reportJob: (@Sendable (String, Bool) -> Void)?
    /// Draw a spinner on stderr while a statement is pending for more than 150 ms.
    public var spinner = false
    /// Wait for background jobs before `run` returns, as a script does (the REPL does not).
    public var waitsForJobs = true
    /// Keep a finished program's run (and with it the program's statements) instead of freeing
    /// it: set by the `vow` command for a script, which exits once the program ends. Freeing a
    /// pipeline of a million stages took a tenth of its run; the REPL, which goes on, frees each
    /// line's.
    public var keepsWhatItRanUntilExit = false
    /// The last run of a runner that keeps it (`keepsWhatItRanUntilExit`).
    static let keptUntilExit = Locked<ProgramRun?>(nil)
    /// The job a finished script is waiting for; Ctrl-C cancels it.
    let awaitedJob = Locked<Promise<Value>?>(nil)
    /// The script being run, told of unhandled rejections (nil in the REPL between lines).
    let currentRun = Locked<ProgramRun?>(nil)

    /// Records promise events (for `:timeline`, `--trace`, `:trace on`); nil until enabled.
    public private(set) var tracer: Tracer?

    /// Starts recording promise events through the promise core's observer hook.
    @discardableResult
    public func enableTracing() -> Tracer {
        if let tracer { return tracer }
        let t = Tracer()
        PromiseObservation.install(t)
        tracer = t
        return t
    }

    /// The spinner's line of the terminal's live region while a statement is drawn as waited
    /// for; printing takes this lock and hides the spinner first.
    let spinnerLine = Locked<LiveRegion.Line?>(nil)

    /// True while a statement is running (not a background job), its result stream being
    /// printed included.
    public var isRunning: Bool { running.withLock { $0 != nil } || streaming.withLock { $0 != nil } }

    /// Prints a line of vow's own (a job's report) to stdout, or an error to stderr; not the
    /// program's output, so a record of the run (`--turns`, a trace) does not list it.
    public func printDirect(_ text: String, toStderr: Bool) {
        if toStderr { errorSink(text) } else { session.output.emit(text + "\n", recorded: false) }
    }

    func report(_ text: String, isError: Bool) {
        clearSpinner {
            if let reportJob { reportJob(text, isError) } else { printDirect(text, toStderr: isError) }
        }
    }

    /// Makes a runner.
    public init(session: Session, renderer: Renderer, errors: @escaping @Sendable (String) -> Void = { s in
        OutputSink.writeError(s + "\n")
    }) {
        self.session = session
        self.interpreter = StatementStarter(session: session)
        self.renderer = renderer
        self.errorSink = errors
        let r = renderer
        session.renderValue = { v in r.value(v) }
        if renderer.terminal { session.showText = { TerminalText.visible($0) } }
        session.onUnhandledRejection = { [weak self] lets in self?.unhandledRejections(lets) }
    }

    /// SIGTERM: as Ctrl-C, and the script's status is 143 (128 + SIGTERM), as a shell's.
    public func terminate() {
        terminated.store(true, ordering: .relaxed)
        interrupt()
    }

    /// Cancels the statement that is running (Ctrl-C) and marks the run interrupted; during the
    /// clean-up of `defer`, skips what is left of it.
    public func interrupt() {
        if cleaning.load(ordering: .relaxed) {
            skipCleanup.store(true, ordering: .relaxed)
            cleanup.withLock { $0 }?.cancel(reason: "cancelled: interrupted")
            return
        }
        interrupted.store(true, ordering: .relaxed)
        running.withLock { $0 }?.promise.cancel(reason: "cancelled: interrupted")
        streaming.withLock { $0 }?.cancel()
        awaitedJob.withLock { $0 }?.cancel(reason: "cancelled: interrupted")
    }

    /// Parses, checks and runs `text`; returns the exit status. An interrupt that came before
    /// (a script's Ctrl-C while vow started) stops it before its first statement; one that came
    /// during it is spent when it ends, and SIGTERM stops every run after it too.
    /// The text is taken (`consuming`): a caller that gives it up (`consume`) has a long program
    /// held once while it runs, as its `SourceText`'s bytes.
    public func run(_ text: consuming String, name: String) -> Int32 {
        run(SourceText(consume text, name: name))
    }

    /// `run(_:name:)` of a text already read into its `SourceText`.
    public func run(_ source: SourceText) -> Int32 {
        defer { if !terminated.load(ordering: .relaxed) { interrupted.store(false, ordering: .relaxed) } }
        let program: Program
        do {
            program = try Parser.parse(source)
        } catch {
            errorSink(error.render(source: source, colors: renderer.colors))
            return ExitStatus.syntax
        }
        var problems = interpreter.check(program)
        // A meta-command that only the REPL knows (`:quit`, `:vars`, …) or none knows is a syntax
        // error, found before anything runs, like an unknown stage.
        for st in program.statements {
            guard case .meta(let name, _, _) = st.kind, !Self.scriptMetaCommands.contains(name) else { continue }
            let message = name == "step"
                ? ":step works in the REPL only; `vow --turns FILE` shows a whole script turn by turn"
                : ["quit", "q", "exit"].contains(name)
                ? ":\(name) works in the REPL only; a script ends after its last statement (or at `exit`)"
                : Self.replMetaCommands.contains(name)
                ? ":\(name) works in the REPL only"
                : "unknown meta-command :\(name) (try :help)"
            problems.append((message: message, span: st.span))
        }
        if !problems.isEmpty {
            for p in problems {
                let (l, c) = source.lineColumn(of: p.span.start)
                let e = SyntaxError(message: p.message, span: p.span, line: l, column: c, isIncomplete: false)
                errorSink(e.render(source: source, colors: renderer.colors))
            }
            return ExitStatus.syntax
        }
        for w in interpreter.warnings(program) {
            let (l, c) = source.lineColumn(of: w.span.start)
            errorSink("warning: \(w.message) (\(source.name):\(l):\(c))")
        }
        // A program that draws its own timeline records for that run only: the observer is
        // process-wide, and nothing after the run should pay for it or see it.
        let timelines = program.statements.compactMap { st -> String? in
            if case .meta("timeline", let argument, _) = st.kind { return argument } else { return nil }
        }
        let tracingForTimeline = tracer == nil && !timelines.isEmpty
        if tracingForTimeline { enableTracing() }
        // `:timeline --turns` draws every statement run so far, not only the last.
        let keptWholeRun = tracer?.keepsWholeRun ?? false
        if timelines.contains(where: { $0.hasPrefix("--turns") }) { tracer?.keepsWholeRun = true }
        let status = execute(program, source: source)
        tracer?.keepsWholeRun = keptWholeRun
        if tracingForTimeline { disableTracing() }
        return status
    }

    /// Stops recording promise events (`enableTracing` undone).
    func disableTracing() {
        guard let tracer else { return }
        tracer.sparesLargeWork = false
        PromiseObservation.remove()
        self.tracer = nil
    }

    /// True while a run is shown turn by turn (`--turns`, `:step`): job notices are left out.
    var quietJobNotices = false

    /// Announces a background job and reports how it settles.
    func announce(_ s: StartedStatement) {
        guard case .job(let id, let p, let run) = s else { return }
        // A script keeps stdout for results: its job notices go to stderr (the REPL routes them
        // above the line being edited).
        let notice = reportJob == nil
        let quiet = quietJobNotices
        if !quiet { report("[\(id)] started", isError: notice) }
        p.whenSettled(on: session.executor, bookkeeping: true) { r in
            self.session.jobs.markSettled(id, reported: true)
            switch r {
            case .success(let v):
                if !quiet { self.report("[\(id)] fulfilled: \(Renderer(colors: false, jsonLines: true).value(v))", isError: notice) }
            case .failure(let e):
                let error = run.reported(e)
                if error.kind == .cancelled {
                    if !quiet { self.report("[\(id)] cancelled", isError: true) }
                } else {
                    self.report("[\(id)] rejected: " + self.renderer.error(error), isError: true)
                }
            }
        }
    }
}
