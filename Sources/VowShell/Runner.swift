import Dispatch
import Foundation
import Synchronization
import VowPromises
import VowRuntime
import VowSyntax
import VowValue

/// Exit statuses, as the spec sets them.
public enum ExitStatus {
    /// Every statement fulfilled.
    public static let ok: Int32 = 0
    /// A statement (or a background job) rejected.
    public static let rejected: Int32 = 1
    /// A syntax error: nothing ran.
    public static let syntax: Int32 = 2
    /// Interrupted (Ctrl-C).
    public static let interrupted: Int32 = 130
}

/// Runs vow programs non-interactively (`vow FILE`, `vow -c`, a script on stdin) and prints
/// results to stdout and errors to stderr.
public final class Runner: @unchecked Sendable {
    /// The session statements run in.
    public let session: Session
    let interpreter: Interpreter
    let renderer: Renderer
    let errorSink: @Sendable (String) -> Void
    private let current = Mutex<Promise<Value>?>(nil)
    private let interrupted = Atomic<Bool>(false)

    /// Makes a runner.
    public init(session: Session, renderer: Renderer, errors: @escaping @Sendable (String) -> Void = { s in
        FileHandle.standardError.write(Data((s + "\n").utf8))
    }) {
        self.session = session
        self.interpreter = Interpreter(session: session)
        self.renderer = renderer
        self.errorSink = errors
        let r = renderer
        session.renderValue = { v in r.value(v) }
    }

    /// Cancels the statement that is running (Ctrl-C) and marks the run interrupted.
    public func interrupt() {
        interrupted.store(true, ordering: .relaxed)
        current.withLock { $0 }?.cancel(reason: "cancelled: interrupted")
    }

    /// Parses, checks and runs `text`; returns the exit status.
    public func run(_ text: String, name: String) -> Int32 {
        let source = SourceText(text, name: name)
        let program: Program
        do {
            program = try Parser.parse(source)
        } catch {
            errorSink(error.render(source: source, colors: renderer.colors))
            return ExitStatus.syntax
        }
        let problems = interpreter.check(program)
        if !problems.isEmpty {
            for p in problems {
                let (l, c) = source.lineColumn(of: p.span.start)
                let e = SyntaxError(message: p.message, span: p.span, line: l, column: c, isIncomplete: false)
                errorSink(e.render(source: source, colors: renderer.colors))
            }
            return ExitStatus.syntax
        }
        var status = ExitStatus.ok
        var jobs: [(Int, Promise<Value>, StatementRun)] = []
        var pending = program.statements[...]
        while !pending.isEmpty {
            if interrupted.load(ordering: .relaxed) { return ExitStatus.interrupted }
            // Start statements up to and including the first one to wait for, in one turn.
            var batch: [Statement] = []
            while let st = pending.first {
                pending.removeFirst()
                batch.append(st)
                if case .pipeline(_, false) = st.kind { break }
                if case .meta = st.kind { break }
            }
            let started = interpreter.start(batch, in: source) { [self] s in
                guard case .job(let id, let p, let run) = s else { return }
                self.session.output.emit("[\(id)] started\n")
                p.whenSettled(on: self.session.executor) { r in
                    self.session.jobs.markSettled(id, reported: true)
                    switch r {
                    case .success(let v): self.session.output.emit("[\(id)] fulfilled: \(Renderer(colors: false, jsonLines: true).value(v))\n")
                    case .failure(let e): self.errorSink("[\(id)] rejected: " + self.renderer.error(run.explain(e)))
                    }
                }
            }
            for s in started {
                switch s {
                case .pipeline(let p, let run):
                    current.withLock { $0 = p }
                    let r = wait(p)
                    current.withLock { $0 = nil }
                    if interrupted.load(ordering: .relaxed) {
                        errorSink("cancelled")
                        return ExitStatus.interrupted
                    }
                    switch r {
                    case .success(let v): session.output.emit(renderer.value(v) + "\n")
                    case .failure(let e):
                        errorSink(renderer.error(run.explain(e)))
                        return ExitStatus.rejected
                    }
                case .job(let id, let p, let run): jobs.append((id, p, run))
                case .bound, .defined: break
                case .meta(let name, let argument):
                    if let text = meta(name, argument) { session.output.emit(text + "\n") }
                }
            }
        }
        // Like Node.js, a script does not exit while its background jobs are pending.
        for (_, p, _) in jobs {
            // A job that rejected, unless it was cancelled on purpose, fails the script.
            if case .failure(let e) = wait(p), toVowError(e).kind != .cancelled { status = ExitStatus.rejected }
        }
        // Let job reports (queued on the executor) print before exiting.
        if !jobs.isEmpty { session.onExecutor {} }
        return interrupted.load(ordering: .relaxed) ? ExitStatus.interrupted : status
    }

    /// Waits for a promise from a non-executor thread.
    func wait(_ p: Promise<Value>) -> Result<Value, any Error> {
        let sem = DispatchSemaphore(value: 0)
        let box = Mutex<Result<Value, any Error>?>(nil)
        p.whenSettled(on: DispatchQueue.global()) { r in
            box.withLock { $0 = r }
            sem.signal()
        }
        sem.wait()
        return box.withLock { $0! }
    }

    /// Meta-commands available outside the REPL: `:help [stage]`.
    func meta(_ name: String, _ argument: String) -> String? {
        switch name {
        case "help": return Help.text(for: argument.isEmpty ? nil : argument, registry: session.registry)
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
        if let topic, let s = registry.stage(named: topic) {
            var out = "\(s.synopsis)\n\n\(s.summary)\n\n\(s.help)"
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
        out += "\n:help NAME shows a stage's flags and examples."
        return out
    }
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
