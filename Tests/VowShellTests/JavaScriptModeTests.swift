import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell

/// JavaScript mode (`vow --js`, `:mode js`) and the one model vow shares with JavaScript, rule by
/// rule; each program's order is checked against node running its twin where it matters.
final class JavaScriptModeTests: XCTestCase {
    /// `then print A` is `.then(log("A"))`: a handler that returns a value settles the next
    /// promise in the same turn, so B prints on the second turn, before D.
    func test_aHandlerThatReturnsAValueTakesNoExtraTurn() throws {
        let src = "resolve 1 | then print A | print B &\nresolve 2 | print C | print D | print E &"
        XCTAssertEqual(runVow(src).out, "A\nC\nB\nD\nE\n")
        let caught = "reject 1 | catch print A | print B &\nresolve 2 | print C | print D | print E &"
        XCTAssertEqual(runVow(caught).out, "A\nC\nB\nD\nE\n")
        XCTAssertEqual(try runTwin(src).out, "A\nC\nB\nD\nE\n")
    }

    /// A group is a pipeline and always a promise: `then (X)` adopts (two more turns).
    func test_aGroupIsAdopted() {
        let src = "resolve 1 | then (print A) | print B &\nresolve 2 | print C | print D | print E | print F &"
        XCTAssertEqual(runVow(src).out, "A\nC\nD\nE\nB\nF\n")
    }

    /// A stage that throws in a handler rejects in the same turn (no adoption of a rejected
    /// promise), and its origin is the whole stage.
    func test_aHandlerThatThrowsRejectsInTheSameTurn() {
        let src = "resolve 1 | then fail x | catch print caught &\nresolve 2 | print C | print D | print E &"
        XCTAssertEqual(runVow(src).out, "C\ncaught\nD\nE\n")
        let r = runVow("resolve 1 | then fail x | len")
        XCTAssertTrue(r.err.contains("^^^^^^^^^^^ rejected here"), r.err)
    }

    /// The acceptance case: JavaScript lets the other element of `all` run on; vow cancels it.
    func test_allRunsOnInJavaScriptModeAndIsCancelledInVowMode() {
        let src = "all [reject x, delay 30ms 1 | print late] | catch echo caught"
        XCTAssertEqual(runVow(src, javaScript: true).out, "caught\nlate\n")
        XCTAssertEqual(runVow(src).out, "caught\n")
    }

    /// In JavaScript mode a script waits for the processes it started, as node waits for its
    /// child processes; vow's mode kills the loser of the race.
    func test_javaScriptModeWaitsForAProcessThatLostARace() {
        let src = "race [run sh -c 'sleep 0.3; echo slow' | print ran, delay 10ms fast] | print won"
        XCTAssertEqual(runVow(src, javaScript: true).out, "won\nran\n")
        XCTAssertEqual(runVow(src).out, "won\n")
    }

    /// `timeout` in JavaScript mode is a race against a timer: what it limits runs on.
    func test_timeoutCancelsNothingInJavaScriptMode() {
        let src = "delay 40ms late | print finished | timeout 10ms | catch pick kind"
        XCTAssertEqual(runVow(src, javaScript: true).out, "timeout\nfinished\n")
        XCTAssertEqual(runVow(src).out, "timeout\n")
    }

    /// A statement that rejects stops the script's statements in both modes; in JavaScript mode
    /// what it started still runs to its end, and the status is 1.
    func test_aRejectedStatementStopsTheScriptButNotWhatItStarted() {
        let src = "delay 30ms | print later &\nreject stop\necho never"
        let js = runVow(src, javaScript: true)
        XCTAssertEqual(js.out, "later\n")
        XCTAssertEqual(js.status, 1)
        let vow = runVow(src)
        XCTAssertEqual(vow.out, "")
        XCTAssertEqual(vow.status, 1)
    }

    /// `:mode js` switches a session; `:mode vow` switches back.
    func test_modeMetaCommandSwitches() {
        let r = runVow(":mode js\nall [reject x, delay 20ms 1 | print late] | catch echo caught\n:mode vow\nall [reject x, delay 20ms 1 | print gone] | catch echo caught2\ndelay 40ms done")
        // The first `all` was started in JavaScript mode: its other element runs on and prints.
        XCTAssertTrue(r.out.contains("late\n"), r.out)
        XCTAssertFalse(r.out.contains("gone"), r.out)
        XCTAssertTrue(r.out.hasSuffix("done\n"), r.out)
    }

    /// `each` in the twin (`vow.each`) takes vow's turns: its elements start together up to
    /// the limit, each result is taken a turn after its promise settles, and an empty list
    /// fulfils at once; interleaved with another chain, node prints what vow prints.
    func test_eachTakesTheTurnsOfItsTwin() throws {
        let other = "resolve 0 | print a | print b | print c | print d | print e | print f | print g | print h &"
        let cases = [
            ("echo [1, 2, 3] | each (print) --limit 2 | print done &", "1 2 a 3 b c d done e f g h"),
            ("echo [1, 2, 3] | each print | to-json | print &", "1 2 3 a b c d [1,2,3] e f g h"),
            ("echo [1, 2, 3] | each format \"x{}\" --limit 1 | to-json | print &", "a b c d e f [\"x1\",\"x2\",\"x3\"] g h"),
            ("echo [] | each print | print empty &", "a empty b c d e f g h"),
        ]
        for (line, expected) in cases {
            let src = line + "\n" + other
            let vow = runVow(src, javaScript: true)
            XCTAssertEqual(vow.out.split(separator: "\n").joined(separator: " "), expected, src)
            XCTAssertEqual(try runTwin(src).out, vow.out, src)
        }
    }

    /// `let y = $x` names the same promise, as `const y = x` does: handlers attached through
    /// either name run in the order they were attached, whichever name they used.
    func test_aLetOfAnotherLetNamesTheSamePromise() throws {
        let src = """
            let x1 = resolve 76 | print p1
            let x2 = $x1
            $x1 | print p8 &
            $x2 | print t18 &
            $x1 | print p9 &
            """
        for javaScript in [true, false] {
            XCTAssertEqual(runVow(src, javaScript: javaScript).out, "p1\np8\nt18\np9\n")
        }
        XCTAssertEqual(try runTwin(src).out, "p1\np8\nt18\np9\n")
        // The same for a job's promise, `%N`.
        let job = "resolve 1 | print a &\nlet y = %1\n%1 | print p &\n$y | print q &\n%1 | print r &"
        XCTAssertEqual(runVow(job, javaScript: true).out, "a\np\nq\nr\n")
        XCTAssertEqual(try runTwin(job).out, "a\np\nq\nr\n")
    }

    /// When one element of `each` rejects, vow's mode cancels the others; in JavaScript mode they
    /// run on, as the twin's do.
    func test_eachCancelsTheOtherElementsOnlyInVowMode() throws {
        let src = #"echo [5, 40] | each (delay "{}ms" | then format "done {}" | print | then reject "r{}") | catch pick message"#
        let js = runVow(src, javaScript: true)
        XCTAssertEqual(js.out, "done 5\nrdone 5\ndone 40\n", js.err)
        XCTAssertEqual(try runTwin(src).out, js.out)
        XCTAssertEqual(runVow(src).out, "done 5\nrdone 5\n")
    }

    /// Every lesson's twin, run by node, prints what `vow --js` prints and ends with the status
    /// the lesson declares.
    func test_everyLessonsTwinPrintsWhatVowPrints() throws {
        for (file, text) in LessonTests.lessons {
            let twin = Runner.emitJavaScript(text, name: file).output
            let node = try runNode(twin)
            let vow = runVow(text, javaScript: true)
            XCTAssertEqual(node.out, vow.out, file)
            XCTAssertEqual(node.status, vow.status, file)
            XCTAssertEqual(node.status, LessonTests.status(text), file)
        }
    }

    /// The twin's `pick` is JMESPath Community: the whole compliance suite
    /// (testdata/jmespath-community-compliance) and vow's own cases (testdata/pick-extras.json) pass
    /// under node, run by scripts/twin-jmespath-compliance.js on the JavaScript built into vow.
    func test_theTwinsJMESPathPassesTheComplianceSuite() throws {
        let dir = projectRoot.appendingPathComponent("testdata/jmespath-community-compliance").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/basic.json"), "no compliance suite at \(dir)")
        let source = NSTemporaryDirectory() + "vow-jmespath-\(UUID().uuidString).js"
        try TwinSource.jmespath.write(toFile: source, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: source) }
        let runner = projectRoot.appendingPathComponent("scripts/twin-jmespath-compliance.js").path
        let ran = try runCommand("node", [runner, "--source", source])
        XCTAssertEqual(ran.status, 0, ran.out)
        XCTAssertTrue(ran.out.hasSuffix(" passed, 0 failed\n"), ran.out)
        // "twin-jmespath: N passed, 0 failed"
        let passed = Int(ran.out.split(separator: "\n").last?.split(separator: " ").dropFirst().first ?? "") ?? 0
        XCTAssertGreaterThan(passed, 1200, ran.out)
    }

    /// The twin's `pick` against JMESPath Community's reference implementation, on the generated
    /// cases that vow's own `pick` is compared with (Tests/VowValueTests/PickReferenceTests).
    func test_theTwinsJMESPathAgreesWithTheReferenceImplementation() throws {
        let script = projectRoot.appendingPathComponent("scripts/jmespath-reference.py").path
        let python = projectRoot.appendingPathComponent(".build/jmespath-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return XCTFail("no \(python): scripts/setup makes it, with the jmespath-community package")
        }
        let dir = NSTemporaryDirectory() + "vow-twin-pick-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let generated = try runCommand(python, [script, "generate", "3000", "2"])
        XCTAssertEqual(generated.status, 0)
        try generated.out.write(toFile: dir + "/cases.jsonl", atomically: true, encoding: .utf8)
        let harness = TwinSource.jmespath + #"""

            const fs = require("fs");
            const out = [];
            for (const line of fs.readFileSync(process.argv[2], "utf8").split("\n")) {
              if (!line) continue;
              const c = JSON.parse(line);
              try {
                out.push(JSON.stringify({ ok: jmespath.search(JSON.parse(c.doc), c.expr) }));
              } catch (e) {
                if (e.kind !== "pick") throw e;
                out.push(JSON.stringify({ error: e.message.split(":")[0] }));
              }
            }
            fs.writeFileSync(process.argv[3], out.join("\n") + "\n");
            """#
        try harness.write(toFile: dir + "/twin.js", atomically: true, encoding: .utf8)
        let ran = try runCommand("node", [dir + "/twin.js", dir + "/cases.jsonl", dir + "/twin.jsonl"])
        XCTAssertEqual(ran.status, 0, ran.out)
        let compared = try runCommand(python, [script, "compare", dir + "/cases.jsonl", dir + "/twin.jsonl"])
        XCTAssertEqual(compared.status, 0, compared.out)
        XCTAssertTrue(compared.out.contains(" 0 differ"), compared.out)
    }

    /// The twin notes where a rejection started and what it skipped, as vow's records do.
    func test_theTwinsErrorRecordsSayWhereAndWhatWasSkipped() throws {
        let src = #"echo 1 | then reject "boom" | format "never {}" | len | catch pick '[kind, message, at, skipped]' | to-json"#
        let expected = #"["user","boom","then reject \"boom\"",["format \"never {}\"","len"]]"# + "\n"
        XCTAssertEqual(runVow(src, javaScript: true).out, expected)
        XCTAssertEqual(try runTwin(src).out, expected)
    }
}

/// Timers follow node's rules: a wait under 1ms is 1ms, so timers set in order with waits of
/// 1ms and 0s fire in that order, in both of vow's modes and in the twin, every time.
final class TimerFloorTests: XCTestCase {
    func test_aZeroDelayIsOneMillisecondAsInNode() throws {
        let src = "delay 1ms | print one &\ndelay 0s | print zero &"
        let node = try runNode("setTimeout(() => console.log('one'), 1); setTimeout(() => console.log('zero'), 0);").out
        XCTAssertEqual(node, "one\nzero\n")
        for _ in 0..<5 {
            XCTAssertEqual(runVow(src, javaScript: true).out, node)
            XCTAssertEqual(runVow(src).out.split(separator: "\n").filter { !$0.hasPrefix("[") }.joined(separator: "\n") + "\n", node)
            XCTAssertEqual(try runTwin(src).out, node)
        }
    }
}

/// Timers set inside timers, and timers of different waits, run in node's order (its timer
/// lists: one a wait, taken by expiry, a list sent back behind older ones), in every run and in
/// every view of the run.
final class NodeTimerOrderTests: XCTestCase {
    func test_timersSetInsideTimersRunInNodesOrderEveryTime() throws {
        let file = projectRoot.appendingPathComponent("examples/puzzles/nested-timers")
        let source = try String(contentsOf: file.appendingPathExtension("vow"), encoding: .utf8)
        let node = try runCommand("node", [file.appendingPathExtension("js").path]).out
        XCTAssertEqual(node, "sync first\na\nb\nf\nc\nd\ne\n")
        for _ in 0..<6 {
            XCTAssertEqual(runVow(source, javaScript: true).out, node)
            XCTAssertEqual(runVow(source).out, node)
            let turns = try runWithInput(REPLTests.binary, ["--js", "--turns", file.appendingPathExtension("vow").path], input: "").out
            let printed = turns.split(separator: "\n").compactMap { line -> String? in
                let t = line.trimmingCharacters(in: .whitespaces)
                return t.hasPrefix("prints ") ? String(t.dropFirst(7)) + "\n" : nil
            }.joined()
            XCTAssertEqual(printed, node, "the --turns recording prints in node's order")
        }
    }
}

/// A long pipeline's twin is written in linear time, a link a statement past a few hundred links,
/// so that node's parser takes it; it prints what vow prints.
final class LongTwinTests: XCTestCase {
    func test_aTwinOfThousandsOfStagesRunsUnderNode() throws {
        for n in [400, 3_000] {
            let source = "echo 1" + String(repeating: " | pick '@'", count: n) + " | then format \"done {}\""
            XCTAssertEqual(runVow(source).out, "done 1\n")
            let twin = try runTwin(source)
            XCTAssertEqual(twin.out, "done 1\n", "\(n) stages")
            XCTAssertEqual(twin.status, 0)
        }
    }
}
