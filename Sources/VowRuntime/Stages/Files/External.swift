import Foundation
import Synchronization
import VowPromises
import VowValue

/// A stage that is an executable `vow-NAME` on PATH: it gets the input as JSON on stdin and its
/// arguments (flags included) as its argv; its standard output, parsed as JSON, is the value.
struct ExternalStage: StageDefinition {
    static let name = "vow-NAME"
    /// In the JavaScript twin: no stand-in: an external `vow-NAME` program is not known to the twin.
    static let twin = StageTwin.none
    static let group = StageGroup.files
    static let synopsis = "NAME ARG…"
    static let summary = "An executable vow-NAME on PATH, run as stage NAME."
    static let help = """
        When NAME is not a built-in stage or a def, vow looks for an executable vow-NAME on PATH. It
        runs it (never through a shell) with the stage's arguments, flags included, as its argv,
        writes the input to its stdin as JSON, and parses its stdout as JSON (empty output is null).
        A non-zero exit rejects with kind process (a program killed by a signal: `vow-x killed by
        SIGSEGV`); output that is not JSON rejects with kind json. What it writes to its standard
        error is shown on vow's when it succeeds too. It starts and is stopped as `run`'s program
        is: a process group of its own, a clean signal state, SIGTERM then SIGKILL to the group
        when cancelled (a timeout, Ctrl-C).
        """
    static let examples: [StageExample] = []
    static let argumentStyle = ArgumentStyle.passthrough

    /// The executable for stage `name`, if one is on PATH.
    static func find(_ name: String) -> String? { onPath("vow-" + name) }

    /// The path of the executable `program` on PATH, or nil (a name of letters, digits, `-`,
    /// `_` and `.` only). An unknown stage that is a program says to `run` it.
    static func onPath(_ program: String) -> String? {
        guard !program.isEmpty, program.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else { return nil }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let path = Self.find(call.name) else { throw VowError(.syntax, "unknown stage '\(call.name)'") }
        let ev = Evaluator(session: call.session)
        return call.chain { input in
            var argv = [path]
            for a in call.positional {
                if case .flag(let f) = a.kind {
                    argv.append("--" + f)
                    continue
                }
                let v = try ev.plainArgument(
                    a, input: input, scope: call.scope, site: call.site, problem: "\(call.name): arguments of an external stage must be plain values")
                argv.append(v.stringValue ?? JSONWriter.compact(v))
            }
            let ex = call.session.executor
            let stage = call.name
            // What a stage that succeeds says on its standard error (a warning, progress) is
            // shown on vow's, with control characters made visible.
            let diagnostics = call.session.diagnostics
            let warn: @Sendable (String) -> Void = { text in
                diagnostics.emit(TerminalText.visible(text.hasSuffix("\n") ? text : text + "\n"))
            }
            return .promise(
                runProcess(argv, stdin: Array((JSONWriter.compact(input) + "\n").utf8), name: stage, on: ex, stderr: warn).then(on: ex) { out -> Value in
                    if out.allSatisfy(\.isWhitespace) { return .null }
                    do { return try JSON.parse(out) } catch let error as JSONError {
                        throw VowError(.json, "vow-\(stage) printed something that is not JSON: \(error.message) at line \(error.line), column \(error.column)")
                    }
                })
        }
    }
}
