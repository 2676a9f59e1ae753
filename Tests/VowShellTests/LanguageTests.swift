import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell
import VowValue

/// Runs vow source in-process in a fresh session, sending standard output to `out` and each
/// error to `err`; returns the exit status.
func runVow(
    _ source: String, name: String = "<test>", json: Bool = false, variables: [String: Value] = [:], javaScript: Bool = false,
    out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void
) -> Int32 {
    var options = SessionOptions()
    options.variables = variables
    let session = Session(output: OutputSink(out), diagnostics: OutputSink(err), options: options)
    session.javaScriptMode = javaScript
    defer { session.http.shutdown() }
    let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: json), errors: { s in err(s + "\n") })
    return runner.run(source, name: name)
}

/// Runs vow source in-process, capturing stdout, stderr and the exit status.
func runVow(_ source: String, json: Bool = false, variables: [String: Value] = [:], javaScript: Bool = false) -> (out: String, err: String, status: Int32) {
    let out = VowRuntime.Locked(""), err = VowRuntime.Locked("")
    let status = runVow(source, json: json, variables: variables, javaScript: javaScript, out: { s in out.withLock { $0 += s } }, err: { s in err.withLock { $0 += s } })
    return (out.withLock { $0 }, err.withLock { $0 }, status)
}

/// Runs vow source in-process with stdout and stderr interleaved in one transcript.
func runVowTranscript(_ source: String, name: String, javaScript: Bool = false) -> (text: String, status: Int32) {
    let all = VowRuntime.Locked("")
    let status = runVow(source, name: name, javaScript: javaScript, out: { s in all.withLock { $0 += s } }, err: { s in all.withLock { $0 += s } })
    return (all.withLock { $0 }, status)
}

final class AcceptanceTests: XCTestCase {
    func test_onATerminalRawStringsCannotSendEscapeSequences() {
        let evil = Value.string("red \u{1B}[31m text\u{7}\nnext\tline")
        XCTAssertEqual(Renderer(colors: false, jsonLines: false, terminal: true).value(evil), "red \\u{1b}[31m text\\u{7}\nnext\tline")
        // Piped, data passes through unchanged.
        XCTAssertEqual(Renderer(colors: false, jsonLines: false, terminal: false).value(evil), "red \u{1B}[31m text\u{7}\nnext\tline")
    }

    func test_eachKeepsItsOwnFlagAfterTheInnerStage() {
        XCTAssertEqual(runVow(#"echo [1, 2, 3] | each format "n{}" --limit 2 | to-json"#).out, "[\"n1\",\"n2\",\"n3\"]\n")
        let bad = runVow(#"echo [1] | each format "n{}" --limit 0"#)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("--limit must be at least 1"), bad.err)
    }

    func test_resolveThenFormat() {
        XCTAssertEqual(runVow("resolve 41 | then format \"{}!\"").out, "41!\n")
    }

    func test_rejectionSkipsThenUntilCatch() {
        XCTAssertEqual(runVow("reject boom | then echo never | catch echo \"saved: {message}\"").out, "saved: boom\n")
    }

    func test_eachWithLimitKeepsOrder() {
        XCTAssertEqual(runVow("echo [1, 2, 3] | each (then format \"n{}\") --limit 2").out, "[\n  \"n1\",\n  \"n2\",\n  \"n3\"\n]\n")
    }

    func test_keyedAll() {
        XCTAssertEqual(runVow("all {a: delay 50ms 1, b: delay 10ms 2}").out, "{\n  \"a\": 1,\n  \"b\": 2\n}\n")
    }

    func test_raceFirstToSettle() {
        XCTAssertEqual(runVow("race [delay 300ms slow, delay 10ms fast]").out, "fast\n")
    }

    func test_anyAllRejectIsAggregateNamingEveryReason() {
        let r = runVow("any [reject x, reject y]")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[aggregate]"), r.err)
        XCTAssertTrue(r.err.contains("x") && r.err.contains("y"))
    }

    func test_timeoutRejectsQuicklyAndCancels() {
        let start = Date()
        let r = runVow("delay 5s done | timeout 100ms")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[timeout]"), r.err)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3, "the delay was cancelled, not waited for")
    }

    func test_syntaxErrorPointsAtTheUnclosedBraceAndNothingRuns() {
        let r = runVow("print ran\necho {\"a\": 1")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.out, "", "nothing of the script runs")
        XCTAssertTrue(r.err.contains("error[syntax]"))
        XCTAssertTrue(r.err.contains("<test>:2:6"), r.err)
    }

    func test_unknownStageSuggestsAndNothingRuns() {
        let r = runVow("print ran\nfecth x")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.out, "")
        XCTAssertTrue(r.err.contains("did you mean 'fetch'") || r.err.contains("unknown stage 'fecth'"), r.err)
    }

    func test_unknownFlagSuggests() {
        let r = runVow("sim --dealy 1ms x")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("did you mean --delay?"), r.err)
    }

    func test_errorUnderlinesTheRejectingStageAndListsSkipped() {
        let r = runVow("echo 5 | then reject \"bad {}\" | len | pick x")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[user]: bad 5"))
        XCTAssertTrue(r.err.contains("         ^^^^^^^^^^^^^^^^^^^^ rejected here"), r.err)
        XCTAssertTrue(r.err.contains("= skipped: len, pick x"), r.err)
        XCTAssertTrue(r.err.contains("= input: 5"), r.err)
    }

    func test_scriptStopsAtFirstRejection() {
        let r = runVow("echo 1\nreject no\necho 3")
        XCTAssertEqual(r.out, "1\n")
        XCTAssertEqual(r.status, 1)
    }

    func test_letBindsThePromiseAndUsesItTwice() {
        let r = runVow("let x = delay 20ms 5\n$x | then format \"a={}\"\n$x | then format \"b={}\"\necho \"${x}\"")
        XCTAssertEqual(r.out, "a=5\nb=5\n5\n")
    }

    func test_defDefinesAStage() {
        XCTAssertEqual(runVow("def greet(n) = format \"hi $n, {}\"\necho you | greet ada").out, "hi ada, you\n")
    }

    func test_backgroundJobsAreWaitedForAndReported() {
        let r = runVow("delay 30ms 7 &\necho now")
        // A script keeps stdout for results: job notices go to stderr.
        XCTAssertEqual(r.out, "now\n")
        XCTAssertEqual(r.err, "[1] started\n[1] fulfilled: 7\n")
        XCTAssertEqual(r.status, 0)
    }

    func test_aBackgroundRejectionMakesTheExitStatusOne() {
        let r = runVow("delay 10ms 0 | then reject late &\necho now")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("[1] rejected"), r.err)
    }

    func test_cancelJob() {
        let r = runVow("delay 5s x &\ncancel %1 | then jobs | pick '[0].state'")
        XCTAssertTrue(r.out.contains("cancelled"), r.out)
    }

    func test_retryRunsExactlyNPlusOneAttempts() {
        let r = runVow("sim --fail 1.0 --seed 3 x | retry 2 --delay 10ms")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("attempt 3"), r.err)
    }

    func test_catchSeesTheErrorRecord() {
        XCTAssertEqual(runVow("reject boom | catch pick kind").out, "user\n")
        XCTAssertEqual(runVow("echo 1 | reject x | catch pick stage").out, "reject\n")
    }

    func test_finallyRunsOnBothPaths() {
        XCTAssertEqual(runVow("reject x | finally print cleanup | catch pick message").out, "cleanup\nx\n")
    }

    func test_jsonFlagPrintsCompactLinesAndErrorRecords() {
        let r = runVow("echo {a: [1, 2]}\nreject nope", json: true)
        XCTAssertEqual(r.out, "{\"a\":[1,2]}\n")
        XCTAssertTrue(r.err.hasPrefix("{\"error\":{\"kind\":\"user\",\"message\":\"nope\""), r.err)
    }

    func test_stringsPrintRawOtherValuesAsJSON() {
        XCTAssertEqual(runVow("echo \"a\\tb\"").out, "a\tb\n")
        XCTAssertEqual(runVow("echo [\"a\\u0007\"] | to-json").out, "[\"a\\u0007\"]\n")
        XCTAssertEqual(runVow("echo null").out, "null\n")
        XCTAssertEqual(runVow("echo 1.5").out, "1.5\n")
    }

    func test_runPassesArgumentsVerbatimWithoutAShell() {
        XCTAssertEqual(runVow("run echo '; rm -rf / $(x)'").out, "; rm -rf / $(x)\n")
        let r = runVow("run sh -c 'echo oops >&2; exit 3'")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[process]") && r.err.contains("status 3") && r.err.contains("oops"), r.err)
    }

    func test_jsJsonParseErrorNamesLineAndColumn() {
        let r = runVow("echo '{\"a\": 1,}' | json")
        XCTAssertTrue(r.err.contains("error[json]") && r.err.contains("line 1, column 9"), r.err)
    }

    func test_deepProgramNestingIsASyntaxError() {
        let r = runVow("echo " + String(repeating: "[", count: 10_000))
        XCTAssertEqual(r.status, 2)
    }

    /// JavaScript's microtask order for the same program, tick for tick (see examples/ordering):
    /// node runs the hand-written twin and the twin that `--emit-js` writes, and both print what
    /// vow prints.
    func test_orderingMatchesJavaScript() throws {
        let dir = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("../../examples/ordering").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".vow") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 4)
        for f in files {
            let src = try String(contentsOf: dir.appendingPathComponent(f), encoding: .utf8)
            let handWritten = try String(contentsOf: dir.appendingPathComponent(f.replacingOccurrences(of: ".vow", with: ".js")), encoding: .utf8)
            let node = try runNode(handWritten).out
            XCTAssertFalse(node.isEmpty, f)
            XCTAssertEqual(runVow(src, javaScript: true).out, node, "\(f), JavaScript mode")
            XCTAssertEqual(try runTwin(src, name: f).out, node, "\(f), emitted twin")
            // vow's own mode agrees too wherever its cancellation changes nothing.
            if !src.contains("race") { XCTAssertEqual(runVow(src).out, node, "\(f), vow's mode") }
        }
    }
}

/// Runs `program` (a name found on PATH, or a path) with `arguments`; its stdout and exit status
/// (stderr is discarded).
func runCommand(_ program: String, _ arguments: [String]) throws -> (out: String, status: Int32) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [program] + arguments
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), p.terminationStatus)
}

/// `vow -c source` started, its output and errors discarded: for a test that signals it or
/// runs many at once.
func startVow(_ source: String) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: REPLTests.binary)
    p.arguments = ["-c", source]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    return p
}

/// Runs a JavaScript program with node; its stdout and exit status.
func runNode(_ program: String) throws -> (out: String, status: Int32) {
    let path = NSTemporaryDirectory() + "vow-twin-\(UUID().uuidString).js"
    try program.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try runCommand("node", [path])
}

/// Every stage's documented examples run, so help text cannot go stale.
final class StageExampleTests: XCTestCase {
    func test_everyStageHasHelpAndItsExamplesHold() {
        for stage in StageRegistry.builtins.stages {
            XCTAssertFalse(stage.summary.isEmpty, stage.name)
            XCTAssertFalse(stage.help.isEmpty, stage.name)
        }
        let count = checkStageExamples(needsServer: false) { runVow($0) }
        XCTAssertGreaterThan(count, 50)
        print("ran \(count) stage examples")
    }
}

/// Runs every stage example that needs (or does not need) the fixture server through `run` and
/// checks its stated output (or, for a failing example, the start of its error); returns how
/// many ran.
func checkStageExamples(needsServer: Bool, _ run: (String) -> (out: String, err: String, status: Int32)) -> Int {
    var count = 0
    for stage in StageRegistry.builtins.stages {
        for ex in stage.examples where ex.needsServer == needsServer {
            count += 1
            let r = run(ex.source)
            if ex.fails {
                XCTAssertNotEqual(r.status, 0, "\(stage.name): \(ex.source)")
                XCTAssertTrue(r.err.hasPrefix(ex.output), "\(stage.name): \(ex.source)\nexpected prefix: \(ex.output)\ngot: \(r.err)")
            } else {
                XCTAssertEqual(r.status, 0, "\(stage.name): \(ex.source)\n\(r.err)")
                XCTAssertEqual(r.out, ex.output + "\n", "\(stage.name): \(ex.source)")
            }
        }
    }
    return count
}

/// docs/stages.md is generated from the stages; this keeps it from drifting.
final class DocsTests: XCTestCase {
    func test_stageReferenceIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("docs/stages.md")
        let generated = Help.markdownReference(registry: .builtins)
        if ProcessInfo.processInfo.environment["VOW_UPDATE_DOCS"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        let onDisk = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(onDisk, generated, "docs/stages.md is stale: run VOW_UPDATE_DOCS=1 swift test --filter DocsTests")
    }
}
