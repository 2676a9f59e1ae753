import Dispatch
import Foundation
import VowRuntime
import VowShell

/// The vow command line: what its options ask for, run.
struct Vow {
    let options: CommandLineOptions
    var command: String? { options.command }
    var json: Bool { options.json }
    var trace: String? { options.trace }
    var turns: Bool { options.turns }
    var html: String? { options.html }
    var js: Bool { options.js }
    var emitJS: Bool { options.emitJS }
    var emitJSTo: String? { options.emitJSTo }
    var color: String { options.color }
    var script: [String] { options.script }

    /// The process's exit with `status`, its output written first.
    struct Exit: Error {
        let status: Int32
    }

    /// `--trace FILE`: records the run through the promise core's observer hook.
    func startTrace(_ runner: Runner) throws {
        guard let trace else { return }
        do {
            try runner.enableTracing().startFile(trace)
        } catch {
            OutputSink.writeError("error[io]: cannot create the trace file \(trace)\n")
            throw Exit(status: 1)
        }
    }

    func run() throws {
        var options = SessionOptions()
        let tty = isatty(1) == 1
        let colors: Bool
        switch color {
        case "always": colors = true
        case "never": colors = false
        // A dumb terminal understands no escape sequence: no colours (and no live region).
        case "auto": colors = tty && getenv("NO_COLOR") == nil && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        default: colors = false  // refused when the command line was read
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
                throw Exit(status: error.kind == .syntax ? 2 : 1)
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
            Signals.take(interrupt: { repl.interrupt() }, terminate: { repl.terminate() })
            let status = repl.run()
            runner.tracer?.stopFile()
            runner.session.http.shutdown(within: 0.1)
            StandardOutputBuffer.shared.flush()
            throw Exit(status: status)
        }
        if let emitJSTo {
            throw Exit(status: Runner.emitJavaScript(text, name: name, to: emitJSTo))
        }
        if emitJS {
            let (status, out) = Runner.emitJavaScript(text, name: name)
            StandardOutputBuffer.writeAll(Array(out.utf8), to: 1)
            throw Exit(status: status)
        }
        let session = Session(options: options)
        session.javaScriptMode = js
        session.autoProgress = isatty(2) == 1 && !turns
        let runner = Runner(session: session, renderer: Renderer(colors: colors, jsonLines: json, terminal: tty))
        runner.keepsWhatItRanUntilExit = true
        Signals.take(interrupt: { runner.interrupt() }, terminate: { runner.terminate() })
        try startTrace(runner)
        // --html draws the whole run: every statement's events are kept.
        if html != nil { runner.enableTracing().keepsWholeRun = true }
        var status: Int32
        // The text is kept after the run only for the page's twin; else the run holds it once,
        // as its SourceText's bytes (a script of a million stages is 9 MB of text).
        let pageText = html != nil ? text : nil
        if turns {
            // The program's output is shown in the turns it was written in.
            let shown = runner.runShowingTurns(text, name: name)
            status = shown.status
            StandardOutputBuffer.writeAll(Array(TurnView.render(shown.turns, colors: colors).utf8), to: 1)
        } else {
            status = runner.run(consume text, name: name)
        }
        if let html, let pageText, let tracer = runner.tracer {
            do {
                try HTMLPage.write(tracer.wholeRun, title: command ?? name, twin: Runner.twinForPage(pageText, name: name), to: html)
            } catch {
                let error = toVowError(error)
                OutputSink.writeError("error[\(error.kind.rawValue)]: \(error.message)\n")
                if status == 0 { status = 1 }
            }
        }
        runner.tracer?.stopFile()
        runner.session.http.shutdown(within: 0.1)
        StandardOutputBuffer.shared.flush()
        throw Exit(status: status)
    }
}

/// Reads the command line and runs what it asks for.
func main() -> Never {
    Signals.hold()
    OutputFailure.reserveClosedStreams()
    let parsed: (CommandLineOptions, CommandLineOptions.Request)
    do {
        parsed = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        OutputSink.writeError(CommandLineOptions.report(error))
        exit(64)
    }
    switch parsed.1 {
    case .help:
        print(CommandLineOptions.help, terminator: "")
        exit(0)
    case .version:
        print(CommandLineOptions.version, terminator: "")
        exit(0)
    case .run:
        Signals.listen()
        var status: Int32
        do {
            try Vow(options: parsed.0).run()
            status = 0
        } catch let e as Vow.Exit {
            status = e.status
        } catch {
            OutputSink.writeError("Error: \(error)\n")
            status = 1
        }
        // Nothing vow started outlives it: a program still running (cancelled, or left behind by
        // an interrupted script) is stopped and reaped first.
        ChildProcess.endAll()
        exit(OutputFailure.finalStatus(status))
    }
}

main()
