import Dispatch
import Foundation
import Synchronization
import VowPromises
import VowRuntime
import VowSyntax
import VowValue
import VowHTTP

extension Runner {
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
            // A script's meta-command runs on the executor already; the REPL's does not.
            let known = session.executor.isCurrent
                ? (session.promiseVariableNames, session.defs) : session.onExecutor { (self.session.promiseVariableNames, self.session.defs) }
            let (promises, defs) = known
            if asJavaScript {
                return JavaScriptTwin.pipeline(pipeline, source: source, registry: session.registry, promises: promises, defs: defs)
            }
            return Explainer.explain(
                pipeline, source: source, javaScriptMode: session.javaScriptMode, registry: session.registry, promises: promises, defs: defs)
        } catch {
            errorSink(error.render(source: source, colors: renderer.colors))
            return nil
        }
    }

    /// `:timeline --html FILE`: the page of the last statement's events, written to FILE.
    func writePage(_ argument: Substring, _ tracer: Tracer) -> String? {
        let path = argument.trimmingCharacters(in: .whitespaces)
        guard argument.first == " ", !path.isEmpty else {
            errorSink("error[syntax]: :timeline --html FILE")
            return nil
        }
        do {
            try HTMLPage.write(Tracer.numberedFromOne(tracer.entries), title: "the last statement", to: path)
            return "page written to \(path)"
        } catch {
            errorSink(renderer.error(toVowError(error)))
            return nil
        }
    }

    /// The meta-commands a script (or `-c`) may use; `meta` runs them.
    static let scriptMetaCommands: Set<String> = ["help", "explain", "mode", "set", "session", "timeline", "trace"]
    /// The meta-commands only the REPL runs (it handles them before the runner sees the line).
    static let replMetaCommands: Set<String> = ["quit", "q", "exit", "clear", "vars", "jobs", "history", "load", "step"]

    /// Meta-commands available outside the REPL: `:help [stage]`.
    func meta(_ name: String, _ argument: String) -> String? {
        switch name {
        case "help":
            // `:help NAME.OPERATION`: an operation of an API's description.
            if let (api, op) = session.apis.operation(argument) { return Help.operation(op, api: api.name) }
            if let dot = argument.firstIndex(of: "."), let api = session.apis.described(String(argument[..<dot])), api.description != nil {
                return "the API \(api.name) has no operation '\(argument[argument.index(after: dot)...])' (api show \(api.name) lists them)"
            }
            return Help.text(for: argument.isEmpty ? nil : argument, registry: session.registry)
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
                let s: HTTPSession
                do {
                    s = try session.httpSessions.session(name)
                } catch var e as VowError where e.awaitsStageName {
                    e.message = ":session: " + e.message
                    throw e
                }
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
            if argument.hasPrefix("--html") { return writePage(argument.dropFirst(6), tracer) }
            let columns = Renderer.terminalSize().columns
            switch argument.trimmingCharacters(in: .whitespaces) {
            case "": break
            case "--turns": return TurnTimeline.render(tracer.wholeRun, width: max(40, columns), colors: renderer.colors)
            default:
                errorSink("error[syntax]: :timeline | :timeline --turns | :timeline --html FILE")
                return nil
            }
            return Timeline.render(Tracer.numberedFromOne(tracer.entries), width: max(40, columns), colors: renderer.colors)
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
