import Dispatch
import Foundation
import VowPromises
import VowSyntax
import VowValue
import XCTest

@testable import VowRuntime

/// A stretch of pure stages runs with one promise (`PureStretch`), settled in the turn the chain
/// of its stages would settle: programs with stretches of every length beside jobs that print in
/// every turn print what their JavaScript twins print under node, and a stage that fails in a
/// stretch is reported as it is when every promise is recorded (`--trace`).
final class PureStretchTests: XCTestCase {
    /// The stages of `source`'s one pipeline and their promises, once it has settled.
    private func stages(_ source: String) throws -> [(text: String, promise: Promise<Value>)] {
        let session = Session(output: OutputSink { _ in }, diagnostics: OutputSink { _ in }, options: SessionOptions())
        defer { session.http.shutdown() }
        let text = SourceText(source, name: "<test>")
        let program = try Parser.parse(text)
        guard case .pipeline(let promise, let run) = StatementStarter(session: session).start(program.statements[0], in: text) else {
            throw VowError(.syntax, "not a pipeline")
        }
        let done = DispatchSemaphore(value: 0)
        promise.whenSettled { _ in done.signal() }
        done.wait()
        return run.stages
    }

    func test_aStretchOfThreeOrMorePureStagesSharesOnePromise() throws {
        // The last two stages of a printed statement are never in a stretch (they may hand the
        // printer a tape).
        let s = try stages("echo {a: {b: 2}} | pick a | pick b | pick '@ + `1`' | format \"n={}\" | pick @ | pick @")
        XCTAssertEqual(s.count, 7)
        XCTAssertEqual(try s[6].promise.result?.get(), .string("n=3"))
        // The four stages after the first are one stretch: one promise.
        for k in 2...4 { XCTAssertTrue(s[k].promise === s[1].promise, s[k].text) }
        XCTAssertFalse(s[0].promise === s[1].promise)
        XCTAssertFalse(s[5].promise === s[4].promise)
        // Two pure stages are no stretch (the adoption that gives a stretch its turn takes two).
        let two = try stages("echo 1 | pick @ | pick @ | delay 1ms | pick @ | pick @ | len")
        XCTAssertEqual(Set(two.map { ObjectIdentifier($0.promise) }).count, 7)
        // A stage that waits or reads a variable ends a stretch.
        let split = try stages("echo 1 | pick @ | pick @ | pick @ | delay 1ms | pick @ | pick @ | pick @ | len | len")
        XCTAssertEqual(Set(split.map { ObjectIdentifier($0.promise) }).count, 6)
    }

    func test_hopsWhoseGroupIsOnePureStageJoinAStretch() throws {
        // Hops `then (G)`, G one pure stage, among pure stages: one promise.
        let s = try stages("echo 3 | then (pick @) | pick '@ + `1`' | then (pick '@ * `2`') | then (format \"n={}\") | len | len")
        XCTAssertEqual(s.count, 7)
        XCTAssertEqual(try s[4].promise.result?.get(), .string("n=8"))
        for k in 2...4 { XCTAssertTrue(s[k].promise === s[1].promise, s[k].text) }
        // A group of two stages, or one that waits, is a hop of its own, with its promise.
        for program in [
            "echo 3 | then (pick @) | then (pick @ | pick @) | then (pick @) | len | len",
            "echo 3 | then (pick @) | then (delay 1ms) | then (pick @) | len | len",
        ] {
            let t = try stages(program)
            XCTAssertEqual(Set(t.map { ObjectIdentifier($0.promise) }).count, 6, program)
        }
    }

    /// Generated programs: stretches of 1 to 12 pure stages (a pick, an arithmetic pick, a
    /// to-json and json), some failing part-way, in foreground and background pipelines, beside
    /// chains that print in each turn; vow's output and status against node's run of the twin.
    func test_generatedStretchesPrintWhatTheirTwinsPrint() throws {
        var rng = SplitMix64(seed: 2811)
        // Hops `then (G)` of a pure G join a stretch too, three turns each.
        let steps = [
            "pick @", "pick '@ + `1`'", "to-json", "json", "pick '[@][0]'", "pick '@ * `2`'", "then (pick @)", "then (pick '@ + `1`')",
            "then (to-json)",
        ]
        for round in 0..<12 {
            var lines: [String] = []
            let printers = Int.random(in: 1...2, using: &rng)
            for p in 0..<printers {
                let n = Int.random(in: 3...14, using: &rng)
                lines.append("resolve 0" + (1...n).map { " | then print \"p\(p)-\($0)\"" }.joined() + " &")
            }
            for s in 0..<Int.random(in: 2...4, using: &rng) {
                var stages: [String] = []
                var text = false
                for _ in 0..<Int.random(in: 1...12, using: &rng) {
                    var step = steps.randomElement(using: &rng)!
                    if text && step != "json" { step = "json" }
                    if !text && step == "json" { step = "pick @" }
                    text = step.hasSuffix("to-json") || step.hasSuffix("to-json)")
                    stages.append(step)
                }
                if text { stages.append("json") }
                // One in three fails part-way (length of a number), caught or not.
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    let failing = Bool.random(using: &rng) ? "pick 'length(@)'" : "then (pick 'length(@)')"
                    stages.insert(failing, at: Int.random(in: 0...stages.count, using: &rng))
                    // The twin's JMESPath words its errors otherwise: the handler says only that it ran.
                    if Bool.random(using: &rng) { stages.append("catch echo failed") }
                }
                let background = Bool.random(using: &rng)
                lines.append("echo \(s) | " + stages.joined(separator: " | ") + " | print \"s\(s)={}\"" + (background ? " &" : ""))
            }
            let program = lines.joined(separator: "\n")
            let vow = try runCommand(REPLTests.binary, ["-c", program])
            let twin = try runTwinOfBinary(program)
            XCTAssertEqual(vow.out, twin.out, "round \(round): \(program)\n\(twin.err)")
            XCTAssertEqual(vow.status, twin.status, "round \(round): \(program)")
        }
    }

    /// `vow -c program` against `vow --trace /dev/null -c program`, which records every promise
    /// and so runs no stretch: the same output, errors and status. Returns the first run.
    @discardableResult
    private func assertAsTraced(_ program: String, line: UInt = #line) throws -> (out: String, err: String, status: Int32) {
        let plain = try runWithInput(REPLTests.binary, ["-c", program], input: "")
        let traced = try runWithInput(REPLTests.binary, ["--trace", "/dev/null", "-c", program], input: "")
        XCTAssertEqual(plain.out, traced.out, program, line: line)
        XCTAssertEqual(plain.err, traced.err, program, line: line)
        XCTAssertEqual(plain.status, traced.status, program, line: line)
        return plain
    }

    /// A stretch of hops alone, written alike (run by their one group's form, their plans not
    /// read): the value, and a hop that fails part-way named with its input and the hops it
    /// skipped, as when every promise is recorded; hops written apart after them.
    func test_aStretchOfHopsWrittenAlikeRunsAsTheChain() throws {
        let add = String(repeating: " | then (pick '@ + `1`')", count: 6)
        XCTAssertEqual(try assertAsTraced("echo 3" + add + " | print").out, "9\n")
        XCTAssertEqual(try assertAsTraced("echo 3" + add + " | then (pick '@ * `2`') | then (pick '@ * `2`') | print").out, "36\n")
        let length = String(repeating: " | then (pick 'length(@)')", count: 5)
        let failed = try assertAsTraced("echo abc" + length + " | print")
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.err.contains("length"), failed.err)
        XCTAssertEqual(try assertAsTraced("echo abc" + length + " | catch echo caught | print").out, "caught\n")
    }

    /// Hops and stages written byte for byte alike share one plan (`Planner.plan(_:sharing:)`):
    /// the one that fails, whichever it is, is marked where it is written, with the ones after
    /// it skipped, as when every promise is recorded (each plan then placed at its stage).
    func test_stagesWrittenAlikeShareAPlanAndFailWhereTheyAreWritten() throws {
        // Short enough for an error to show the statement whole (`Render.lineLimit`).
        for (written, count) in [(" | then (pick 'length(@[0])&&@[0]')", 5), (" | pick 'length(@[0])&&@[0]'", 5)] {
            for depth in 1...count {
                let list = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
                let program = "echo '\(list)' | json" + String(repeating: written, count: count) + " | print"
                let failed = try assertAsTraced(program)
                XCTAssertEqual(failed.status, 1, program)
                // The caret is under the `depth`th of the stages written alike.
                let lines = failed.err.split(separator: "\n").map(String.init)
                guard let statement = lines.firstIndex(where: { $0.hasSuffix(program) }), statement + 1 < lines.count,
                    let caret = lines[statement + 1].firstIndex(of: "^")
                else {
                    XCTFail("no caret under the statement: \(failed.err)")
                    continue
                }
                let column = lines[statement + 1].distance(from: lines[statement + 1].startIndex, to: caret)
                let prefix = lines[statement].count - program.count
                // A hop's error is its group's stage's: the caret is under `pick`, inside `then (`.
                let inside = written.hasPrefix(" | then (") ? "then (".utf8.count : 0
                let expected = program.utf8.count - (count - depth + 1) * written.utf8.count + 3 - " | print".utf8.count + inside
                XCTAssertEqual(column - prefix, expected, "\(program)\n\(failed.err)")
                let skipped = Array(repeating: String(written.dropFirst(3)), count: count - depth) + ["print"]
                XCTAssertTrue(failed.err.contains("skipped: " + skipped.joined(separator: ", ")), failed.err)
            }
        }
    }

    /// A stage that fails in a stretch is named, with its input and the stages it skipped, as
    /// when every promise is recorded.
    func test_aFailureInAStretchIsReportedAsInTheChain() throws {
        for program in [
            "echo {a: 1} | pick a | pick @ | pick 'length(@)' | pick @ | pick @",
            "echo 1 | pick 'length(@)' | pick @ | pick @ | pick @",
            "echo {a: 1} | pick a | pick @ | pick @ | pick @ | pick 'length(@)'",
            "echo 'x' | pick @ | json | pick @ | pick @",
            "echo '{\"a\": [1]}' | json | pick a | pick 'length(@[0])' | pick @ | len",
            "echo 1 | then (pick @) | then (pick 'length(@)') | then (pick @) | pick @ | len",
            "echo 1 | then (pick @) | then (pick @) | pick 'length(@)' | then (pick @) | len",
            "echo 1 | pick @ | then (pick @) | then (pick @) | then (pick 'length(@)')",
            "echo 'x' | then (pick @) | then (json) | then (pick @) | len",
        ] {
            let plain = try assertAsTraced(program)
            XCTAssertTrue(plain.err.contains("rejected here"), plain.err)
            XCTAssertEqual(plain.status, 1, program)
        }
    }

    /// A stretch whose input is a stream runs the ordinary way on it; a timeout after a stretch
    /// still stops what runs before it. Each as when every promise is recorded.
    func test_aStreamIntoAStretchAndATimeoutAfterOne() throws {
        let file = NSTemporaryDirectory() + "vow-stretch-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "{\"a\":1}\n{\"a\":2}\n".write(toFile: file, atomically: true, encoding: .utf8)
        for program in [
            "read \(file) --stream | text | pick @ | pick @ | lines | len",
            "read \(file) --stream | pick @ | pick @ | pick 'length(@)' | pick @",
            "read \(file) --stream | text | pick @ | pick @ | pick @ | pick 'length(@)'",
            "delay 5s 1 | pick @ | pick @ | pick @ | timeout 100ms | catch pick message",
        ] {
            try assertAsTraced(program)
        }
        let timed = try runCommand(REPLTests.binary, ["-c", "delay 5s 1 | pick @ | pick @ | pick @ | timeout 100ms | catch pick message"])
        XCTAssertEqual(timed.out, "timed out after 100ms\n")
    }
}
