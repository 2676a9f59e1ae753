import CEditLine
import Foundation
import Synchronization
import VowOpenAPI
import VowRuntime
import VowSyntax
import VowValue

/// The interactive loop, on libedit in callback mode: the loop polls the terminal and a wake-up
/// pipe, so that background job reports and Ctrl-C reach it while a line is being edited; a
/// report is printed above the line, which is then redrawn intact.
///
/// Sendable: its `var`s are touched only by the thread in `run` (libedit's callbacks included).
/// Other threads (Ctrl-C, job reports from the executor) reach it only through `events` (locked),
/// `editing` (atomic) and the wake-up pipe, whose descriptors never change.
public final class REPL: @unchecked Sendable {
    let runner: Runner
    let historyPath: String
    let historySize: Int32 = 1000
    /// Whether a failure to save the history has been said.
    private var historyWarned = false
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let events = Locked<[Event]>([])
    private let editing = Atomic<Bool>(false)
    private var buffer = ""
    private var eofWarned = false
    private var utf8 = true

    enum Event {
        case report(String, toStderr: Bool)
        case interrupt
        case terminate
    }

    /// The REPL that libedit's C callbacks talk to.
    nonisolated(unsafe) static var current: REPL?
    /// The line libedit handed over (`.some(nil)` on end of input).
    nonisolated(unsafe) static var completed: String??
    /// Candidates of the completion in progress.
    nonisolated(unsafe) static var candidates: [String] = []
    nonisolated(unsafe) static var candidateIndex = 0

    /// Where the history is kept: `$VOW_HISTORY`, else `$HOME/.vow_history` (as every shell and the
    /// Node REPL do), else the account's home directory from the password database.
    static func historyPath(_ environment: [String: String]) -> String {
        if let path = environment["VOW_HISTORY"], !path.isEmpty { return path }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.vow_history" }
        return NSHomeDirectory() + "/.vow_history"
    }

    /// Makes a REPL over `runner`; history goes to `$VOW_HISTORY` or `$HOME/.vow_history`.
    public init(runner: Runner) {
        self.runner = runner
        self.historyPath = REPL.historyPath(ProcessInfo.processInfo.environment)
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        wakeRead = fds[0]
        wakeWrite = fds[1]
        _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL) | O_NONBLOCK)
        _ = fcntl(wakeWrite, F_SETFL, fcntl(wakeWrite, F_GETFL) | O_NONBLOCK)
        let r = runner
        runner.reportJob = { [weak self] text, isError in
            guard let self else { return }
            if self.editing.load(ordering: .acquiring) {
                self.post(.report(text, toStderr: isError))
            } else {
                r.printDirect(text, toStderr: isError)
            }
        }
        runner.spinner = isatty(2) == 1
        if runner.spinner { runner.guardOutputAgainstSpinner() }
        runner.waitsForJobs = false
        // The session's events are kept, for `:timeline --turns`; the large values of statements
        // already done are not, and large work runs as in a script (`Tracer.sparesLargeWork`).
        let tracer = runner.enableTracing()
        tracer.keepsWholeRun = true
        tracer.condensesEarlier = true
        tracer.sparesLargeWork = true
    }

    /// Ctrl-C: cancels the running statement, or abandons the line being edited.
    public func interrupt() {
        if runner.isRunning {
            runner.interrupt()
        } else {
            post(.interrupt)
        }
    }

    /// SIGTERM: cancels the running statement and every job, then ends the REPL as Ctrl-D does
    /// (the terminal restored, `defer`'s clean-up run), with status 143.
    public func terminate() {
        if runner.isRunning { runner.terminate() }
        post(.terminate)
    }

    private func post(_ e: Event) {
        events.withLock { $0.append(e) }
        var b: UInt8 = 1
        _ = write(wakeWrite, &b, 1)
    }

    var prompt: String {
        if !stepping.isEmpty { return "step [Enter: next turn, c: the rest, q: stop]> " }
        if !buffer.isEmpty { return utf8 ? "…> " : "...> " }
        let n = runner.session.jobs.pendingCount
        return n > 0 ? "vow[\(n) pending]> " : "vow> "
    }

    private func installHandler() {
        REPL.completed = nil
        rl_callback_handler_install(prompt) { line in
            if let line {
                REPL.completed = .some(String(cString: line))
                free(line)
            } else {
                REPL.completed = .some(nil)
            }
        }
        editing.store(true, ordering: .releasing)
    }

    private func removeHandler() {
        editing.store(false, ordering: .releasing)
        rl_callback_handler_remove()
    }

    /// Runs until Ctrl-D, `:quit` or SIGTERM; returns the exit status (0, or 143 after SIGTERM).
    public func run() -> Int32 {
        REPL.current = self
        // libedit needs a UTF-8 locale for the `…>` prompt and for editing non-ASCII text.
        setlocale(LC_CTYPE, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        utf8 = String(cString: nl_langinfo(nl_item(CODESET))) == "UTF-8"
        // The identifiers of collection responses, offered after `NAME/…/` (only here).
        runner.session.seenIdentifiers.recording = true
        vow_rl_setup { text, start, _ in
            guard let text, let repl = REPL.current else { return nil }
            var word = String(cString: text)
            let bytes = Array(String(cString: vow_rl_line_buffer()).utf8)
            var before = String(decoding: bytes[0..<min(Int(start), bytes.count)], as: UTF8.self)
            // libedit breaks words at `$`: the word is the variable's name after it, and what
            // is offered replaces that name only.
            let afterDollar = before.hasSuffix("$")
            if afterDollar {
                before.removeLast()
                word = "$" + word
            }
            guard var list = repl.completions(word: word, before: before) else {
                vow_rl_append_after_completion(Int32(UInt8(ascii: " ")))
                return nil
            }
            // A variable may go on with `.` and a key, a query parameter's name with its value:
            // no space after them.
            // An API's path may go on with more segments: no space after it either.
            let open = word.hasPrefix("$") || (!list.isEmpty && list.allSatisfy { $0.hasSuffix(":") })
                || (word.contains("/") && !list.isEmpty && list.allSatisfy { $0.contains("/") })
            vow_rl_append_after_completion(open ? 0 : Int32(UInt8(ascii: " ")))
            if afterDollar { list = list.map { $0.hasPrefix("$") ? String($0.dropFirst()) : $0 } }
            vow_rl_completion_over()
            REPL.candidates = list
            REPL.candidateIndex = 0
            return rl_completion_matches(text) { _, state in
                if state == 0 { REPL.candidateIndex = 0 }
                guard REPL.candidateIndex < REPL.candidates.count else { return nil }
                defer { REPL.candidateIndex += 1 }
                return strdup(REPL.candidates[REPL.candidateIndex])
            }
        }
        using_history()
        stifle_history(historySize)
        for entry in history.load().suffix(Int(historySize)) { add_history(entry) }
        installHandler()
        defer {
            removeHandler()
            if let reason = history.trim() { historyFailed(reason) }
            // `defer`'s clean-up runs when the REPL ends.
            runner.runDeferred()
        }
        while true {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, -1)
            if n < 0 { continue }  // EINTR
            if fds[1].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &sink, sink.count) > 0 {}
                for e in events.withLock({ q -> [Event] in defer { q.removeAll() }; return q }) {
                    switch e {
                    case .report(let text, let toStderr):
                        // Above the line being edited, then the line again, intact.
                        FileHandle.standardOutput.write(Data("\r\u{1B}[2K".utf8))
                        runner.printDirect(text, toStderr: toStderr)
                        // The prompt counts pending jobs: drawn again with the count of now.
                        _ = rl_set_prompt(prompt)
                        rl_forced_update_display()
                    case .interrupt:
                        buffer = ""
                        removeHandler()
                        FileHandle.standardOutput.write(Data("^C\n".utf8))
                        installHandler()
                    case .terminate:
                        FileHandle.standardOutput.write(Data("\n".utf8))
                        return terminated()
                    }
                }
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                rl_callback_read_char()
                if fds[0].revents & Int16(POLLIN) == 0, REPL.completed == nil { REPL.completed = .some(nil) }
            }
            guard let done = REPL.completed else { continue }
            REPL.completed = nil
            removeHandler()
            guard let line = done else {
                // Ctrl-D.
                let pending = runner.session.jobs.pendingCount
                if pending > 0 && !eofWarned {
                    eofWarned = true
                    FileHandle.standardOutput.write(Data("\n\(pending) job(s) still pending; Ctrl-D again to exit and cancel them\n".utf8))
                    installHandler()
                    continue
                }
                FileHandle.standardOutput.write(Data("\n".utf8))
                for j in runner.session.jobs.all where j.promise.isPending { j.promise.cancel(reason: "cancelled: vow exited") }
                return ExitStatus.ok
            }
            eofWarned = false
            if handle(line) == .quit { return ExitStatus.ok }
            // SIGTERM cancelled the statement: no prompt after it.
            if runner.terminated.load(ordering: .relaxed) { return terminated() }
            installHandler()
        }
    }

    enum Outcome { case next, quit }

    /// The end after SIGTERM: every job cancelled; the status to exit with (143).
    private func terminated() -> Int32 {
        for j in runner.session.jobs.all where j.promise.isPending { j.promise.cancel(reason: "cancelled: vow was terminated") }
        return ExitStatus.terminated
    }

    /// The turns of the last `:step` not shown yet.
    var stepping: ArraySlice<RecordedTurns.Turn> = []

    /// `:step PIPELINE` (or statements separated by `;`, or `:step FILE.vow`, a whole script):
    /// runs it, recording every event, its output held back; then shows it turn by turn, a turn
    /// for each Enter.
    func step(_ text: String) {
        guard !text.isEmpty else {
            runner.printDirect("error[syntax]: :step needs a pipeline, statements separated by ';' or a FILE.vow, e.g. :step resolve 1 | then (resolve 2) | print", toStderr: true)
            return
        }
        var program = text, name = "<repl>"
        if text.hasSuffix(".vow"), !text.contains("|"), !text.contains(" ") || FileManager.default.fileExists(atPath: text) {
            do {
                program = try Files.program(text)
                name = text
            } catch {
                runner.printDirect("error[\(error.kind.rawValue)]: \(error.message)", toStderr: true)
                return
            }
        }
        // Stepped as a script runs: to the end of its background jobs, so that chains taking
        // turns and their timers are all in the record.
        let waited = runner.waitsForJobs
        runner.waitsForJobs = true
        let recorded = runner.runShowingTurns(program, name: name).turns
        runner.waitsForJobs = waited
        print(TurnView.legend(recorded, colors: runner.renderer.colors), terminator: "")
        stepping = TurnView.shown(recorded)[...]
        showTurns(1)
    }

    /// Shows the next `count` turns of `:step` (all of them for `Int.max`).
    func showTurns(_ count: Int) {
        var n = count
        while n > 0, let t = stepping.first {
            stepping = stepping.dropFirst()
            print(TurnView.render(t, colors: runner.renderer.colors), terminator: "")
            n -= 1
        }
        if stepping.isEmpty { print("(end of the run)") }
    }

    /// One line from the editor: continues an unfinished statement or runs a finished one.
    func handle(_ line: String) -> Outcome {
        if !stepping.isEmpty && buffer.isEmpty {
            switch line.trimmingCharacters(in: .whitespaces) {
            case "": showTurns(1); return .next
            case "c": showTurns(Int.max); return .next
            case "q": stepping = []; return .next
            default: stepping = []
            }
        }
        buffer += buffer.isEmpty ? line : "\n" + line
        if buffer.trimmingCharacters(in: .whitespaces).isEmpty {
            buffer = ""
            return .next
        }
        if !Parser.isComplete(buffer) { return .next }
        let entry = buffer
        buffer = ""
        if !entry.hasPrefix(" ") {
            add_history(entry)
            if let reason = history.append(entry) { historyFailed(reason) }
        }
        var trimmed = entry.trimmingCharacters(in: .whitespaces)
        var statement = entry
        // `exit`, `quit` and `help` typed as a shell takes them mean what they say.
        if let word = trimmed.split(separator: " ").first, ["exit", "quit", "help"].contains(word) {
            trimmed = ":" + trimmed
            statement = trimmed
        }
        let (command, argument) = splitMeta(trimmed)
        switch command {
        case ":quit", ":q", ":exit": return .quit
        case ":clear":
            FileHandle.standardOutput.write(Data("\u{1B}[H\u{1B}[2J".utf8))
        case ":vars":
            let vars = runner.session.onExecutor { self.runner.session.variableSummaries() }
            if vars.isEmpty { print("no variables") }
            for (n, s) in vars { print("$\(n) = \(s)") }
        case ":jobs":
            _ = runner.run("jobs", name: "<repl>")
        case ":step":
            step(argument)
        case ":history":
            if let list = history_list() {
                var i = 0
                while let entry = list[i] {
                    print(String(format: "%5d  ", i + 1) + String(cString: entry.pointee.line))
                    i += 1
                }
            }
        case ":load":
            guard !argument.isEmpty else {
                runner.printDirect("error[syntax]: :load needs a FILE", toStderr: true)
                break
            }
            do {
                _ = runner.run(try Files.program(argument), name: argument)
            } catch {
                runner.printDirect("error[\(error.kind.rawValue)]: \(error.message)", toStderr: true)
            }
        default:
            _ = runner.run(statement, name: "<repl>")
        }
        fflush(nil)
        return .next
    }

    func splitMeta(_ s: String) -> (String, String) {
        guard s.hasPrefix(":") else { return ("", s) }
        let parts = s.split(separator: " ", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
    }

    /// Completion candidates for `word`, given the line before it; nil means file names.
    func completions(word: String, before: String) -> [String]? {
        let session = runner.session
        // `$name.` and more: the keys of the value the variable holds now, one level at a time.
        if word.hasPrefix("$"), let dot = word.lastIndex(of: ".") {
            let path = word[word.index(after: word.startIndex)..<dot].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let value: Value? = session.onExecutor {
                guard var v = session.settledValue(of: path[0]) else { return nil }
                for key in path.dropFirst() {
                    guard case .record(let r) = v, let next = r[key] else { return nil }
                    v = next
                }
                return v
            }
            guard case .record(let r)? = value else { return [] }
            let head = String(word[...dot])
            return Completer.keyCandidates(word: word, head: head, keys: r.keys)
        }
        // `NAME/…`: the paths of the operations of the API NAME's description.
        if let slash = word.firstIndex(of: "/"), let api = session.apis.described(String(word[..<slash])), let description = api.description {
            let seen = session.seenIdentifiers
            return Completer.pathCandidates(word: word, api: api.name, paths: description.operations.map(\.path)) { seen.identifiers(at: api.base + $0) }
        }
        // Inside `--query {` of a request to an API with a description: the names of the
        // operation's query parameters.
        if let names = queryParameterNames(before: before) {
            return names.map { $0 + ":" }.filter { $0.hasPrefix(word) }
        }
        let stageWords = Completer.stageWords(before: before)
        // `op NAME.OPERATION … --` and Tab: the operation's query parameters, then op's flags.
        if word.hasPrefix("-"), stageWords.count >= 2, stageWords[0] == "op", let (_, op) = session.apis.operation(stageWords[1]) {
            let own = session.registry.stage(named: "op")?.flags.map { "--" + $0.name } ?? []
            let all = op.parameters.filter { $0.location == "query" }.map { "--" + $0.name } + own
            return all.filter { $0.hasPrefix(word) }
        }
        // `op ` and Tab: NAME.OPERATION for each operation of each API with a description.
        if !word.hasPrefix("-"), stageWords.last == "op" {
            var all: [String] = []
            for name in session.apis.all().keys {
                for op in session.apis.described(name)?.description?.operations ?? [] { if let id = op.operationId { all.append(name + "." + id) } }
            }
            return all.filter { $0.hasPrefix(word) }.sorted()
        }
        let variables: [String] = session.onExecutor { session.variableNames }
        let defs: [String] = session.onExecutor { session.userStageNames }
        let registry = session.registry
        var stageNames: [String] = defs
        for s in registry.stages { stageNames.append(s.name) }
        var jobIDs: [Int] = []
        for j in session.jobs.all { jobIDs.append(j.id) }
        func flagNames(_ name: String) -> [String] {
            guard let stage = registry.stage(named: name) else { return [] }
            var out: [String] = []
            for f in stage.flags { out.append(f.name) }
            return out
        }
        return Completer.candidates(
            word: word, before: before, stages: stageNames, flags: flagNames, variables: variables, jobs: jobIDs,
            wrappers: registry.namesTakingAStage)
    }

    /// The query parameters of the operation a request being typed calls, when the cursor is
    /// inside its `--query {…}`: `op NAME.OPERATION …` or an HTTP stage's `NAME/PATH` (matched
    /// against the paths of the description, `{id}` matching any segment, and the stage's
    /// method); nil elsewhere.
    func queryParameterNames(before: String) -> [String]? {
        guard let q = before.range(of: "--query {", options: .backwards), !before[q.upperBound...].contains("}") else { return nil }
        let stage = before[..<q.lowerBound].split(separator: "|").last.map(String.init) ?? ""
        let words = stage.split(separator: " ").map(String.init)
        guard words.count >= 2 else { return nil }
        var operation: APIOperation?
        if words[0] == "op" {
            operation = runner.session.apis.operation(words[1])?.operation
        } else if let method = ["fetch": "GET", "get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "paginate": "GET"][words[0]],
            let slash = words[1].firstIndex(of: "/"), let d = runner.session.apis.described(String(words[1][..<slash]))?.description
        {
            let path = words[1][slash...].split(separator: "?").first.map(String.init) ?? ""
            let given = path.split(separator: "/")
            operation = d.operations.first { op in
                let template = op.path.split(separator: "/")
                return op.method == method && template.count == given.count
                    && zip(template, given).allSatisfy { t, g in t == g || (t.hasPrefix("{") && t.hasSuffix("}")) }
            }
        }
        guard let operation else { return nil }
        return operation.parameters.filter { $0.location == "query" }.map(\.name)
    }

    /// The history file (`HistoryFile`): each entry appended as it is typed.
    private var history: HistoryFile { HistoryFile(path: historyPath, limit: Int(historySize)) }

    /// Says once that the history cannot be saved, and why.
    private func historyFailed(_ reason: String) {
        guard !historyWarned else { return }
        historyWarned = true
        runner.printDirect("warning: the history cannot be saved in \(historyPath): \(reason)", toStderr: true)
    }
}

/// Tab completion: stage names, flags of the stage being typed, `$variables`, `%jobs` and
/// meta-commands; nil where file names are expected.
public enum Completer {
    /// The meta-commands.
    public static let metaCommands = [":help", ":explain", ":mode", ":trace", ":timeline", ":step", ":vars", ":jobs", ":session", ":set", ":load", ":history", ":clear", ":quit"]
    /// `head` (`$user.`) followed by each key of a record that makes a candidate starting with
    /// `word`, sorted; a key that is not a plain name is left out (it cannot follow a dot).
    public static func keyCandidates(word: String, head: String, keys: [String]) -> [String] {
        keys.filter { k in !k.isEmpty && k.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(k.first?.isNumber ?? true) }
            .map { head + $0 }.filter { $0.hasPrefix(word) }.sorted()
    }

    /// `api/PATH` for each path of the API `api`'s operations that goes on from what `word`
    /// has typed, once each, in the order the description gives them: the segments typed are
    /// kept (a value typed where the path has a parameter matches it), the rest of the path
    /// follows with its parameters as placeholders (`{petId}`), and where the next segment is a
    /// parameter, the identifiers `values` gives for the path typed so far (what the latest
    /// response there held) come first.
    public static func pathCandidates(word: String, api: String, paths: [String], values: (String) -> [String] = { _ in [] }) -> [String] {
        let typed = word.dropFirst(api.count)
        let segments = typed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "/buckets/sh": "", "buckets", "sh": the complete ones, and the one being typed.
        let complete = Array(segments.dropFirst().dropLast())
        let prefix = complete.map { "/" + $0 }.joined()
        var seen = Set<String>()
        var out: [String] = []
        func add(_ c: String) { if c.hasPrefix(word), seen.insert(c).inserted { out.append(c) } }
        for path in paths {
            let template = path.split(separator: "/").map(String.init)
            guard template.count > complete.count,
                zip(template, complete).allSatisfy({ t, c in t == c || (t.hasPrefix("{") && t.hasSuffix("}")) })
            else { continue }
            let next = template[complete.count]
            if next.hasPrefix("{") && next.hasSuffix("}") {
                for v in values(prefix) { add(api + prefix + "/" + v) }
            }
            add(api + prefix + "/" + template[complete.count...].joined(separator: "/"))
        }
        return out
    }

    /// The words of the stage being typed: after the last `|`, `(`, `[`, `{`, `,` or `;`.
    public static func stageWords(before: String) -> [String] {
        let tail = before.split(omittingEmptySubsequences: false) { "|([{,;".contains($0) }.last.map(String.init) ?? before
        return tail.split(separator: " ").map(String.init)
    }

    /// The candidates that start with `word`, sorted; nil to complete file names instead.
    /// `wrappers` are the stages whose arguments start another stage (`then`, `each`: after
    /// them come stage names, and their flags join the inner stage's).
    public static func candidates(
        word: String, before: String, stages: [String], flags: (String) -> [String], variables: [String], jobs: [Int],
        wrappers: Set<String>
    ) -> [String]? {
        func matching(_ all: [String]) -> [String] { Array(Set(all.filter { $0.hasPrefix(word) })).sorted() }
        if word.hasPrefix("$") { return matching(variables.map { "$" + $0 }) }
        if word.hasPrefix("%") { return matching(jobs.map { "%\($0)" }) }
        let statementStart = before.trimmingCharacters(in: .whitespaces).isEmpty
        if word.hasPrefix(":") && statementStart { return matching(metaCommands) }
        let words = stageWords(before: before)
        if word.hasPrefix("-") {
            var names: [String] = []
            for w in words where !w.hasPrefix("-") {
                names += flags(w).map { "--" + $0 }
                if !wrappers.contains(w) && !names.isEmpty { break }
            }
            return matching(names)
        }
        if words.isEmpty || (words.count == 1 && wrappers.contains(words[0])) || (words.last.map { wrappers.contains($0) } ?? false) {
            var all = stages
            if statementStart { all += ["let", "def"] }
            return matching(all)
        }
        return nil
    }
}
