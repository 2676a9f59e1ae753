import Foundation
import XCTest

@testable import VowPromises
@testable import VowRuntime
@testable import VowShell
@testable import VowSyntax
import VowValue

/// `each` over a stream runs a pipeline of pure stages directly on each item (`PurePipeline`),
/// takes the items in batches, and the file's lines are split with memchr (`LineStream.split`):
/// which pipelines have the direct form, and that a run gives what the ordinary way gives (the
/// way every item goes while a trace watches): the same values, errors, order and status.
final class PurePipelineTests: XCTestCase {
    func test_onlyPipelinesOfPureStagesWhoseArgumentsNeedNothingButTheInputHaveADirectForm() throws {
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        func direct(_ source: String) throws -> Bool {
            let text = SourceText(source)
            let pipeline = try Parser.parsePipeline(text)
            let site = Site(source: text, statement: pipeline.span, context: [])
            let plans = Evaluator(session: session).plans(pipeline)
            return PurePipeline(plans, nullEnds: false, session: session, scope: Scope(session: session), site: site) != nil
        }
        XCTAssertTrue(try direct("json | pick status"))
        XCTAssertTrue(try direct("json | pick '{s: status, t: total}' | to-json"))
        XCTAssertTrue(try direct("pick a"))
        XCTAssertTrue(try direct(#"text | json | format "<{}>""#))
        XCTAssertFalse(try direct("json | print"))  // an effect
        XCTAssertFalse(try direct("json | delay 1ms"))  // waits
        XCTAssertFalse(try direct(#"json | format "$x {}""#))  // a variable may be a pending promise
        XCTAssertFalse(try direct("json | catch len"))
    }

    /// Lines split in pieces of any size are the lines of the whole: a line across pieces, a
    /// carriage return before the break, a last line without one, bytes that are not UTF-8.
    func test_linesSplitInPiecesAreTheLinesOfTheWhole() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(rng.next() % 40) {
                switch rng.next() % 6 {
                case 0: bytes.append(0x0A)
                case 1: bytes.append(contentsOf: [0x0D, 0x0A])
                case 2: bytes.append(0xFF)
                case 3: bytes.append(contentsOf: Array("é".utf8))
                default: bytes.append(contentsOf: Array(repeating: UInt8(ascii: "a") + UInt8(rng.next() % 26), count: Int(rng.next() % 9)))
                }
            }
            // What the lines are: the text between the breaks, a carriage return before a break dropped.
            var expected = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { LineStream.line(ArraySlice($0)) }
            if bytes.last == 0x0A || bytes.isEmpty { expected.removeLast() }
            var got: [Value] = []
            var pending: [UInt8] = []
            var at = 0
            while at < bytes.count {
                let n = min(bytes.count - at, 1 + Int(rng.next() % 7))
                got += bytes[at..<(at + n)].withUnsafeBufferPointer { LineStream.split($0, after: &pending) }
                at += n
            }
            if !pending.isEmpty { got.append(LineStream.line(pending[...])) }
            XCTAssertEqual(got, expected, "\(bytes)")
        }
    }

    /// Seeded files of orders, some lines not JSON, some not text, some long, run through
    /// `each` pipelines with and without a direct form: the run with no observer (direct) and the
    /// run a trace watches (every item the ordinary way) print the same and end the same.
    func test_aStreamRunDirectlyGivesWhatTheOrdinaryWayGives() throws {
        let dir = NSTemporaryDirectory() + "vow-pure-pipeline-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pipelines = [
            "each (json | pick status) --limit 64 | to-json",
            "each (json | pick status) --limit 1 | to-json",
            "each (json | pick '{s: status, t: total}') | pick 'group_by(@, &to_string(s))' | to-json",
            "each (json | pick 'items[*].qty | sum(@)' | format \"q{}\") --limit 3 | to-json",
            "each len | to-json",
            "each (text | len) | to-json",
            "each (json | keys) | to-json",
        ]
        for seed in 0..<12 {
            var rng = SplitMix64(seed: UInt64(seed))
            let bad = seed % 3 != 0
            let path = dir + "/\(seed).ndjson"
            try Data(Self.orders(&rng, count: 50 + Int(rng.next() % 400), bad: bad)).write(to: URL(fileURLWithPath: path))
            for p in pipelines {
                let source = "read \(path) --stream | \(p)"
                let direct = runVow(source)
                let ordinary = Self.runWatched(source)
                XCTAssertEqual(direct.out, ordinary.out, "seed \(seed): \(p)")
                XCTAssertEqual(direct.err, ordinary.err, "seed \(seed): \(p)")
                XCTAssertEqual(direct.status, ordinary.status, "seed \(seed): \(p)")
                if !bad, p.contains("json") {
                    XCTAssertEqual(direct.status, 0, "seed \(seed): \(p): \(direct.err)")
                }
            }
        }
    }

    /// The consumers that read a stream item by item (`len`, `take`, `where`, a statement's
    /// printing, every other stage as a list) take the items in batches: they see what reading
    /// the whole file as lines gives, in order, and `take` still stops at its Nth item.
    func test_consumersThatTakeItemsInBatchesSeeEveryItemInOrder() throws {
        let path = NSTemporaryDirectory() + "vow-batches-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var rng = SplitMix64(seed: 11)
        let lines = (0..<3_000).map { i in "\(i % 7)-\(rng.next() % 1000)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let whole = "read \(path) | lines"
        let pairs = [
            ("read \(path) --stream | len", "\(whole) | len"),
            ("read \(path) --stream | take 700 | to-json", "\(whole) | pick '[:700]' | to-json"),
            ("read \(path) --stream | where 'starts_with(@, `\"3\"`)' | to-json", "\(whole) | where 'starts_with(@, `\"3\"`)' | to-json"),
            // `where` offers to a stream that fills while `each` waits: its items wait their turn.
            ("read \(path) --stream | where 'starts_with(@, `\"1\"`)' | each (delay 0ms | len) --limit 2 | to-json",
             "\(whole) | where 'starts_with(@, `\"1\"`)' | each len | to-json"),
            ("read \(path) --stream | pick 'length(@)'", "\(whole) | pick 'length(@)'"),
        ]
        for (streamed, listed) in pairs {
            let a = runVow(streamed), b = runVow(listed)
            XCTAssertEqual(a.status, 0, a.err)
            XCTAssertEqual(a.out, b.out, streamed)
        }
        XCTAssertEqual(runVow("read \(path) --stream").out, lines.joined(separator: "\n") + "\n")
    }

    /// A bad line rejects `each`, naming the item and the stage, with the direct form as without.
    func test_aBadLineRejectsNamingTheItemAndTheStage() throws {
        let path = NSTemporaryDirectory() + "vow-bad-line-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"status": "a"}"#.appending("\n{\"status\": \"b\"}\n{bad\n{\"status\": \"c\"}\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = runVow("read \(path) --stream | each (json | pick status) --limit 64")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[json]: expected a string key at line 1, column 2"), r.err)
        XCTAssertTrue(r.err.contains("item 3 of the stream"), r.err)
        XCTAssertTrue(r.err.contains("^^^^ rejected here"), r.err)
    }

    /// While a trace watches, every item runs its pipeline the ordinary way: the trace has a
    /// `json` and a `pick` promise for each item.
    func test_aTraceSeesThePromisesOfEveryItem() throws {
        let file = NSTemporaryDirectory() + "vow-traced-items-\(UUID().uuidString).ndjson"
        let trace = file + ".jsonl"
        defer {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: trace)
        }
        try "{\"status\":\"a\"}\n{\"status\":\"b\"}\n{\"status\":\"c\"}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
        try runner.enableTracing().startFile(trace)
        XCTAssertEqual(runner.run("read \(file) --stream | each (json | pick status) | to-json", name: "<test>"), 0)
        runner.tracer?.stopFile()
        PromiseObservation.remove()
        let events = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map { try JSON.parse(String($0)) }
        let created = events.filter { $0.recordValue?["event"] == "created" }
        XCTAssertEqual(created.filter { $0.recordValue?["name"] == "json" }.count, 3)
        XCTAssertEqual(created.filter { $0.recordValue?["name"] == "pick" }.count, 3)
    }

    /// Lines of orders: JSON records, and with `bad` a few that are not JSON, not UTF-8, empty,
    /// longer than a piece read (64 KiB), or ended by a carriage return; the last without a break.
    static func orders(_ rng: inout SplitMix64, count: Int, bad: Bool) -> [UInt8] {
        let statuses = ["paid", "shipped", "pending", "refunded"]
        var out: [UInt8] = []
        for i in 0..<count {
            var line: String
            let kind = bad ? rng.next() % 40 : 99
            switch kind {
            case 0: line = #"{"status": "paid", "total": }"#
            case 1: line = ""
            case 2: line = #"{"status": "long", "pad": ""# + String(repeating: "x", count: 70_000 + Int(rng.next() % 5000)) + #"", "total": 1}"#
            case 3: line = "[1, 2, 3]"
            default:
                let items = (0..<(1 + Int(rng.next() % 3))).map { _ in #"{"sku": "S\#(rng.next() % 100)", "qty": \#(rng.next() % 5)}"# }
                let status = rng.next() % 10 == 0 ? "null" : "\"\(statuses[Int(rng.next() % 4)])\""
                line = #"{"id": \#(i), "status": \#(status), "total": \#(rng.next() % 100000), "items": [\#(items.joined(separator: ", "))]}"#
            }
            out += Array(line.utf8)
            if kind == 4 { out.append(0xFE) }
            if kind == 5 { out.append(0x0D) }
            if i < count - 1 { out.append(0x0A) }
        }
        return out
    }

    /// Runs `source` while a trace watches every promise, so that no stage runs directly.
    static func runWatched(_ source: String) -> (out: String, err: String, status: Int32) {
        let out = VowRuntime.Locked(""), err = VowRuntime.Locked("")
        let session = Session(output: OutputSink { s in out.withLock { $0 += s } }, diagnostics: OutputSink { s in err.withLock { $0 += s } })
        defer { session.http.shutdown() }
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { s in err.withLock { $0 += s + "\n" } })
        _ = runner.enableTracing()
        defer { PromiseObservation.remove() }
        XCTAssertTrue(PromiseObservation.isActive)
        let status = runner.run(source, name: "<test>")
        return (out.withLock { $0 }, err.withLock { $0 }, status)
    }
}
