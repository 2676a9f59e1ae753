import CEditLine
import Foundation
import VowRuntime
import VowSyntax

/// The interactive loop: libedit line editing and history, continuation prompts.
public final class REPL: @unchecked Sendable {
    let runner: Runner
    let historyPath: String

    /// Makes a REPL over `runner`.
    public init(runner: Runner) {
        self.runner = runner
        self.historyPath = ProcessInfo.processInfo.environment["VOW_HISTORY"] ?? (NSHomeDirectory() + "/.vow_history")
    }

    /// Runs until Ctrl-D or `:quit`; returns the exit status (0).
    public func run() -> Int32 {
        using_history()
        stifle_history(1000)
        _ = read_history(historyPath)
        defer {
            _ = write_history(historyPath)
            chmod(historyPath, 0o600)
        }
        var buffer = ""
        while true {
            let prompt = buffer.isEmpty ? (runner.session.jobs.pendingCount > 0 ? "vow[\(runner.session.jobs.pendingCount)]> " : "vow> ") : "…> "
            guard let cline = readline(prompt) else {
                print("")
                return ExitStatus.ok
            }
            let line = String(cString: cline)
            free(cline)
            buffer += buffer.isEmpty ? line : "\n" + line
            if buffer.trimmingCharacters(in: .whitespaces).isEmpty {
                buffer = ""
                continue
            }
            if !Parser.isComplete(buffer) { continue }
            let entry = buffer
            buffer = ""
            if !entry.hasPrefix(" ") { add_history(entry) }
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            if trimmed == ":quit" || trimmed == ":q" { return ExitStatus.ok }
            if trimmed == ":clear" {
                print("\u{1B}[H\u{1B}[2J", terminator: "")
                continue
            }
            if trimmed == ":vars" {
                for (n, s) in runner.session.onExecutor({ self.runner.session.variableSummaries() }) { print("$\(n) = \(s)") }
                continue
            }
            if trimmed == ":jobs" {
                for j in runner.session.jobs.all { print("[\(j.id)] \(j.state)  \(j.statement)") }
                continue
            }
            if trimmed.hasPrefix(":load ") {
                let path = String(trimmed.dropFirst(6)).trimmingCharacters(in: .whitespaces)
                if let text = try? String(contentsOfFile: path, encoding: .utf8) { _ = runner.run(text, name: path) } else { FileHandle.standardError.write(Data("error[io]: cannot read \(path)\n".utf8)) }
                continue
            }
            _ = runner.run(entry, name: "<repl>")
        }
    }
}
