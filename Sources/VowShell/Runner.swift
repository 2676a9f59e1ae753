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
public final class Runner: @unchecked Sendable {
    /// The session statements run in.
    public let session: Session
    let interpreter: Interpreter
    let renderer: Renderer
    let errorSink: @Sendable (String) -> Void
    /// The statement being waited for: its promise (Ctrl-C cancels it), its run and when it
    /// started (for the spinner).
    private let running = Locked<(promise: Promise<Value>, run: StatementRun, since: Date)?>(nil)
    /// The stream a statement's result is printing, item by item (Ctrl-C stops it).
    private let streaming = Locked<ValueStream?>(nil)
    private let interrupted = Atomic<Bool>(false)
    /// SIGTERM ended the run.
    private let terminated = Atomic<Bool>(false)
    /// `defer`'s clean-up is running; a Ctrl-C then skips the rest of it.
    private let cleaning = Atomic<Bool>(false)
    private let skipCleanup = Atomic<Bool>(false)
    private let cleanup = Locked<Promise<Value>?>(nil)
    /// How long the clean-up of `defer` may take in all.
    static let cleanupGrace: Double = 5
    /// Where background job reports go (text, and whether it is an error); by default straight
    /// to stdout or stderr. The REPL routes them above the line being edited.
    public var reportJob: (@Sendable (String, Bool) -> Void)?
    /// Draw a spinner on stderr while a statement is pending for more than 150 ms.
    public var spinner = false
    /// Wait for background jobs before `run` returns, as a script does (the REPL does not).
    public var waitsForJobs = true
    /// The job a finished script is waiting for; Ctrl-C cancels it.
    private let awaitedJob = Locked<Promise<Value>?>(nil)

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

    /// Whether a spinner line is on screen; printing takes this lock and erases it first.
    private let spinnerLine = Locked(false)

    /// True while a statement is running (not a background job), its result stream being
    /// printed included.
    public var isRunning: Bool { running.withLock { $0 != nil } || streaming.withLock { $0 != nil } }

    /// Prints a result line to stdout, or an error to stderr.
    public func printDirect(_ text: String, toStderr: Bool) {
        if toStderr { errorSink(text) } else { session.output.emit(text + "\n") }
    }

    private func report(_ text: String, isError: Bool) {
        clearSpinner {
            if let reportJob { reportJob(text, isError) } else { printDirect(text, toStderr: isError) }
        }
    }

    /// Makes a runner.
    public init(session: Session, renderer: Renderer, errors: @escaping @Sendable (String) -> Void = { s in
        OutputSink.writeError(s + "\n")
    }) {
        self.session = session
        self.interpreter = Interpreter(session: session)
        self.renderer = renderer
        self.errorSink = errors
        let r = renderer
        session.renderValue = { v in r.value(v) }
        if renderer.terminal { session.showText = { TerminalText.visible($0) } }
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

    /// Parses, checks and runs `text`; returns the exit status.
    public func run(_ text: String, name: String) -> Int32 {
        interrupted.store(false, ordering: .relaxed)
        let source = SourceText(text, name: name)
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
            let message = Self.replMetaCommands.contains(name)
                ? ":\(name) works in the REPL only; a script ends after its last statement"
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
        if tracer == nil, program.statements.contains(where: { if case .meta("timeline", _, _) = $0.kind { return true } else { return false } }) {
            enableTracing()
        }
        return execute(program, source: source)
    }

    /// The JavaScript twin of the program `text` (`vow --emit-js`), or a syntax error on stderr
    /// and status 2.
    public static func emitJavaScript(_ text: String, name: String) -> (status: Int32, output: String) {
        let source = SourceText(text, name: name)
        do {
            let program = try Parser.parse(source)
            return (ExitStatus.ok, JavaScriptTwin.program(program))
        } catch {
            OutputSink.writeError(error.render(source: source, colors: false) + "\n")
            return (ExitStatus.syntax, "")
        }
    }

    /// The JavaScript twin of the program `text` written to `path`, with the prelude beside it
    /// as a module it requires (`vow --emit-js-to FILE`): a small program's twin stays small.
    /// Each file is replaced whole. A syntax error is written on stderr (status 2), a file that
    /// cannot be written too (status 1).
    public static func emitJavaScript(_ text: String, name: String, to path: String) -> Int32 {
        let source = SourceText(text, name: name)
        let program: Program
        do {
            program = try Parser.parse(source)
        } catch {
            OutputSink.writeError(error.render(source: source, colors: false) + "\n")
            return ExitStatus.syntax
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let prelude = (directory.isEmpty ? "" : directory + "/") + JavaScriptTwin.preludeFileName
        let twin = JavaScriptTwin.program(program, preludeModule: "./" + JavaScriptTwin.preludeFileName)
        func write(_ file: String, _ content: String) throws(VowError) {
            let writer = try FileWriter(file)
            do {
                try writer.write(Array(content.utf8))
                try writer.commit()
            } catch {
                writer.abandon()
                throw error
            }
        }
        do {
            try write(prelude, JavaScriptTwin.preludeModule)
            try write(path, twin)
        } catch {
            OutputSink.writeError("error[\(error.kind.rawValue)]: \(error.message)\n")
            return ExitStatus.rejected
        }
        return ExitStatus.ok
    }

    /// What the executor-side loop of one `run` holds; touched only on the session's executor.
    private final class RunState: @unchecked Sendable {
        var pending: ArraySlice<Statement>
        var started: ArraySlice<StartedStatement> = []
        var jobs: [Promise<Value>] = []
        var status = ExitStatus.ok
        init(_ statements: [Statement]) { pending = statements[...] }
    }

    /// Runs the statements from the session's executor, one after the other, without a thread
    /// hop per statement: statements up to the first one to wait for start in one executor turn
    /// (as a JavaScript program starts every top-level call before any handler runs), each
    /// result prints from the executor when its promise settles (so it comes after any job
    /// report already queued there), and the next batch starts from there. The calling thread
    /// only waits for the end, drawing the spinner if it is enabled.
    func execute(_ program: Program, source: SourceText) -> Int32 {
        let state = RunState(program.statements)
        let done = DispatchSemaphore(value: 0)
        let final = Atomic<Int32>(ExitStatus.ok)
        let ex = session.executor
        @Sendable func finish(_ status: Int32) {
            running.withLock { $0 = nil }
            final.store(status, ordering: .releasing)
            done.signal()
        }
        @Sendable func waitForJobs() {
            // Like Node.js, a script does not end while its background jobs are pending; a job
            // that rejected, unless it was cancelled on purpose, fails it.
            awaitedJob.withLock { $0 = nil }
            if interrupted.load(ordering: .relaxed) {
                for job in state.jobs { job.cancel(reason: "cancelled: interrupted") }
                finish(ExitStatus.interrupted)
                return
            }
            guard waitsForJobs, let job = state.jobs.first else {
                if waitsForJobs && !interrupted.load(ordering: .relaxed) && !session.javaScriptMode {
                    // A `let` whose promise rejected and that nothing read: reported, and the
                    // script fails, as node fails on an unhandled rejection. (JavaScript mode
                    // keeps its twin's behaviour for now: the twin swallows unhandled rejections.)
                    for (name, error) in session.unobservedRejections() {
                        clearSpinner { errorSink("unobserved rejection: the promise of `let \(name)` rejected and nothing awaited it\n" + renderer.error(error)) }
                        state.status = ExitStatus.rejected
                    }
                }
                finish(interrupted.load(ordering: .relaxed) ? ExitStatus.interrupted : state.status)
                return
            }
            state.jobs.removeFirst()
            awaitedJob.withLock { $0 = job }
            if interrupted.load(ordering: .relaxed) { job.cancel(reason: "cancelled: interrupted") }
            job.whenSettled(on: ex) { r in
                if case .failure(let e) = r, toVowError(e).kind != .cancelled { state.status = ExitStatus.rejected }
                // One more turn, so that the job's own report (queued first) prints before the end.
                ex.enqueue { waitForJobs() }
            }
        }
        @Sendable func advance() {
            while true {
                if interrupted.load(ordering: .relaxed) {
                    finish(ExitStatus.interrupted)
                    return
                }
                if let next = state.started.first {
                    state.started.removeFirst()
                    switch next {
                    case .pipeline(let p, let run):
                        running.withLock { $0 = (p, run, Date()) }
                        p.whenSettled(on: ex) { [self] r in
                            running.withLock { $0 = nil }
                            if interrupted.load(ordering: .relaxed) {
                                clearSpinner { errorSink("cancelled") }
                                finish(ExitStatus.interrupted)
                                return
                            }
                            @Sendable func then(failed: Bool) {
                                if interrupted.load(ordering: .relaxed) {
                                    clearSpinner { errorSink("cancelled") }
                                    finish(ExitStatus.interrupted)
                                } else if failed && session.javaScriptMode {
                                    // As node does with a twin whose main function threw: no more
                                    // statements, but what was started runs to its end.
                                    state.status = ExitStatus.rejected
                                    waitForJobs()
                                } else if failed {
                                    finish(state.status != ExitStatus.ok ? state.status : ExitStatus.rejected)
                                } else {
                                    advance()
                                }
                            }
                            if case .success(let v) = r, let stream = v.stream {
                                // A stream prints item by item, as the items arrive.
                                streaming.withLock { $0 = stream }
                                stream.forEach(on: ex) { [self] item in
                                    clearSpinner { session.output.emit(renderer.value(item) + "\n") }
                                    return Promise.resolve((), on: ex)
                                }.whenSettled(on: ex) { [self] end in
                                    streaming.withLock { $0 = nil }
                                    if case .failure(let e) = end {
                                        clearSpinner { errorSink(renderer.error(run.explain(e))) }
                                        then(failed: true)
                                    } else {
                                        then(failed: false)
                                    }
                                }
                                return
                            }
                            let failed: Bool = clearSpinner {
                                switch r {
                                case .success(let v):
                                    if let bytes = renderer.rawBytes(v) {
                                        session.output.emit(bytes: bytes)
                                    } else if case .string("") = v {
                                        // Nothing to show: `run true`, a command that printed nothing.
                                    } else {
                                        session.output.emit(renderer.value(v) + "\n")
                                    }
                                    return false
                                case .failure(let e):
                                    if toVowError(e).kind == .exit { return true }
                                    errorSink(renderer.error(run.explain(e)))
                                    return true
                                }
                            }
                            if case .failure(let e) = r, case let ve = toVowError(e), ve.kind == .exit {
                                // `exit`: the message as written, and the script ends at once.
                                let status = Int32(ve.details["status"]?.intValue ?? 0)
                                clearSpinner {
                                    if !ve.message.isEmpty { errorSink(TerminalText.visible(ve.message)) }
                                    if !waitsForJobs { errorSink("exit \(status): a script would end here with status \(status)") }
                                }
                                finish(status)
                                return
                            }
                            if failed, case .failure(let e) = r, let custom = toVowError(e).details["exitStatus"]?.intValue {
                                state.status = Int32(custom)
                            }
                            then(failed: failed)
                        }
                        return
                    case .job(_, let p, _): state.jobs.append(p)
                    case .bound, .defined: break
                    case .meta("explain", let argument):
                        // Like a syntax error in the script itself, nothing after it runs.
                        guard let text = explain(argument) else {
                            finish(ExitStatus.syntax)
                            return
                        }
                        session.output.emit(text + "\n")
                    case .meta(let name, let argument):
                        if let text = meta(name, argument) { session.output.emit(text + "\n") }
                    }
                    continue
                }
                if state.pending.isEmpty {
                    waitForJobs()
                    return
                }
                var batch: [Statement] = []
                while let st = state.pending.first {
                    state.pending.removeFirst()
                    batch.append(st)
                    if case .pipeline(_, false) = st.kind { break }
                    if case .meta = st.kind { break }
                }
                if batch.contains(where: { if case .meta = $0.kind { return false } else { return true } }) {
                    tracer?.clearMemory()
                }
                var started: [StartedStatement] = []
                for st in batch {
                    let s = interpreter.startOnExecutor(st, in: source)
                    announce(s)
                    started.append(s)
                }
                state.started = started[...]
            }
        }
        ex.enqueue(advance)
        if spinner {
            let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            var frame = 0
            while done.wait(timeout: .now() + 0.1) == .timedOut {
                guard let (_, run, since) = running.withLock({ $0 }), Date().timeIntervalSince(since) > 0.15 else { continue }
                let waitingFor = run.stages.first { $0.promise.isPending }?.text ?? "…"
                let shown = waitingFor.count > 60 ? String(waitingFor.prefix(59)) + "…" : waitingFor
                let line = "\r\u{1B}[2K\(frames[frame % frames.count]) \(shown) \(String(format: "%.1fs", Date().timeIntervalSince(since)))"
                spinnerLine.withLock { drawn in
                    // Checked under the lock: a result printed meanwhile has ended the wait.
                    guard running.withLock({ $0 != nil }) else { return }
                    FileHandle.standardError.write(Data(line.utf8))
                    drawn = true
                }
                frame += 1
            }
        } else {
            done.wait()
        }
        clearSpinner {}
        if session.javaScriptMode && waitsForJobs { waitUntilQuiescent() }
        if waitsForJobs { runDeferred() }
        if terminated.load(ordering: .relaxed) { return ExitStatus.terminated }
        return final.load(ordering: .acquiring)
    }

    /// Runs the clean-up that `defer` registered, last first, within `cleanupGrace` seconds in
    /// all; a Ctrl-C skips the rest. A clean-up that fails says so on stderr. The REPL calls it
    /// when it ends; a script, when its statements and jobs are done or it was interrupted.
    public func runDeferred() {
        let steps = session.onExecutor { self.session.takeDeferred() }
        guard !steps.isEmpty else { return }
        cleaning.store(true, ordering: .relaxed)
        defer { cleaning.store(false, ordering: .relaxed) }
        let deadline = DispatchTime.now() + Self.cleanupGrace
        let ex = session.executor
        for step in steps {
            if skipCleanup.load(ordering: .relaxed) { break }
            let finished = DispatchSemaphore(value: 0)
            ex.enqueue { [self] in
                let p = step()
                cleanup.withLock { $0 = p }
                p.whenSettled(on: ex) { [self] r in
                    if case .failure(let e) = r, toVowError(e).kind != .cancelled {
                        clearSpinner { errorSink(renderer.error(toVowError(e))) }
                    }
                    finished.signal()
                }
            }
            if finished.wait(timeout: deadline) == .timedOut {
                cleanup.withLock { $0 }?.cancel(reason: "cancelled: the clean-up took longer than \(Int(Self.cleanupGrace))s")
                errorSink("defer: the clean-up took longer than \(Int(Self.cleanupGrace))s; the rest is skipped")
                break
            }
        }
        cleanup.withLock { $0 = nil }
    }

    /// JavaScript mode: like node, a script does not end while a timer it started is pending, a
    /// request or process it started is running, or a handler is still to run (what `all`, `race` and `timeout` no longer wait for runs on
    /// and prints). Ctrl-C ends the wait.
    func waitUntilQuiescent() {
        while !interrupted.load(ordering: .relaxed) {
            if session.executor.waitUntilQuiescent(timeout: .milliseconds(50)) {
                if WorkInFlight.pending == 0 {
                    // A request may have settled between the two checks: quiet twice is quiet.
                    if session.executor.waitUntilQuiescent(timeout: .milliseconds(50)) && WorkInFlight.pending == 0 { return }
                } else {
                    usleep(1_000)
                }
            }
        }
    }

    /// Runs `body` (which prints) after erasing the spinner line, if one is on screen; inside
    /// another `clearSpinner` on the same thread (a result whose printing goes through the
    /// guarded output), runs it as it is. With no spinner (a script, a pipe) the thread is not
    /// asked: only the guarded output of a spinner nests.
    @discardableResult
    func clearSpinner<R>(_ body: () -> R) -> R {
        guard spinner else { return spinnerLine.withLock { _ in body() } }
        if Thread.current.threadDictionary[Self.clearingKey] != nil { return body() }
        return spinnerLine.withLock { drawn in
            if drawn {
                FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
                drawn = false
            }
            Thread.current.threadDictionary[Self.clearingKey] = true
            defer { Thread.current.threadDictionary[Self.clearingKey] = nil }
            return body()
        }
    }

    private static let clearingKey = "vow.clearSpinner"

    /// With the spinner on, everything written to standard output (`print`, `tap`) first erases
    /// the spinner line, as results do.
    func guardOutputAgainstSpinner() {
        session.output.guardWrites { [weak self] write in
            guard let self else { return write() }
            self.clearSpinner(write)
        }
    }

    /// Announces a background job and reports how it settles.
    func announce(_ s: StartedStatement) {
        guard case .job(let id, let p, let run) = s else { return }
        // A script keeps stdout for results: its job notices go to stderr (the REPL routes them
        // above the line being edited).
        let notice = reportJob == nil
        report("[\(id)] started", isError: notice)
        p.whenSettled(on: session.executor) { r in
            self.session.jobs.markSettled(id, reported: true)
            switch r {
            case .success(let v): self.report("[\(id)] fulfilled: \(Renderer(colors: false, jsonLines: true).value(v))", isError: notice)
            case .failure(let e):
                let error = run.explain(e)
                if error.kind == .cancelled {
                    self.report("[\(id)] cancelled", isError: true)
                } else {
                    self.report("[\(id)] rejected: " + self.renderer.error(error), isError: true)
                }
            }
        }
    }

    /// The explanation of `:explain TEXT`, or nil after reporting why TEXT cannot be explained
    /// (a syntax error, or not exactly one pipeline).
    func explain(_ text: String) -> String? {
        var text = text
        let asJavaScript = text.hasPrefix("--js ") || text == "--js"
        if asJavaScript { text = String(text.dropFirst(4)) }
        let source = SourceText(text, name: "<explain>")
        do {
            let program = try Parser.parse(source)
            guard program.statements.count == 1, case .pipeline(let pipeline, _) = program.statements[0].kind else {
                errorSink("error[syntax]: :explain takes one pipeline, e.g. :explain fetch $u | json")
                return nil
            }
            if asJavaScript { return JavaScriptTwin.pipeline(pipeline, source: source, registry: session.registry) }
            return Explainer.explain(pipeline, source: source, javaScriptMode: session.javaScriptMode, registry: session.registry)
        } catch {
            errorSink(error.render(source: source, colors: renderer.colors))
            return nil
        }
    }

    /// The meta-commands a script (or `-c`) may use; `meta` runs them.
    static let scriptMetaCommands: Set<String> = ["help", "explain", "mode", "set", "session", "timeline", "trace"]
    /// The meta-commands only the REPL runs (it handles them before the runner sees the line).
    static let replMetaCommands: Set<String> = ["quit", "q", "exit", "clear", "vars", "jobs", "history", "load"]

    /// Meta-commands available outside the REPL: `:help [stage]`.
    func meta(_ name: String, _ argument: String) -> String? {
        switch name {
        case "help": return Help.text(for: argument.isEmpty ? nil : argument, registry: session.registry)
        case "explain": return explain(argument)
        case "mode":
            switch argument.trimmingCharacters(in: .whitespaces) {
            case "js": session.javaScriptMode = true
            case "vow": session.javaScriptMode = false
            case "": break
            default:
                errorSink("error[syntax]: :mode js | :mode vow")
                return nil
            }
            return session.javaScriptMode
                ? "mode js: nothing is cancelled that JavaScript would let run on (Ctrl-C and cancel %N still cancel)"
                : "mode vow: all, race, any and timeout cancel what they no longer need"
        case "set":
            let words = argument.split(separator: " ").map(String.init)
            switch words {
            case ["table", "on"]: renderer.tables.on = true
            case ["table", "off"]: renderer.tables.on = false
            case ["table"]: break
            default:
                errorSink("error[syntax]: :set table on | :set table off")
                return nil
            }
            return renderer.tables.on
                ? "table on: lists of records print as tables on a terminal"
                : "table off: lists of records print as JSON"
        case "session":
            // What an HTTP session holds, every secret masked.
            let name = argument.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                errorSink("error[syntax]: :session NAME (sessions are kept in \(HTTPSessions.directory))")
                return nil
            }
            do {
                let s = try session.httpSessions.session(name, stage: ":session")
                guard FileManager.default.fileExists(atPath: s.path) || !s.jar.all.isEmpty || s.hasHeaders else {
                    return "no session \(name) (it would be kept in \(s.path))"
                }
                return renderer.value(s.describe())
            } catch {
                errorSink(renderer.error(toVowError(error)))
                return nil
            }
        case "timeline":
            guard let tracer else { return "no timeline: nothing was recorded" }
            let columns = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 80
            return Timeline.render(tracer.entries, width: max(40, columns), colors: renderer.colors)
        case "trace":
            let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
            switch parts.first {
            case "on":
                let path = parts.count > 1 ? parts[1] : "vow-trace.jsonl"
                do {
                    try enableTracing().startFile(path)
                    return "tracing to \(path)"
                } catch {
                    errorSink(renderer.error(toVowError(error)))
                    return nil
                }
            case "off":
                if let path = tracer?.stopFile() { return "trace written to \(path)" }
                return "tracing was off"
            default:
                errorSink("error[syntax]: :trace on [FILE] | :trace off")
                return nil
            }
        default:
            errorSink("error[syntax]: unknown meta-command :\(name) (try :help)")
            return nil
        }
    }
}

/// Help texts, generated from the stage definitions.
public enum Help {
    /// `:help` (every stage by group) or `:help NAME` (one stage).
    public static func text(for topic: String?, registry: StageRegistry) -> String {
        if topic == "syntax" { return syntax }
        if topic == "keys" { return keys }
        if let topic, let s = registry.stage(named: topic) {
            var out = "\(s.synopsis)\n\n\(s.summary)\n\n\(s.help)\n\nIn JavaScript: \(JavaScriptTwin.reference(for: s))."
            if !s.flags.isEmpty {
                out += "\n\nFlags:"
                for f in s.flags { out += "\n  --\(f.name)\(f.value.map { " " + $0 } ?? "")  \(f.help)" }
            }
            if !s.examples.isEmpty {
                out += "\n\nExamples:"
                for ex in s.examples { out += "\n  \(ex.source.replacingOccurrences(of: "\n", with: "\n  "))\n    → \(ex.output.replacingOccurrences(of: "\n", with: "\n      "))" }
            }
            return out
        }
        if let topic { return "no help for '\(topic)'" + (registry.suggestion(for: topic).map { " (did you mean '\($0)'?)" } ?? "") }
        var out = "vow: pipelines of promises. Stages:\n"
        for g in StageGroup.allCases {
            out += "\n\(g.rawValue):\n"
            for s in registry.stages where s.group == g { out += "  \(s.name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(s.summary)\n" }
        }
        out += "\n:help NAME shows a stage's flags and examples; :help syntax the language; :help keys the keys."
        return out
    }

    /// `:help syntax`.
    public static let syntax = """
        pipeline                  run it, wait, print its value or its error
        pipeline &                run it in the background as job %N
        let name = pipeline       bind the PROMISE to $name without waiting
        def name(a, b) = pipeline define a stage, called as `name x y`
        a | b | c                 each | is a then: b runs on a's value
        'raw'  "interp {} {path} $var ${var.path}"  42  2.5s  true  null
        [list, of, pipelines]  {key: pipeline, "k 2": $x}  (sub | pipeline)  %1  --flag value
        # comment    ; or newline separates statements; a trailing | continues the line
        """

    /// `:help keys`.
    public static let keys = """
        Enter        run the statement (an unfinished one continues on a …> line)
        Tab          complete stages, flags, $variables, %jobs, :commands, file names
        Up/Down      history (kept in $VOW_HISTORY, else $HOME/.vow_history)
        Ctrl-R       search the history
        Ctrl-C       cancel the running statement, or abandon the line being edited
        Ctrl-D       exit (asks once when jobs are pending)
        Ctrl-A/E     start/end of line;  Ctrl-W delete a word;  Ctrl-U delete the line
        """
}

extension Help {
    /// The stage reference as Markdown: docs/stages.md is this text, and a test keeps it so.
    public static func markdownReference(registry: StageRegistry) -> String {
        var out = """
            # Stage reference

            Every built-in stage, by group. This page is generated from the stages themselves
            (`VOW_UPDATE_DOCS=1 swift test --filter DocsTests` rewrites it) and every example on it
            runs as a test. In the REPL, `:help NAME` shows the same text.

            """
        for g in StageGroup.allCases {
            let stages = registry.stages.filter { $0.group == g }
            if stages.isEmpty { continue }
            out += "\n## \(g.rawValue.prefix(1).uppercased() + g.rawValue.dropFirst())\n"
            for s in stages {
                out += "\n### `\(s.name)`\n\n    \(s.synopsis)\n\n\(s.summary)\n"
                if !s.help.isEmpty { out += "\n\(s.help)\n" }
                if !s.aliases.isEmpty { out += "\nAlso spelled: \(s.aliases.map { "`\($0)`" }.joined(separator: ", ")).\n" }
                out += "\nIn JavaScript ([the twin](javascript-twin.md)): \(JavaScriptTwin.reference(for: s)).\n"
                if !s.flags.isEmpty {
                    out += "\n| flag | meaning |\n| --- | --- |\n"
                    for f in s.flags {
                        let name = "--\(f.name)\(f.value.map { " " + $0 } ?? "")"
                        out += "| `\(name)`\(f.repeatable ? " (repeatable)" : "") | \(f.help.replacingOccurrences(of: "|", with: "\\|")) |\n"
                    }
                }
                if !s.examples.isEmpty {
                    out += "\nExamples:\n"
                    for ex in s.examples {
                        out += "\n    \(ex.source.replacingOccurrences(of: "\n", with: "\n    "))\n"
                        let shown = ex.output.isEmpty ? "(nothing)" : ex.output
                        out += "    ⇒ \(ex.fails ? "(fails) " : "")\(shown.replacingOccurrences(of: "\n", with: "\n      "))\n"
                    }
                }
            }
        }
        return out
    }
}
