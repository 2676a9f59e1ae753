import Foundation
import JMESPath
import VowPromises
import VowSyntax
import VowValue
import XCTest

@testable import VowRuntime
@testable import VowShell

/// An executable `vow-NAME` on PATH is stage NAME.
final class ExternalStageTests: XCTestCase {
    var dir = ""
    var oldPath = ""

    override func setUp() {
        dir = NSTemporaryDirectory() + "vow-ext-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        oldPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
        setenv("PATH", dir + ":" + oldPath, 1)
    }

    override func tearDown() {
        setenv("PATH", oldPath, 1)
        try? FileManager.default.removeItem(atPath: dir)
    }

    func install(_ name: String, _ script: String) {
        let path = dir + "/vow-" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(("#!/bin/sh\n" + script).utf8), attributes: [.posixPermissions: 0o755])
    }

    func test_inputAsJSONOnStdinArgumentsInArgvJSONStdoutIsTheValue() {
        // Echoes its argv and its stdin back as JSON.
        install("wrap", #"printf '{"args": "%s", "input": %s}' "$*" "$(cat)""#)
        let r = runVow(#"echo {n: 1} | wrap a "b c" --flag 2 | to-json"#)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out, #"{"args":"a b c --flag 2","input":{"n":1}}"# + "\n")
    }

    func test_nonZeroExitRejectsWithProcessAndBadOutputWithJson() {
        install("boom", "echo broken >&2; exit 3")
        let r = runVow("echo 1 | boom")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[process]: "), r.err)
        XCTAssertTrue(r.err.contains("status 3: broken"), r.err)
        install("text", "echo not json")
        XCTAssertTrue(runVow("echo 1 | text2").err.contains("unknown stage 'text2'"))
        install("nojson", "echo not json")
        XCTAssertTrue(runVow("echo 1 | nojson").err.hasPrefix("error[json]: vow-nojson printed something that is not JSON"))
    }

    /// A plugin is held to `run`'s rules: killed by a signal says so, its warnings show when it
    /// succeeds, and a timeout stops it and what it started (checked with the process table).
    func test_aPluginFollowsTheRulesOfRun() throws {
        install("crash", "kill -SEGV $$")
        let crash = runVow("echo 1 | crash")
        XCTAssertTrue(crash.err.contains("error[process]: \(dir)/vow-crash killed by SIGSEGV"), crash.err)
        install("chatty", "echo 'careful now' >&2; echo 7")
        let chatty = runVow("echo 1 | chatty")
        XCTAssertEqual(chatty.out, "7\n")
        XCTAssertEqual(chatty.err, "careful now\n")
        let marker = "58.\(UInt32.random(in: 100_000...999_999))"
        install("slow", "sleep \(marker); echo 1")
        let slow = runVow("echo 1 | slow | timeout 300ms | catch echo stopped")
        XCTAssertEqual(slow.out, "stopped\n", slow.err)
        var left = ""
        for _ in 0..<100 {
            left = try runCommand("pgrep", ["-f", "sleep \(marker)"]).out
            if left.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertEqual(left, "", "the plugin's sleep outlived its timeout")
    }

    func test_runPassesArgumentsVerbatimWithoutAShell() {
        XCTAssertEqual(runVow("run printf '%s|' '; rm -rf /' '$(id)' '*'").out, "; rm -rf /|$(id)|*|\n")
    }

    func test_runHandlesLargeInputAndOutputWithoutDeadlock() {
        // 1 MB through `cat`: stdin is written while stdout is read.
        let r = runVow("echo '\(String(repeating: "x", count: 1_000_000))' | run cat | len")
        XCTAssertEqual(r.out, "1000000\n", r.err)
    }
}

/// Random and hostile input never crashes or hangs the parsers: a deterministic stream of
/// random programs, JSON texts and JMESPath expressions, each of which must either parse or give
/// an error.
final class RobustnessTests: XCTestCase {
    static let vowPieces = [
        "echo", "fetch", "|", "[", "]", "{", "}", "(", ")", "'", "\"", "$x", "${a.b}", "{}", "%1", "--limit", "3",
        "2.5s", "let", "=", "def", "&", ";", "\n", "#", ":", ",", "\\", "then", "catch", "all", "\u{0}", "é", "😀", " ",
    ]

    func test_theVowParserNeverCrashesOnRandomPrograms() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<20_000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 24) { s += rng.pick(Self.vowPieces) + (rng.next() % 2 == 0 ? " " : "") }
            _ = try? Parser.parse(SourceText(s))
            _ = Parser.isComplete(s)
        }
        for _ in 0..<2_000 {
            let bytes = (0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = try? Parser.parse(SourceText(String(decoding: bytes, as: UTF8.self)))
        }
    }

    func test_deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        XCTAssertThrowsError(try Parser.parse(SourceText("echo " + deep)))
        let r = runVow("echo " + String(repeating: "(", count: 50_000))
        XCTAssertEqual(r.status, 2)
        XCTAssertThrowsError(try JMESPathExpression(String(repeating: "[", count: 100_000)))
        XCTAssertThrowsError(try JMESPathExpression(String(repeating: "!", count: 100_000) + "a"))
    }

    func test_theJSONParserNeverCrashesOnRandomText() {
        var rng = SplitMix64(seed: 2)
        let pieces = ["{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "d83d", "1", "-", "e", ".", "true", "null", " ", "\u{7f}", "é"]
        for _ in 0..<20_000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 30) { s += rng.pick(pieces) }
            _ = try? JSON.parse(s)
        }
        for _ in 0..<2_000 {
            _ = try? JSON.parse((0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
    }

    func test_jmespathNeverCrashesOnRandomExpressions() throws {
        var rng = SplitMix64(seed: 3)
        let pieces = ["a", "b", ".", "[", "]", "*", "?", "`1`", "'x'", "|", "||", "&&", "!", "(", ")", "{", "}", ":", ",", "@", "&",
                      "sort_by(", "length(", "[0]", "[-1]", "[::2]", "==", "<", "\"q\"", " "]
        let data = try JSON.parse(#"{"a": [{"b": 1}, {"b": "x"}, [1, 2]], "b": {"c": null}}"#)
        for _ in 0..<20_000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 16) { s += rng.pick(pieces) }
            if let e = try? JMESPathExpression(s) { _ = try? e.search(data) }
        }
    }

    func test_badProgramsGiveClearErrorsAndStatus2() {
        let cases: [(String, String)] = [
            ("echo \"unclosed", "unclosed"),
            ("echo hi | nosuchstage", "unknown stage 'nosuchstage'"),
            ("echo [1] | each len --limt 2", "len: unknown flag --limt (did you mean --limit?)"),
            ("echo {\"a\": 1", "unclosed"),
        ]
        for (source, message) in cases {
            let r = runVow(source)
            XCTAssertEqual(r.status, 2, source)
            XCTAssertTrue(r.err.contains(message), "\(source): \(r.err)")
            XCTAssertTrue(r.err.contains("^"), "a caret for \(source): \(r.err)")
        }
        let long = runVow("echo '" + String(repeating: "a", count: 1_000_000) + "' | len")
        XCTAssertEqual(long.out, "1000000\n", "a 1 MB line works")
    }

    /// Found by the evaluator fuzz target: an argument pipeline that a stage refuses (it needs a
    /// plain value), or that is started before another argument fails, was left running with
    /// nothing to settle or cancel it; `race []` never settles, so it stayed in memory for good.
    /// Now it is cancelled, which its `finally` shows.
    func test_aRefusedArgumentPipelineIsCancelled() {
        let pending = "(race [] | then echo 2)"
        let cases: [(String, String)] = [
            ("echo 1 | timeout \(pending)", "timeout: DURATION must be a plain value"),
            ("echo 1 | retry \(pending)", "retry: arguments must be plain values"),
            ("echo [1] | each --limit \(pending) echo", "each: --limit must be a plain value"),
            ("echo 1 | iterate --max \(pending) echo", "iterate: --max must be a plain value"),
            ("race \(pending)", "race: expects a list or record literal, or a list as input"),
            ("print \(pending) $nope", "unknown variable $nope"),
        ]
        for (source, message) in cases {
            let (r, cancelled, _) = CancelRecorder.run(source)
            XCTAssertEqual(r.status, 1, source)
            XCTAssertTrue(r.err.hasPrefix("error[type]: \(message)"), "\(source): \(r.err)")
            XCTAssertTrue(cancelled.contains("race"), "\(source): cancelled \(cancelled)")
        }
    }

    /// Found the same way: when a stage cannot start (`timeout` without DURATION), the stages
    /// before it were left running. They are cancelled; a shared variable upstream is not.
    func test_aStageThatCannotStartCancelsWhatRunsBeforeIt() {
        let (r, cancelled, _) = CancelRecorder.run("delay 1h 1 | then echo 2 | timeout")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[type]: timeout: missing DURATION"), r.err)
        XCTAssertTrue(cancelled.contains("delay"), "cancelled \(cancelled)")
        let shared = runVow("let v = delay 20ms 1\n$v | timeout | catch echo caught\n$v")
        XCTAssertEqual(shared.out, "caught\n1\n", shared.err)
    }

    /// Found the same way: cancelling a chain (Ctrl-C, `timeout`, closing the session) ran its
    /// `catch` and `finally` handlers when the cancellation reached them from the source, and
    /// what they started (`finally (delay 1h)`) ran on with nobody to wait for it or stop it. A
    /// cancelled stage runs no handler.
    func test_aCancelledChainRunsNoHandler() {
        let r = runVow("""
            delay 200ms 1 | catch print caught | finally print finally | tap print tap | timeout 20ms | catch pick kind
            delay 300ms done
            """)
        XCTAssertEqual(r.out, "timeout\ndone\n", r.err)
        let (closed, cancelled, created) = CancelRecorder.run("let v = delay 1h 1 | finally (delay 1h 2)", close: true)
        XCTAssertEqual(closed.status, 0, closed.err)
        XCTAssertEqual(cancelled.filter { $0 == "delay" }.count, 1, "\(cancelled)")
        XCTAssertEqual(created.filter { $0 == "delay" }.count, 1, "the finally handler never started its delay: \(created)")
    }
}

/// Records the names of the promises created and cancelled while a program runs (a process-wide
/// observer).
final class CancelRecorder: PromiseObserver {
    private let state = VowRuntime.Locked<(names: [Int: String], created: [String], cancelled: [String])>(([:], [], []))

    func promiseEvent(_ event: PromiseEvent) {
        switch event {
        case .created(let id, _, let name, _):
            state.withLock {
                $0.names[id] = name ?? "-"
                $0.created.append(name ?? "-")
            }
        case .cancelled(let id): state.withLock { $0.cancelled.append($0.names[id] ?? "?") }
        default: break
        }
    }

    /// Runs `source` in a session (closed afterwards when `close`), then gives cancellation a
    /// moment to reach the sources; returns the outcome and the names of the cancelled and of the
    /// created promises.
    static func run(_ source: String, close: Bool = false)
        -> (result: (out: String, err: String, status: Int32), cancelled: [String], created: [String])
    {
        let recorder = CancelRecorder()
        PromiseObservation.install(recorder)
        defer { PromiseObservation.remove() }
        let out = VowRuntime.Locked(""), err = VowRuntime.Locked("")
        let session = Session(output: OutputSink { s in out.withLock { $0 += s } })
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { s in err.withLock { $0 += s + "\n" } })
        let status = runner.run(source, name: "<test>")
        if close { session.close() } else { session.http.shutdown() }
        _ = session.executor.waitUntilIdle(timeout: .seconds(2))
        let seen = recorder.state.withLock { $0 }
        return ((out.withLock { $0 }, err.withLock { $0 }, status), seen.cancelled, seen.created)
    }
}

extension SplitMix64 {
    /// One of `xs`, drawn from the generator (the generator `sim` uses).
    mutating func pick<T>(_ xs: [T]) -> T { xs[Int(next() % UInt64(xs.count))] }
}
