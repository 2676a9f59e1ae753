import Foundation
import TestSupport
@testable import VowRuntime
import XCTest

@testable import VowShell

/// The REPL through a real pseudo-terminal: the built `vow` binary, libedit and all.
final class REPLTests: XCTestCase {
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["VOW_BINARY"] { return path }
        // The test runner sits beside the built products.
        let runner = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        for dir in [runner.deletingLastPathComponent(), Bundle(for: REPLTests.self).bundleURL, Bundle(for: REPLTests.self).bundleURL.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("vow").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return runner.deletingLastPathComponent().appendingPathComponent("vow").path
    }

    var historyFile = ""

    override func setUp() {
        historyFile = NSTemporaryDirectory() + "vow-history-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: historyFile)
    }

    func start(_ env: [String: String] = [:]) throws -> PseudoTerminal {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.binary), "no vow binary at \(Self.binary)")
        var environment = ["VOW_HISTORY": historyFile]
        for (k, v) in env { environment[k] = v }
        let t = try PseudoTerminal(Self.binary, [], environment: environment)
        XCTAssertTrue(t.waitFor("vow> "), "first prompt; got: \(t.plainOutput)")
        // libedit sets the terminal up right after printing the prompt; keys typed within
        // microseconds of it can meet the terminal mid-change, which no person can do.
        Thread.sleep(forTimeInterval: 0.1)
        return t
    }

    /// Ctrl-D at a fresh prompt (typed ahead while a statement runs, the terminal is not yet
    /// back in editing mode); returns the exit status.
    func quit(_ t: PseudoTerminal) -> Int32? {
        t.clear()
        t.type("\r")
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        // The prompt seen may be the one of the statement before, the terminal still being set
        // up: a Ctrl-D that meets it in the cooked mode is an end of file the raw mode drops.
        Thread.sleep(forTimeInterval: 0.1)
        t.type("\u{4}")
        return t.waitExit()
    }

    func test_typingAPipelinePrintsItsResult() throws {
        let t = try start()
        t.clear()
        t.type("echo [1, 2] | len | format \"n={}\"\r")
        XCTAssertTrue(t.waitFor("n=2"), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    /// `$HOME` is honoured for the history file, as every shell does; `VOW_HISTORY` still wins.
    func test_historyGoesUnderHOME() throws {
        let home = NSTemporaryDirectory() + "vow-home-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        XCTAssertEqual(REPL.historyPath(["HOME": home]), home + "/.vow_history")
        XCTAssertEqual(REPL.historyPath(["HOME": home, "VOW_HISTORY": "/x/h"]), "/x/h")
        let t = try start(["VOW_HISTORY": "", "HOME": home])
        t.type("echo kept-under-home\r")
        XCTAssertTrue(t.waitFor("kept-under-home\n"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
        XCTAssertTrue(try String(contentsOfFile: home + "/.vow_history", encoding: .utf8).contains("kept-under-home"))
    }

    func test_historyIsWrittenPrivateAndRecalledInTheNextSession() throws {
        let t = try start()
        t.type("echo remembered-entry\r")
        XCTAssertTrue(t.waitFor("remembered-entry\n"))
        XCTAssertEqual(quit(t), 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: historyFile)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertTrue(try String(contentsOfFile: historyFile, encoding: .utf8).contains("remembered-entry"))

        let second = try start()
        second.clear()
        second.type("\u{1B}[A")  // up arrow
        XCTAssertTrue(second.waitFor("echo remembered-entry"), second.plainOutput)
        second.type("\r")
        XCTAssertTrue(second.waitFor("remembered-entry\n"), second.plainOutput)
        XCTAssertEqual(quit(second), 0)
    }

    /// A line typed with a leading space is not saved (bash and zsh's convention): a token given
    /// that way stays out of the history file.
    func test_aLineWithALeadingSpaceIsNotSaved() throws {
        let t = try start()
        t.type(" echo s3cret-token\r")
        XCTAssertTrue(t.waitFor("s3cret-token\n"), t.plainOutput)
        t.type("echo kept-entry\r")
        XCTAssertTrue(t.waitFor("kept-entry\n"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
        let saved = try String(contentsOfFile: historyFile, encoding: .utf8)
        XCTAssertTrue(saved.contains("kept-entry"), saved)
        XCTAssertFalse(saved.contains("s3cret-token"), saved)
    }

    /// After a background job ends, the prompt is drawn again with the count of now; `print`
    /// under a spinner never shares its line.
    func test_thePromptCountsJobsOfNowAndPrintErasesTheSpinner() throws {
        let t = try start()
        t.type("delay 300ms x &\r")
        XCTAssertTrue(t.waitFor("vow[1 pending]> "), t.plainOutput)
        t.clear()
        XCTAssertTrue(t.waitFor("[1] fulfilled"), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("pending]"), t.plainOutput)
        t.clear()
        t.type("echo [1, 2, 3] | each (delay 300ms | print) --limit 1 | len\r")
        XCTAssertTrue(t.waitFor("3\n", timeout: 5), t.plainOutput)
        // A printed item right after a spinner's time ("0.3s1") shared its line.
        XCTAssertNil(t.output.range(of: #"[0-9]s[123]\r?\n"#, options: .regularExpression), t.output)
        XCTAssertEqual(quit(t), 0)
    }

    func test_tabCompletesStageNames() throws {
        let t = try start()
        t.clear()
        t.type("fet\t")
        // The completion redraws with cursor moves; running the line shows what it became.
        XCTAssertTrue(t.waitFor("ch"), t.plainOutput)
        t.type("\r")
        XCTAssertTrue(t.waitFor("error[type]: fetch: missing URL"), t.plainOutput)
        t.clear()
        t.type("echo 1 | ea\t")
        XCTAssertTrue(t.waitFor("ch"), t.plainOutput)
        t.type("\u{3}")
        XCTAssertTrue(t.waitFor("^C\nvow> "), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    /// `$` and Tab complete a variable (libedit breaks words at `$`; it offered file names), with
    /// no space after it, and `$name.` and Tab the keys of the value it holds, level by level.
    func test_tabCompletesVariablesAndTheirKeys() throws {
        let t = try start()
        t.type("let abc = echo {xyz: 1, xzz: {deep: 2}}\r")
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        t.clear()
        t.type("echo $ab\t")
        XCTAssertTrue(t.waitFor("c"), t.plainOutput)
        t.type(".xz\t")
        XCTAssertTrue(t.waitFor("z"), t.plainOutput)
        t.type(".\t")
        XCTAssertTrue(t.waitFor("deep"), t.plainOutput)
        t.type("\r")
        XCTAssertTrue(t.waitFor("2\n"), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("error"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    func test_keyCandidatesArePlainNamesThatFollowTheDot() {
        XCTAssertEqual(Completer.keyCandidates(word: "$u.n", head: "$u.", keys: ["name", "nick", "age", "n-dash", "1st", ""]), ["$u.name", "$u.nick"])
        XCTAssertEqual(Completer.keyCandidates(word: "$u.", head: "$u.", keys: ["b", "a"]), ["$u.a", "$u.b"])
    }

    func test_continuationPrompt() throws {
        let t = try start()
        t.type("echo [1, 2, 3] |\r")
        XCTAssertTrue(t.waitFor("…> "), t.plainOutput)
        t.type("len\r")
        XCTAssertTrue(t.waitFor("3\n"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    func test_ctrlCCancelsARunningStatementQuickly() throws {
        let t = try start()
        t.type("delay 10s\r")
        Thread.sleep(forTimeInterval: 0.3)
        t.clear()
        let start = Date()
        t.type("\u{3}")
        XCTAssertTrue(t.waitFor("cancelled", timeout: 5), t.plainOutput)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "cancelled, not waited for (the delay is 10 s)")
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        t.clear()
        t.type("echo still-alive\r")
        XCTAssertTrue(t.waitFor("still-alive\n"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    /// A statement whose result is a stream being printed stops at Ctrl-C like any other, and
    /// the next prompt is not cancelled by a leftover interrupt.
    func test_ctrlCStopsAPrintingStream() throws {
        let t = try start()
        t.type("run sh -c 'while true; do echo tick; sleep 0.1; done' --stream\r")
        XCTAssertTrue(t.waitFor("tick\n", timeout: 5), t.plainOutput)
        t.type("\u{3}")
        XCTAssertTrue(t.waitFor("cancelled", timeout: 2), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        Thread.sleep(forTimeInterval: 0.3)
        t.clear()
        t.type("echo still-alive\r")
        XCTAssertTrue(t.waitFor("still-alive\n"), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("tick"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    func test_ctrlCDuringAStalledFetchClosesTheConnection() throws {
        let server = try FixtureServer.start()
        defer { server.shutdown() }
        let t = try start()
        t.type("fetch \(server.base)/stall\r")
        Thread.sleep(forTimeInterval: 0.3)
        let closedBefore = server.closedConnections
        t.type("\u{3}")
        XCTAssertTrue(t.waitFor("cancelled", timeout: 2), t.plainOutput)
        XCTAssertTrue(server.waitForClosedConnections(closedBefore + 1), "the server saw the close")
        XCTAssertEqual(quit(t), 0)
    }

    func test_ctrlCStopsAStreamAndTheServerSeesTheConnectionClosed() throws {
        let server = try FixtureServer.start()
        defer { server.shutdown() }
        let t = try start()
        t.type("fetch \(server.base)/sse?n=1000&ms=100 --stream | each (pick data.i | print)\r")
        XCTAssertTrue(t.waitFor("2\n", timeout: 5), t.plainOutput)
        t.type("\u{3}")
        XCTAssertTrue(t.waitFor("cancelled", timeout: 2), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        let deadline = Date().addingTimeInterval(5)
        while server.hits("sse-abandoned") == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(server.hits("sse-abandoned"), 1, "the server saw the close")
        XCTAssertEqual(quit(t), 0)
    }

    func test_jobResultPrintsAboveAHalfTypedLineWhichStaysIntact() throws {
        let t = try start()
        t.type("delay 600ms done-job &\r")
        XCTAssertTrue(t.waitFor("[1] started"), t.plainOutput)
        // The prompt is back at once, while the job runs.
        XCTAssertTrue(t.waitFor("vow[1 pending]> ", timeout: 0.5), t.plainOutput)
        Thread.sleep(forTimeInterval: 0.1)
        t.type("echo half")
        XCTAssertTrue(t.waitFor("[1] fulfilled: \"done-job\"", timeout: 5), t.plainOutput)
        // The line is redrawn after the report, and finishing it runs the whole line.
        t.clear()
        t.type("-typed\r")
        XCTAssertTrue(t.waitFor("half-typed\n"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    func test_ctrlCOnAnEmptyLineAndOnAContinuationIsHarmless() throws {
        let t = try start()
        t.type("\u{3}")
        XCTAssertTrue(t.waitFor("^C\nvow> "), t.plainOutput)
        t.type("echo [1,\r")
        XCTAssertTrue(t.waitFor("…> "), t.plainOutput)
        t.clear()
        t.type("\u{3}")
        XCTAssertTrue(t.waitFor("^C\nvow> "), t.plainOutput)
        t.clear()
        t.type("echo fresh\r")
        XCTAssertTrue(t.waitFor("fresh\n"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    func test_errorsNeverEndTheSessionOrLoseItsVariables() throws {
        let t = try start()
        t.type("let x = resolve 5\r")
        t.type("fetch http://127.0.0.1:1/\r")
        XCTAssertTrue(t.waitFor("error[network]: connection refused"), t.plainOutput)
        t.type("echo {\"a\": 1\r")
        t.type("}\r")
        t.type("nosuchstage\r")
        XCTAssertTrue(t.waitFor("unknown stage 'nosuchstage'"), t.plainOutput)
        t.type("delay soon\r")
        XCTAssertTrue(t.waitFor("error[type]"), t.plainOutput)
        t.clear()
        t.type("$x | format \"x is {}\"\r")
        XCTAssertTrue(t.waitFor("x is 5"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    /// `:step` shows the start, then a turn for each Enter, the rest with `c`; the output is in
    /// the turns, and a statement typed after it runs as usual.
    func test_stepShowsTheRunTurnByTurn() throws {
        let t = try start()
        t.clear()
        t.type(":step resolve null | print first | print second\r")
        XCTAssertTrue(t.waitFor("step [Enter"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("start"), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("turn 1  "), t.plainOutput)
        t.type("\r")
        XCTAssertTrue(t.waitFor("prints first"), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("prints second"), t.plainOutput)
        t.type("c\r")
        XCTAssertTrue(t.waitFor("(end of the run)"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("prints second"), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        t.clear()
        t.type("echo after-step\r")
        XCTAssertTrue(t.waitFor("after-step\n"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    /// `:step` on a promise an earlier statement settled tells it as settled (as `vow --turns`
    /// does for the same program in one run), not as pending.
    func test_stepKnowsAnEarlierStatementsPromiseIsSettled() throws {
        let t = try start()
        t.type("let rejected = reject oops\r")
        XCTAssertTrue(t.waitFor("rejected here"), t.plainOutput)
        t.clear()
        t.type(":step promise (print executor) $rejected | catch print \"caught {message}\"\r")
        XCTAssertTrue(t.waitFor("step [Enter"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("is rejected already"), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("is pending"), t.plainOutput)
        t.type("c\r")
        XCTAssertTrue(t.waitFor("(end of the run)"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("it is rejected already, so the turn that settles p2 is queued now"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("did (rejected)"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("prints caught oops"), t.plainOutput)
        // One record feeds every view: the chart of the session puts the print in the start of
        // the stepped statement, where :step showed it (it used to be "vow's step after the start").
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        t.clear()
        t.type(":timeline --turns\r")
        XCTAssertTrue(t.waitFor("what did not fit"), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("  the start prints executor"), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("vow's step after the start prints executor"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    /// `:step FILE.vow` steps a whole script: two chains taking turns, timers included.
    func test_stepTakesAWholeScript() throws {
        let t = try start()
        t.clear()
        t.type(":step " + projectRoot.appendingPathComponent("examples/puzzles/nested-timers.vow").path + "\r")
        XCTAssertTrue(t.waitFor("step [Enter"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("promises"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("timers: p1 due 1 ms after the start"), t.plainOutput)
        t.type("c\r")
        XCTAssertTrue(t.waitFor("(end of the run)"), t.plainOutput)
        let printed = t.plainOutput.split(separator: "\n").compactMap { line -> String? in
            let l = line.trimmingCharacters(in: .whitespaces)
            return l.hasPrefix("prints ") ? String(l.dropFirst(7)) : nil
        }
        XCTAssertEqual(printed, ["sync first", "a", "b", "f", "c", "d", "e"], t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }

    /// `:step` on a pipeline the stepping lesson gives steps through its turns (the handler, the
    /// attaching, the settling, the next handler), and `:timeline --turns` afterwards draws it.
    func test_stepOnAPipelineOfTheSteppingLesson() throws {
        let lesson = try String(contentsOf: projectRoot.appendingPathComponent("examples/lessons/18-stepping.vow"), encoding: .utf8)
        guard let line = lesson.split(separator: "\n").first(where: { $0.hasPrefix("#     :step ") && $0.contains("then do") }) else {
            return XCTFail("the lesson gives no :step with a returned promise")
        }
        let command = line.dropFirst(6)
        let t = try start()
        t.clear()
        t.type(command + "\r")
        XCTAssertTrue(t.waitFor("step [Enter"), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("turn 1  "), t.plainOutput)
        t.type("\r")
        XCTAssertTrue(t.waitFor("prints c0"), t.plainOutput)
        t.type("\r")
        XCTAssertTrue(t.waitFor("PromiseResolveThenableJob"), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("turn 3  "), t.plainOutput)
        t.type("\r")
        XCTAssertTrue(t.waitFor("did (fulfilled)"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("turn 3  "), t.plainOutput)
        XCTAssertFalse(t.plainOutput.contains("prints c 4"), t.plainOutput)
        t.type("c\r")
        XCTAssertTrue(t.waitFor("(end of the run)"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("prints c 4"), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        t.clear()
        t.type(":timeline --turns\r")
        XCTAssertTrue(t.waitFor("Every job of the run by turn"), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("then do (print c0)"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("PromiseResolveThenableJob") == false, "the chart, not the turns")
        XCTAssertEqual(quit(t), 0)
    }

    func test_metaCommands() throws {
        let t = try start()
        t.type("let x = resolve 5\r")
        t.type(":vars\r")
        XCTAssertTrue(t.waitFor("$x = <promise fulfilled> 5"), t.plainOutput)
        t.type(":help fetch\r")
        XCTAssertTrue(t.waitFor("--max-redirects"), t.plainOutput)
        t.type(":history\r")
        XCTAssertTrue(t.waitFor("let x = resolve 5"), t.plainOutput)
        t.type(":quit\r")
        XCTAssertEqual(t.waitExit(), 0)
    }

    /// An unhandled rejection in the REPL is a notice; the session goes on, in both modes.
    func test_anUnhandledRejectionIsANotice() throws {
        let t = try start()
        t.clear()
        t.type("let p = reject late\r")
        XCTAssertTrue(t.waitFor("unhandled rejection: the promise of `let p`"), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        t.clear()
        t.type(":mode js\r")
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        t.clear()
        t.type("let q = reject again\r")
        XCTAssertTrue(t.waitFor("{ kind: 'user', message: 'again' }"), t.plainOutput)
        t.type("echo still-here\r")
        XCTAssertTrue(t.waitFor("still-here"), t.plainOutput)
        XCTAssertEqual(quit(t), 0)
    }
}

/// Completion candidates, rule by rule.
final class CompleterTests: XCTestCase {
    func test_theStagesThatTakeAStageAreThoseThatDeclareIt() {
        XCTAssertEqual(StageRegistry.builtins.namesTakingAStage, ["then", "catch", "finally", "tap", "each", "iterate", "thenable"])
    }

    func candidates(_ word: String, _ before: String) -> [String]? {
        Completer.candidates(
            word: word, before: before, stages: ["fetch", "format", "then", "each", "json"],
            flags: { $0 == "fetch" ? ["header", "timeout"] : $0 == "each" ? ["limit"] : [] },
            variables: ["user", "url"], jobs: [1, 12], wrappers: StageRegistry.builtins.namesTakingAStage)
    }

    func test_stagesAtTheStartAndAfterAPipe() {
        XCTAssertEqual(candidates("f", ""), ["fetch", "format"])
        XCTAssertEqual(candidates("j", "echo x | "), ["json"])
        XCTAssertEqual(candidates("fe", "echo x | then "), ["fetch"])
    }

    func test_flagsOfTheStageBeingTyped() {
        XCTAssertEqual(candidates("--t", "fetch http://x "), ["--timeout"])
        XCTAssertEqual(candidates("--", "echo [1] | each fetch "), ["--header", "--limit", "--timeout"])
    }

    func test_variablesJobsAndMetaCommands() {
        XCTAssertEqual(candidates("$u", "echo "), ["$url", "$user"])
        XCTAssertEqual(candidates("%1", "await "), ["%1", "%12"])
        XCTAssertEqual(candidates(":hi", ""), [":history"])
    }

    func test_argumentsFallBackToFileNames() {
        XCTAssertNil(candidates("./sr", "read "))
    }

}
