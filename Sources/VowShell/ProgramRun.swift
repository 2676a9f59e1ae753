import Dispatch
import Foundation
import Synchronization
import VowPromises
import VowRuntime
import VowSyntax
import VowValue

/// One program run by a `Runner`: statements started in batches on the session executor (the
/// background ones and bindings up to the next foreground pipeline, in one turn, as a JavaScript
/// program starts every top-level call before any handler runs), each result printed from the
/// executor when its promise settles (after any job report already queued there), the next batch
/// started from there, then the background jobs waited for.
///
/// Threading: its state is touched on the session executor only; `done` and `status` are what
/// the runner's thread reads, once `done` is signalled.
///
/// Sendable: its `var`s are touched only on the session executor: `advance` is enqueued there,
/// every callback is `whenSettled(on: ex)` or `ex.enqueue`, and `unhandled` runs in the executor's
/// drain. The runner's thread reads only `done` (a semaphore) and `ended` (an atomic).
final class ProgramRun: @unchecked Sendable {
    /// The line end after a result.
    private static let newline: [UInt8] = [0x0A]
    let runner: Runner
    let source: SourceText
    /// Statements not started yet.
    private var pending: ArraySlice<Statement>
    /// Statements started in the current batch, not yet waited for.
    private var started: ArraySlice<StartedStatement> = []
    /// Background jobs to wait for at the end.
    private var jobs: [Promise<Value>] = []
    /// The status so far.
    private var status = ExitStatus.ok
    /// Signalled when the run has ended.
    let done = DispatchSemaphore(value: 0)
    /// The status it ended with, once `done` is signalled.
    let ended = Atomic<Int32>(ExitStatus.ok)

    init(runner: Runner, program: Program, source: SourceText) {
        self.runner = runner
        self.source = source
        self.pending = program.statements[...]
        self.defs = program.statements.filter { if case .def = $0.kind { return true } else { return false } }
    }
    /// The program's `def` statements (their bodies may read a variable whenever called).
    private let defs: [Statement]

    private var session: Session { runner.session }
    private var ex: SerialPromiseExecutor { runner.session.executor }
    private var interrupted: Bool { runner.interrupted.load(ordering: .relaxed) }

    /// Ends the run with `status` (once; an unhandled rejection in JavaScript mode may have
    /// ended it already).
    private func finish(_ status: Int32) {
        guard !finished else { return }
        finished = true
        runner.running.withLock { $0 = nil }
        ended.store(ex.isHalted ? ExitStatus.rejected : status, ordering: .releasing)
        done.signal()
    }
    private var finished = false

    /// Starts statements and waits for each foreground pipeline in turn; call it on the executor.
    func advance() {
        while true {
            if ex.isHalted { return }
            if interrupted {
                finish(ExitStatus.interrupted)
                return
            }
            if let next = started.first {
                started.removeFirst()
                switch next {
                case .pipeline(let p, let run):
                    wait(for: p, run)
                    return
                case .job(_, let p, _): jobs.append(p)
                case .bound, .defined: break
                case .meta("explain", let argument):
                    // Like a syntax error in the script itself, nothing after it runs.
                    guard let text = runner.explain(argument) else {
                        finish(ExitStatus.syntax)
                        return
                    }
                    session.output.emit(text + "\n", recorded: false)
                case .meta("timeline", let argument):
                    // Drawn once every job that is ready has run, the handlers of the background
                    // jobs started before it included: what has happened so far, as far as it
                    // goes without a timer or I/O.
                    ex.enqueueWhenDrained { [self] in
                        guard !ex.isHalted, !finished else { return }
                        if let text = runner.meta("timeline", argument) { session.output.emit(text + "\n", recorded: false) }
                        advance()
                    }
                    return
                case .meta(let name, let argument):
                    if let text = runner.meta(name, argument) { session.output.emit(text + "\n", recorded: false) }
                }
                continue
            }
            if pending.isEmpty {
                waitForJobs()
                return
            }
            startBatch()
        }
    }

    /// Starts the statements up to and including the next foreground pipeline or meta-command.
    private func startBatch() {
        var batch: [Statement] = []
        while let st = pending.first {
            pending.removeFirst()
            batch.append(st)
            if case .pipeline(_, false) = st.kind { break }
            if case .meta = st.kind { break }
        }
        if batch.contains(where: { if case .meta = $0.kind { return false } else { return true } }) {
            runner.tracer?.clearMemory()
        }
        var made: [StartedStatement] = []
        for st in batch {
            let s = runner.interpreter.startOnExecutor(st, in: source)
            runner.announce(s)
            made.append(s)
        }
        started = made[...]
    }

    /// Waits for a foreground pipeline's promise, then prints its outcome and goes on.
    private func wait(for p: Promise<Value>, _ run: StatementRun) {
        runner.running.withLock { $0 = (p, run, Date()) }
        // An interrupt that came after the statement was started, before it was set as the one
        // running, found nothing to cancel: the flag it left is read here (as for a job below).
        if interrupted { p.cancel(reason: "cancelled: interrupted") }
        p.whenSettled(on: ex, bookkeeping: true) { [self] r in
            runner.running.withLock { $0 = nil }
            if interrupted {
                runner.clearSpinner { runner.errorSink("cancelled") }
                finish(ExitStatus.interrupted)
                return
            }
            if case .success(let v) = r, let stream = v.stream, !run.printsItsValue {
                printItems(of: stream, run)
                return
            }
            settled(r, run)
        }
    }

    /// A stream prints item by item, as the items arrive.
    private func printItems(of stream: ValueStream, _ run: StatementRun) {
        runner.streaming.withLock { $0 = stream }
        if interrupted { stream.cancel() }
        stream.forEach(on: ex) { [self] item in
            runner.clearSpinner { session.output.emit(runner.renderer.value(item) + "\n") }
            return Promise.resolve((), on: ex)
        }.whenSettled(on: ex, bookkeeping: true) { [self] end in
            runner.streaming.withLock { $0 = nil }
            if case .failure(let e) = end {
                runner.clearSpinner { runner.errorSink(runner.renderer.error(run.reported(e))) }
                afterStatement(failed: true)
            } else {
                afterStatement(failed: false)
            }
        }
    }

    /// Prints a pipeline's value or error; `exit` ends the run at once.
    private func settled(_ r: Result<Value, any Error>, _ run: StatementRun) {
        let failed: Bool = runner.clearSpinner {
            switch r {
            case .success(let v):
                if run.printsItsValue {
                    // `… | print`: the value is out already.
                } else if runner.waitsForJobs, !runner.renderer.jsonLines,
                    run.inPrograms == .nothing || (run.inPrograms == .unlessNull && v.isNull)
                {
                    // A program prints what was asked for: not the value `write` wrote, not
                    // the null of an effect (`delay`, `tap`).
                } else if let bytes = runner.renderer.rawBytes(v) {
                    session.output.emit(bytes: bytes)
                } else if case .string("") = v, !runner.renderer.jsonLines {
                    // Nothing to show: `run true`, a command that printed nothing (`--json`
                    // prints `""`: one line for every result).
                } else {
                    // Text that ends its last line (`read`, `text`) prints as it is, as `cat`
                    // prints a file: no blank line after it.
                    var endsItsLine = false
                    if case .string(let s) = v, !runner.renderer.jsonLines, s.utf8.last == 0x0A { endsItsLine = true }
                    session.output.emit(pieces: { send in
                        runner.renderer.write(v, to: send)
                        if !endsItsLine { Self.newline.withUnsafeBufferPointer { send($0) } }
                    })
                }
                return false
            case .failure(let e):
                if toVowError(e).kind == .exit { return true }
                runner.errorSink(runner.renderer.error(run.reported(e)))
                return true
            }
        }
        if case .failure(let e) = r, case let ve = toVowError(e), ve.kind == .exit {
            // `exit`: the message as written, and the script ends at once.
            let code = Int32(ve.details["status"]?.intValue ?? 0)
            runner.clearSpinner {
                if !ve.message.isEmpty { runner.errorSink(TerminalText.visible(ve.message)) }
                if !runner.waitsForJobs { runner.errorSink("exit \(code): a script would end here with status \(code)") }
            }
            finish(code)
            return
        }
        if failed, case .failure(let e) = r, let custom = toVowError(e).details["exitStatus"]?.intValue {
            status = Int32(custom)
        }
        afterStatement(failed: failed)
    }

    /// After a foreground pipeline: the next statements, or the end.
    private func afterStatement(failed: Bool) {
        if OutputFailure.happened {
            // A write to standard output or error failed: nothing more is run to be lost
            // (`OutputFailure`; vow says so as it exits).
            finish(ExitStatus.rejected)
        } else if interrupted {
            runner.clearSpinner { runner.errorSink("cancelled") }
            finish(ExitStatus.interrupted)
        } else if failed && session.javaScriptMode {
            // As node does with a twin whose main function threw: no more statements, but what
            // was started runs to its end.
            status = ExitStatus.rejected
            waitForJobs()
        } else if failed {
            finish(status != ExitStatus.ok ? status : ExitStatus.rejected)
        } else {
            advance()
        }
    }

    /// Like Node.js, a script does not end while its background jobs are pending; a job that
    /// rejected, unless it was cancelled on purpose, fails it.
    private func waitForJobs() {
        runner.awaitedJob.withLock { $0 = nil }
        if interrupted {
            for job in jobs { job.cancel(reason: "cancelled: interrupted") }
            finish(ExitStatus.interrupted)
            return
        }
        guard runner.waitsForJobs, let job = jobs.first else {
            if runner.waitsForJobs && !interrupted && !session.javaScriptMode {
                // The `let` promises left unhandled that a later statement might have read when
                // they rejected (`unhandled`), and that none did.
                report(session.unhandledLets())
            }
            finish(interrupted ? ExitStatus.interrupted : status)
            return
        }
        jobs.removeFirst()
        runner.awaitedJob.withLock { $0 = job }
        if interrupted { job.cancel(reason: "cancelled: interrupted") }
        job.whenSettled(on: ex, bookkeeping: true) { [self] r in
            if case .failure(let e) = r, toVowError(e).kind != .cancelled { status = ExitStatus.rejected }
            // One more turn, so that the job's own report (queued first) prints before the end.
            ex.enqueue { self.waitForJobs() }
        }
    }
}

extension ProgramRun {
    /// `let` promises that rejected with nothing waiting on them once the executor had run
    /// every job that was ready. JavaScript mode does what node does: the first is reported
    /// with node's report and the script ends there with status 1, nothing after it printed.
    /// vow's mode reports each (unless a statement still to come reads its name: then only if
    /// nothing has waited on it by the end) and goes on; the status is 1 at the end.
    func unhandled(_ lets: [UnhandledLet]) {
        if session.javaScriptMode {
            guard let first = lets.first, !ex.isHalted else { return }
            runner.clearSpinner { runner.errorSink(Runner.nodeReport(first)) }
            // As node's process ends: what the program still had running runs no more, and
            // prints nothing.
            session.output.guardWrites { _ in }
            session.diagnostics.guardWrites { _ in }
            ex.halt()
            finish(ExitStatus.rejected)
            return
        }
        report(lets.filter { $0.name.isEmpty || !readLater($0.name) })
    }

    /// Reports `lets` in vow's error style; the script will end with status 1.
    private func report(_ lets: [UnhandledLet]) {
        for u in lets {
            session.forgetUnhandled(u)
            runner.clearSpinner { runner.errorSink(runner.vowReport(u)) }
            if status == ExitStatus.ok { status = ExitStatus.rejected }
        }
    }

    /// True when a statement not started yet, or a `def` of the program, may read `$name`.
    private func readLater(_ name: String) -> Bool {
        let texts = (Array(pending) + defs).map { String(decoding: source.bytes[clampedRange($0.span)], as: UTF8.self) }
        return texts.contains { text in
            if text.contains("${" + name) { return true }
            var rest = text[...]
            while let r = rest.range(of: "$" + name) {
                let after = rest[r.upperBound...].first
                if after.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
                rest = rest[r.upperBound...]
            }
            return false
        }
    }

    private func clampedRange(_ span: SourceSpan) -> Range<Int> {
        let lo = max(0, min(span.start, source.bytes.count))
        return lo..<max(lo, min(span.end, source.bytes.count))
    }
}

extension Runner {
    /// Unhandled rejections: the script's run decides; the REPL shows each as a notice (node's
    /// report in JavaScript mode) and goes on.
    func unhandledRejections(_ lets: [UnhandledLet]) {
        if waitsForJobs, let run = currentRun.withLock({ $0 }) {
            run.unhandled(lets)
            return
        }
        for u in lets {
            session.forgetUnhandled(u)
            report(session.javaScriptMode ? Self.nodeReport(u) : vowReport(u), isError: true)
        }
    }

    /// Runs a checked program (`ProgramRun`); the calling thread only waits for the end,
    /// drawing the spinner if it is enabled. Then, for a script, the JavaScript-mode wait for
    /// what still runs, and the clean-up of `defer`.
    func execute(_ program: Program, source: SourceText) -> Int32 {
        // A script's arguments are checked before its first statement runs.
        if waitsForJobs, let ending = ScriptArguments.check(program, arguments: session.options.arguments, script: session.options.scriptName) {
            if ending.toStandardOutput {
                session.output.emit(ending.text + "\n", recorded: false)
            } else {
                errorSink(ending.text)
            }
            return ending.status
        }
        let run = ProgramRun(runner: self, program: program, source: source)
        if keepsWhatItRanUntilExit { Self.keptUntilExit.withLock { $0 = run } }
        currentRun.withLock { $0 = run }
        defer { currentRun.withLock { $0 = nil } }
        LiveRegion.shared.resume()
        session.executor.enqueueStart(run.advance)
        if spinner { drawSpinner(until: run.done) } else { run.done.wait() }
        clearSpinner {}
        LiveRegion.shared.removeAllAndPause()
        if session.javaScriptMode && waitsForJobs && !session.executor.isHalted { waitUntilQuiescent() }
        if session.executor.isHalted { return ExitStatus.rejected }
        if waitsForJobs { runDeferred() }
        if terminated.load(ordering: .relaxed) { return ExitStatus.terminated }
        return run.ended.load(ordering: .acquiring)
    }
}
