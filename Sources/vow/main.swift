import ArgumentParser
import Dispatch
import Foundation
import VowRuntime
import VowShell

/// The vow command line: argument parsing only.
struct Vow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vow",
        abstract: "An interactive shell for asynchronous work: pipelines of promises.",
        discussion: """
            With no arguments on a terminal, starts the REPL; with FILE, runs a script ($1… and \
            $args are its arguments); with -c, runs SOURCE; a script piped on stdin runs too.
            Exit status: 0 when every statement fulfilled, 1 at the first rejection, 2 for a \
            syntax error (nothing runs), 130 when interrupted.
            """,
        version: "vow 0.1.0")

    @Option(name: .customShort("c"), help: ArgumentHelp("Run SOURCE instead of a file.", valueName: "SOURCE"))
    var command: String?

    @Flag(name: .long, help: "Print each result as one compact JSON line.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Record every promise event as JSON Lines to FILE (see docs/trace-format.md).", valueName: "FILE"))
    var trace: String?

    @Flag(name: .long, help: "Show the run turn by turn instead of its output: the job each turn runs, what it settles, prints and queues, and the queues after it.")
    var turns = false

    @Option(name: .long, help: ArgumentHelp("After the run, write a page of it to FILE for a class: the promise graph, the turns one step at a time, and the timeline (one self-contained HTML file; see docs/teaching.md).", valueName: "FILE"))
    var html: String?

    @Flag(name: .long, help: "JavaScript mode: nothing is cancelled that JavaScript would let run on, and a script waits for its timers, as node does.")
    var js = false

    @Flag(name: .customLong("emit-js"), help: "Write the JavaScript twin of the script (or of -c SOURCE) to stdout instead of running it; `node` runs it as it is.")
    var emitJS = false

    @Option(name: .customLong("emit-js-to"), help: ArgumentHelp("Write the JavaScript twin to FILE, with the prelude it requires beside it (vow-twin-prelude.js), instead of running the script.", valueName: "FILE"))
    var emitJSTo: String?

    @Option(name: .long, help: ArgumentHelp("Colour: auto, always or never.", valueName: "WHEN"))
    var color: String = "auto"

    @Argument(help: "A script file, and its arguments.")
    var script: [String] = []

    /// `--trace FILE`: records the run through the promise core's observer hook.
    func startTrace(_ runner: Runner) throws {
        guard let trace else { return }
        do {
            try runner.enableTracing().startFile(trace)
        } catch {
            OutputSink.writeError("error[io]: cannot create the trace file \(trace)\n")
            throw ExitCode(1)
        }
    }

    func run() throws {
        var options = SessionOptions()
        let tty = isatty(1) == 1
        let colors: Bool
        switch color {
        case "always": colors = true
        case "never": colors = false
        case "auto": colors = tty && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        default: throw ValidationError("--color must be auto, always or never")
        }
        let text: String
        let name: String
        if let command {
            text = command
            name = "<command>"
            options.arguments = script
        } else if let file = script.first {
            do {
                text = try Files.program(file)
            } catch {
                OutputSink.writeError("error[\(error.kind.rawValue)]: \(error.message)\n")
                throw ExitCode(error.kind == .syntax ? 2 : 1)
            }
            name = file
            options.arguments = Array(script.dropFirst())
            options.scriptName = file
        } else if isatty(0) == 0 {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            name = "<stdin>"
        } else {
            let session = Session(options: options)
            session.javaScriptMode = js
            let runner = Runner(session: session, renderer: Renderer(colors: colors, jsonLines: json, terminal: tty))
            try startTrace(runner)
            runner.enableTracing()
            let repl = REPL(runner: runner)
            installInterrupt { repl.interrupt() }
            let status = repl.run()
            runner.tracer?.stopFile()
            runner.session.http.shutdown()
            StandardOutputBuffer.shared.flush()
            throw ExitCode(status)
        }
        if let emitJSTo {
            throw ExitCode(Runner.emitJavaScript(text, name: name, to: emitJSTo))
        }
        if emitJS {
            let (status, out) = Runner.emitJavaScript(text, name: name)
            FileHandle.standardOutput.write(Data(out.utf8))
            throw ExitCode(status)
        }
        let session = Session(options: options)
        session.javaScriptMode = js
        session.autoProgress = isatty(2) == 1 && !turns
        let runner = Runner(session: session, renderer: Renderer(colors: colors, jsonLines: json, terminal: tty))
        installInterrupt({ runner.interrupt() }, terminate: { runner.terminate() })
        try startTrace(runner)
        // --html draws the whole run: every statement's events are kept.
        if html != nil { runner.enableTracing().keepsWholeRun = true }
        var status: Int32
        if turns {
            // The program's output is shown in the turns it was written in.
            let shown = runner.runShowingTurns(text, name: name)
            status = shown.status
            FileHandle.standardOutput.write(Data(TurnView.render(shown.turns, colors: colors).utf8))
        } else {
            status = runner.run(text, name: name)
        }
        if let html, let tracer = runner.tracer {
            do {
                try HTMLPage.write(tracer.wholeRun, title: command ?? name, to: html)
            } catch {
                let error = toVowError(error)
                OutputSink.writeError("error[\(error.kind.rawValue)]: \(error.message)\n")
                if status == 0 { status = 1 }
            }
        }
        runner.tracer?.stopFile()
        runner.session.http.shutdown()
        StandardOutputBuffer.shared.flush()
        throw ExitCode(status)
    }
}

nonisolated(unsafe) var interruptSource: DispatchSourceSignal?

nonisolated(unsafe) var terminateSource: DispatchSourceSignal?

/// Ctrl-C cancels the running statement instead of killing vow; for a script, SIGTERM is
/// `terminate` (the statement cancelled, `defer`'s clean-up run, status 143).
func installInterrupt(_ handler: @escaping @Sendable () -> Void, terminate: (@Sendable () -> Void)? = nil) {
    signal(SIGINT, SIG_IGN)
    let src = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    src.setEventHandler(handler: handler)
    src.resume()
    interruptSource = src
    guard let terminate else { return }
    signal(SIGTERM, SIG_IGN)
    let term = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
    term.setEventHandler(handler: terminate)
    term.resume()
    terminateSource = term
}
Vow.main()
