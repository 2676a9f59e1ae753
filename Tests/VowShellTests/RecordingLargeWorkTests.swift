// The REPL's recording for `:timeline` spares large work (`Tracer.sparesLargeWork`): work of
// more than `PromiseObservation.smallWork` items runs as it does with no observer and is named
// below the chart; small work is recorded exactly as a trace records it. Checked rule by rule on
// real runs, each against the same statement recorded promise by promise.
import Foundation
import XCTest

@testable import VowPromises
@testable import VowRuntime
@testable import VowShell
import VowValue

final class RecordingLargeWorkTests: XCTestCase {
    typealias Run = TurnTimelineTests.Run

    /// What one statement printed and recorded, in a session that spares large work or not.
    struct Recorded {
        let output: String
        let entries: [Tracer.Entry]
        var created: Int { entries.filter { if case .created = $0.event { return true } else { return false } }.count }
        var notes: [UnrecordedWork] {
            entries.compactMap { if case .labelled(0, let w as UnrecordedWork) = $0.event { return w } else { return nil } }
        }
        var turns: String { TurnView.render(RecordedTurns(Tracer.numberedFromOne(entries)), colors: false) }
    }

    func record(_ source: String, spares: Bool) -> Recorded {
        let run = Run(javaScript: false)
        run.tracer.sparesLargeWork = spares
        XCTAssertEqual(PromiseObservation.sparesLargeWork, spares)
        let mark = run.tracer.mark()
        let output = run.run(source)
        return Recorded(output: output, entries: run.tracer.since(mark))
    }

    /// A file of `lines` NDJSON records `{"n": i}`, removed when the test ends.
    func ndjson(_ lines: Int) throws -> String {
        let path = NSTemporaryDirectory() + "vow-recording-\(UUID().uuidString).ndjson"
        try (0..<lines).map { "{\"n\": \($0)}\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Large work: the same output as when every promise is recorded, a handful of promises
    /// instead of one an item, and one note naming the stage and how many items it ran.
    func test_largeWorkRunsAsWithNoObserverAndIsNoted() throws {
        let file = try ndjson(3000)
        // `few`: the spared run makes a handful of promises (not a group's that are not pure);
        // `everyItem`: the strict one makes one an item (not `each json | where`, whose items are
        // filtered before any promise, recorded or not).
        let cases: [(source: String, stage: String, items: Int?, few: Bool, everyItem: Bool)] = [
            ("range 1 5000 | each (pick '@ + `1`') | len", "each (pick '@ + `1`')", 5000, true, true),
            ("range 1 5000 | each (pick '@ * `2`') | pick 'sum(@)'", "each (pick '@ * `2`')", 5000, true, true),
            ("range 1 3000 | all | len", "all", 3000, true, true),
            ("range 1 3000 | each (echo 1 | then (pick '@')) | len", "each (echo 1 | then (pick '@'))", 3000, false, true),
            ("range 1 1500 | each resolve | len", "each resolve", 1500, false, true),
            ("read \(file) --stream | each (echo 1 | then (pick '@')) | len", "each (echo 1 | then (pick '@'))", nil, false, true),
            ("read \(file) --stream | each (json | pick n) --limit 64 | pick 'sum(@)'", "each (json | pick n) --limit 64", nil, true, true),
            ("read \(file) --stream | each json | where 'n > `10`' | len", "each json", nil, true, false),
        ]
        for c in cases {
            let strict = record(c.source, spares: false)
            let spared = record(c.source, spares: true)
            XCTAssertEqual(spared.output, strict.output, c.source)
            XCTAssertFalse(strict.output.isEmpty, c.source)
            if c.everyItem { XCTAssertGreaterThan(strict.created, 2900, c.source) }
            if c.few { XCTAssertLessThan(spared.created, 20, c.source) }
            XCTAssertTrue(strict.notes.isEmpty, c.source)
            XCTAssertEqual(spared.notes.map(\.stage.text), [c.stage], c.source)
            XCTAssertEqual(spared.notes.first?.items, c.items, c.source)
        }
    }

    /// Up to `smallWork` items, the recording is the one a trace makes: the same turns, the
    /// same promises, no note.
    func test_smallWorkIsRecordedAsEveryPromiseIs() throws {
        let n = PromiseObservation.smallWork
        let sources = [
            "range 1 \(n) | each (pick '@ + `1`') | len",
            "range 0 9 | each (pick '@ + `1`')",
            "echo [1, 2, 3] | all",
            "all [(resolve 1), (resolve 2)]",
            "range 1 \(n) | all | len",
            "range 1 \(n) | each resolve | len",
            "echo '{\"a\": [1, 2]}' | json | pick 'a[1]'",
        ]
        for source in sources {
            let strict = record(source, spares: false)
            let spared = record(source, spares: true)
            XCTAssertEqual(spared.output, strict.output, source)
            XCTAssertEqual(spared.created, strict.created, source)
            XCTAssertTrue(spared.notes.isEmpty, source)
            XCTAssertEqual(spared.turns, strict.turns, source)
        }
    }

    /// A stage whose input is one item over `smallWork` is the first to be spared.
    func test_theLimitIsSmallWorkItems() {
        let n = PromiseObservation.smallWork
        XCTAssertTrue(record("range 1 \(n) | each (pick '@') | len", spares: true).notes.isEmpty)
        XCTAssertEqual(record("range 0 \(n) | each (pick '@') | len", spares: true).notes.first?.items, n + 1)
    }

    /// `:timeline` (and `--turns`) say below the chart what they did not draw, and how to have it.
    func test_theTimelineNamesWhatItDidNotDraw() {
        let spared = record("range 1 2000 | each (pick '@') | len", spares: true)
        let chart = Timeline.render(Tracer.numberedFromOne(spared.entries), width: 100, colors: false)
        XCTAssertTrue(chart.contains("range 1 2000"), chart)
        XCTAssertTrue(chart.hasSuffix("\nnot drawn: each (pick '@') (line 1): 2000 items ran as in a script, not every promise recorded (the REPL records all of up to 1000 items a stage; after :trace on, of any number)"), chart)
        let turns = TurnTimeline.render(spared.entries, width: 100, colors: false)
        XCTAssertTrue(turns.contains("not drawn: each (pick '@') (line 1): 2000 items"), turns)
        let small = record("range 1 20 | each (pick '@') | len", spares: true)
        XCTAssertFalse(Timeline.render(small.entries, width: 100, colors: false).contains("not drawn"))
    }

    /// `:step` and a trace file want every promise: while they run, nothing is spared, and the
    /// REPL's recording spares large work again afterwards.
    func test_stepAndTraceRecordEveryPromise() throws {
        let run = Run(javaScript: false)
        run.tracer.sparesLargeWork = true
        let stepped = run.runner.runShowingTurns("range 1 2000 | each (pick '@') | len", name: "<step>")
        XCTAssertTrue(PromiseObservation.sparesLargeWork)
        XCTAssertTrue(TurnView.render(stepped.turns, colors: false).contains("p2000"))
        let trace = NSTemporaryDirectory() + "vow-recording-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: trace) }
        try run.tracer.startFile(trace)
        XCTAssertFalse(PromiseObservation.sparesLargeWork)
        run.run("range 1 2000 | each (pick '@') | len")
        XCTAssertEqual(run.tracer.stopFile(), trace)
        XCTAssertTrue(PromiseObservation.sparesLargeWork)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        XCTAssertGreaterThan(lines.filter { $0.contains("\"event\":\"created\"") }.count, 2000)
        run.runner.disableTracing()
        XCTAssertFalse(PromiseObservation.sparesLargeWork)
    }

    /// A large document read for a `pick` in the REPL goes the way it goes in a script (never
    /// built into values), and its value, kept for the session, is named by its tape's root.
    func test_aLargeDocumentIsReadAsInAScript() throws {
        let path = NSTemporaryDirectory() + "vow-recording-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // About 2 MB: over the thousand kilobytes of small work.
        let doc = "[" + (0..<80_000).map { "{\"n\": \($0), \"s\": \"\($0 % 7)\"}" }.joined(separator: ",") + "]"
        try doc.write(toFile: path, atomically: true, encoding: .utf8)
        let source = "read \(path) | json | pick 'length([?s == `\"3\"`])'"
        let strict = record(source, spares: false)
        let spared = record(source, spares: true)
        XCTAssertGreaterThan(doc.utf8.count / 1024, PromiseObservation.smallWork)
        XCTAssertEqual(strict.output, "\((0..<80_000).filter { $0 % 7 == 3 }.count)\n")
        XCTAssertEqual(spared.output, strict.output)
        let values = spared.entries.compactMap { e -> Value? in
            if case .fulfilled(_, let v as Value) = e.event { return v } else { return nil }
        }
        XCTAssertTrue(values.contains { if case .opaque(let o as FileText) = $0 { return o.bytes.count == doc.utf8.count } else { return false } })
        let picked = values.compactMap { if case .opaque(let o as PickedAhead) = $0 { return o } else { return nil } }
        XCTAssertEqual(picked.map(\.typeName), ["list"])
        XCTAssertEqual(picked.first.map { Tracer.largeValue(.opaque($0)) }, "a list")
        // Under a trace, the document is built into values.
        XCTAssertFalse(strict.entries.contains { if case .fulfilled(_, let v as Value) = $0.event, case .opaque = v { return true } else { return false } })
    }

    /// In a recording that condenses the statements before (the REPL's), a statement's events
    /// after its first `Tracer.keptWhole` keep a large value as a sentence; the first ones whole.
    func test_aLongStatementKeepsItsLateLargeValuesAsSentences() {
        let run = Run(javaScript: false)
        run.tracer.condensesEarlier = true
        run.tracer.sparesLargeWork = true
        let mark = run.tracer.mark()
        XCTAssertEqual(run.run("range 1 3000 | each (echo 1 | then (range 1 300)) | len"), "3000\n")
        let fulfilled = run.tracer.since(mark).enumerated().compactMap { i, e -> (Int, any Sendable)? in
            if case .fulfilled(_, let v) = e.event { return (i, v) } else { return nil }
        }
        let large = fulfilled.filter { _, v in if case .list(let l)? = v as? Value { return l.count == 300 } else { return false } }
        let sentences = fulfilled.filter { _, v in (v as? Tracer.LargeValue)?.description == "a list of 300 items" }
        XCTAssertGreaterThan(large.count, 100)
        XCTAssertGreaterThan(sentences.count, 1000)
        // Counted from the statement's start, which a few events of the run before it precede.
        let lastWhole = large.map(\.0).max() ?? 0, firstSentence = sentences.map(\.0).min() ?? 0
        XCTAssertLessThan(lastWhole, firstSentence)
        XCTAssertLessThan(abs(firstSentence - Tracer.keptWhole), 20)
    }

    /// In the REPL's recording, a stream's statement keeps none of its items: a batch of them
    /// (`ValueStream.next`) is kept as a sentence at once, and `len`, `take` and `reduce` make no
    /// promise an item. Before, every line of a 50 MB file stayed until the next statement
    /// (76 MB for `read F --stream | len`, where a script takes 19 MB).
    func test_aStreamsStatementKeepsNoneOfItsItems() throws {
        let path = try ndjson(3000)
        for tail in ["len", "take 2900 | len", "reduce 'acc + `1`' 0"] {
            let run = Run(javaScript: false)
            run.tracer.condensesEarlier = true
            run.tracer.sparesLargeWork = true
            let mark = run.tracer.mark()
            let out = run.run("read \(path) --stream | \(tail)")
            XCTAssertTrue(out.hasPrefix("3000") || out.hasPrefix("2900"), out)
            let entries = run.tracer.since(mark)
            let kept = entries.reduce(0) { n, e in if case .fulfilled(_, let v as [Value]) = e.event { return n + v.count } else { return n } }
            let sentences = entries.filter { e in
                if case .fulfilled(_, let v as Tracer.LargeValue) = e.event { return v.description.hasPrefix("a list of") } else { return false }
            }
            XCTAssertLessThanOrEqual(kept, PromiseObservation.smallWork, tail)
            XCTAssertGreaterThan(sentences.count, 3, tail)
            // No promise an item.
            XCTAssertLessThan(entries.count, 500, tail)
        }
    }

    /// A large output written piece by piece reaches an observer that spares large work as its
    /// first 4,096 bytes and its size; a small one whole.
    func test_aLargeOutputIsNotedByItsStartAndSize() {
        final class Written: @unchecked Sendable { var bytes = 0; var noted: [String] = [] }
        let written = Written()
        let lock = NSLock()
        let sink = OutputSink({ _ in }, bytes: { b in lock.lock(); written.bytes += b.count; lock.unlock() })
        final class Observer: PromiseObserver, @unchecked Sendable {
            let written: Written
            let lock: NSLock
            init(_ w: Written, _ l: NSLock) { written = w; lock = l }
            func promiseEvent(_ event: PromiseEvent) {
                if case .output(let text) = event { lock.lock(); written.noted.append(text); lock.unlock() }
            }
        }
        PromiseObservation.install(Observer(written, lock))
        PromiseObservation.sparesLargeWork = true
        defer {
            PromiseObservation.sparesLargeWork = false
            PromiseObservation.remove()
        }
        let piece = Array(repeating: UInt8(ascii: "x"), count: 1000)
        sink.emit(pieces: { send in for _ in 0..<10 { piece.withUnsafeBufferPointer(send) } })
        sink.emit(pieces: { send in piece.withUnsafeBufferPointer(send) })
        XCTAssertEqual(written.bytes, 11_000)
        XCTAssertEqual(written.noted, [String(repeating: "x", count: 4096) + "… (10000 bytes in all)", String(repeating: "x", count: 1000)])
    }
}
