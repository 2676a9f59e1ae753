import Foundation
import Synchronization
import VowPromises
import VowValue
import XCTest

@testable import VowRuntime
@testable import VowShell

let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The course in examples/lessons: every lesson runs, in vow's mode and in JavaScript mode, and
/// prints what its expectation lines say: `# expect:` in both modes, `# vow:` in vow's mode only,
/// `# js:` in JavaScript mode only (a marker alone on its line is an empty line of output). It
/// ends with the status its header declares (`# status: 1`), 0 when it declares none.
final class LessonTests: XCTestCase {
    static func expectations(_ text: String, javaScript: Bool) -> [String] {
        let markers = javaScript ? ["# expect: ", "# js: "] : ["# expect: ", "# vow: "]
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            for m in markers {
                if let r = line.range(of: m) { return String(line[r.upperBound...]) }
                if line.trimmingCharacters(in: .whitespaces) == m.trimmingCharacters(in: .whitespaces) { return "" }
            }
            return nil
        }
    }

    /// The status a lesson declares in its header (the comment lines before its first
    /// statement) with `# status: N`; 0 when it declares none.
    static func status(_ text: String) -> Int32 {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = line.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            guard line.hasPrefix("#") else { break }
            if line.hasPrefix("# status: "), let n = Int32(line.dropFirst(10)) { return n }
        }
        return 0
    }

    static var lessons: [(file: String, text: String)] {
        let dir = projectRoot.appendingPathComponent("examples/lessons")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".vow") }.sorted()) ?? []
        return files.map { ($0, (try? String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8)) ?? "") }
    }

    func test_everyLessonPrintsWhatItExpects() throws {
        XCTAssertGreaterThanOrEqual(Self.lessons.count, 14)
        for (file, text) in Self.lessons {
            for js in [false, true] {
                let expected = Self.expectations(text, javaScript: js)
                XCTAssertFalse(expected.isEmpty, "\(file) has no # expect: lines")
                let r = runVowTranscript(text, name: file, javaScript: js)
                XCTAssertEqual(r.status, Self.status(text), "\(file) (js: \(js)):\n\(r.text)")
                XCTAssertEqual(
                    r.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init), expected,
                    "\(file) (js: \(js))")
            }
        }
    }

    /// A lesson's header declares its status; the declaration is read from the header only.
    func test_aLessonDeclaresItsStatusInItsHeader() {
        XCTAssertEqual(Self.status("# Lesson\n# status: 1\n#\necho 1"), 1)
        XCTAssertEqual(Self.status("# Lesson\n\n# status: 3\necho 1"), 3)
        XCTAssertEqual(Self.status("# Lesson\necho 1\n# status: 1"), 0)
        XCTAssertEqual(Self.status("echo 1"), 0)
        XCTAssertEqual(Self.expectations("# js:\n# js: a\n# vow: b\n# expect:", javaScript: true), ["", "a", ""])
        let declared = Self.lessons.filter { Self.status($0.text) != 0 }.map(\.file)
        XCTAssertTrue(declared.contains { $0.contains("unhandled") }, "the lesson on unhandled rejections ends with status 1: \(declared)")
    }

    /// The lesson on the two modes really shows a difference for race, any, all and timeout.
    func test_theTwoModesLessonDiffersWhereItSays() {
        guard let lesson = Self.lessons.first(where: { $0.file.contains("two-modes") }) else {
            return XCTFail("no two-modes lesson")
        }
        let onlyJS = lesson.text.split(separator: "\n").filter { $0.contains("# js: ") }
        XCTAssertGreaterThanOrEqual(onlyJS.count, 4, "race, any, all and timeout each show what JavaScript lets run on")
    }
}

/// :explain, --trace, :timeline and sim, checked against the documented examples and the trace schema.
final class TeachingTests: XCTestCase {
    func test_explainShowsAChainOfFourWithAdoptionAndSkipNotes() {
        let r = runVow(":explain fetch $u | json | pick a | catch echo 0")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("The chain (4 promises)"), r.out)
        for line in [
            "p1 = vow.fetch(null, {}, $u)", "p2 = p1.then((v1) => vow.json(v1))", #"p3 = p2.then((v1) => vow.pick(v1, "a"))"#,
            "p4 = p3.catch(vow.onError((v1) => vow.echo(v1, 0)))",
        ] {
            XCTAssertTrue(r.out.contains(line), "\(line) in\n\(r.out)")
        }
        XCTAssertTrue(r.out.contains("p1 fetch $u rejects → skips json, pick a → p4 catch handles it"), r.out)
        XCTAssertTrue(r.out.contains("returns a plain value, so p4 fulfils with it"), r.out)
    }

    func test_explainNamesAdoptionAndCombinators() {
        let r = runVow(":explain echo 1 | then sim --delay 10ms | all [sim a, sim b] | timeout 1s")
        XCTAssertTrue(r.out.contains("which p2 adopts"), r.out)
        XCTAssertTrue(r.out.contains("fail-fast"), r.out)
        XCTAssertTrue(r.out.contains("p4 = vow.timeout(p3, 1)"), r.out)
        XCTAssertTrue(r.out.contains("p3 is cancelled back to its source"), r.out)
        XCTAssertTrue(r.out.contains("vow departs from JavaScript here"), r.out)
        let js = runVow(":explain echo 1 | then sim --delay 10ms | all [sim a, sim b] | timeout 1s", javaScript: true)
        XCTAssertFalse(js.out.contains("vow departs from JavaScript here"), js.out)
        XCTAssertTrue(js.out.contains("nothing is cancelled"), js.out)
        let bad = runVow(":explain echo [1,")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.contains("error[syntax]"), bad.err)
    }

    /// :explain tells what each stage really does: a stage that throws rejects (no adoption, no
    /// "plain value"), a first stage that cannot reject is not listed as rejecting, and a catch
    /// handler that returns a value recovers the chain.
    func test_explainTellsTheTruthStageByStage() {
        let r = runVow(":explain resolve 1 | then fail x | catch echo 0")
        XCTAssertTrue(r.out.contains("p1 = Promise.resolve(1)"), r.out)
        XCTAssertTrue(r.out.contains("(fail x) throws, so p2 rejects with that error in the same turn"), r.out)
        XCTAssertFalse(r.out.contains("p1 resolve 1 rejects"), r.out)
        XCTAssertTrue(r.out.contains("p2 then fail x rejects → p3 catch handles it"), r.out)
        XCTAssertTrue(r.out.contains("returns a plain value, so p3 fulfils with it in the same turn (the chain recovers)"), r.out)
        XCTAssertFalse(r.out.contains("p2 fulfils with it"), r.out)
        let adopted = runVow(":explain resolve 1 | then (resolve 2) | then resolve 3")
        XCTAssertTrue(adopted.out.contains("returns a promise, which p2 adopts"), adopted.out)
        XCTAssertTrue(adopted.out.contains("returns a plain value, so p3 fulfils with it"), adopted.out)
    }

    /// `:explain --js` writes a complete program that node runs as it is, printing what vow prints.
    func test_explainAsJavaScriptRunsInNode() throws {
        let pipeline = "resolve 1 | then (delay 5ms 2 | print inner) | print outer | catch echo never"
        let js = runVow(":explain --js " + pipeline)
        XCTAssertEqual(js.status, 0, js.err)
        XCTAssertTrue(js.out.contains("Promise.resolve(1)"), js.out)
        XCTAssertEqual(try runNode(js.out).out, runVow(pipeline, javaScript: true).out)
    }

    func trace(_ source: String) throws -> [Value] {
        let path = NSTemporaryDirectory() + "vow-trace-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = Session(output: OutputSink { _ in })
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
        try runner.enableTracing().startFile(path)
        _ = runner.run(source, name: "<test>")
        runner.tracer?.stopFile()
        PromiseObservation.remove()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSON.parse(String($0)) }
    }

    func test_traceOfAllValidatesAndCarriesBothValues() throws {
        let schema = try JSON.parse(String(contentsOf: projectRoot.appendingPathComponent("docs/trace-schema.json"), encoding: .utf8))
        let lines = try trace("all [sim --delay 30ms 1, sim --delay 10ms 2]")
        for line in lines {
            let problems = SchemaValidator.validate(line, against: schema)
            XCTAssertTrue(problems.isEmpty, "\(JSONWriter.compact(line)): \(problems)")
        }
        let created = lines.filter { $0.recordValue?["event"] == "created" }
        XCTAssertGreaterThanOrEqual(created.count, 3)
        let values = lines.filter { $0.recordValue?["event"] == "fulfilled" }.compactMap { $0.recordValue?["value"] }
        XCTAssertTrue(values.contains(1) && values.contains(2), "\(values)")
        // Times never go backwards.
        let times = lines.compactMap { $0.recordValue?["t"]?.intValue }
        XCTAssertEqual(times, times.sorted())
    }

    /// `:explain` says what a stream is in JavaScript.
    func test_explainSaysAStreamIsAnAsyncIterator() {
        let r = runVow(":explain run seq 1 3 --stream | take 2")
        XCTAssertTrue(r.out.contains("fulfils with a stream"), r.out)
        XCTAssertTrue(r.out.contains("async iterator"), r.out)
        XCTAssertTrue(r.out.contains("for await"), r.out)
        XCTAssertFalse(runVow(":explain run seq 1 3 | take 2").out.contains("async iterator"))
        // each returns a promise of its results, adopted: not a plain value.
        let each = runVow(":explain run seq 1 3 --stream | each format \"<{}>\" | len").out
        XCTAssertTrue(each.contains("p2 = p1.then((v1) => vow.each(v1, {}, (v2) => vow.format("), each)
        XCTAssertTrue(each.contains("returns a promise of the results in order, which p2 adopts"), each)
        XCTAssertFalse(each.contains("(each format \"<{}>\") returns a plain value"), each)
        // take and len read the stream as it is (`StageDefinition.takesStream`); format gets its
        // items collected first, as the twin writes it.
        let take = runVow(":explain run seq 1 3 --stream | take 2").out
        XCTAssertTrue(take.contains("its handler (take 2) reads it with `for await` and returns a promise, which p2 adopts"), take)
        let len = runVow(":explain run seq 1 3 --stream | len").out
        XCTAssertTrue(len.contains("p2 = p1.then((v1) => vow.len(v1))"), len)
        XCTAssertTrue(len.contains("its handler (len) reads it with `for await`"), len)
        let format = runVow(":explain run seq 1 3 --stream | format \"{}\"").out
        XCTAssertTrue(format.contains("p2 = p1.then((v1) => vow.whole(v1, (v1) => vow.format("), format)
        XCTAssertTrue(format.contains("collects the items into a list"), format)
    }

    /// Under a trace, `json` followed by `pick` builds the whole document: the trace shows the
    /// parsed record, not the value the path scan would hand to `pick`.
    func test_aTraceOfJsonThenPickShowsTheParsedDocument() throws {
        let lines = try trace(#"echo '{"a": {"b": 2}, "c": 3}' | json | pick a.b"#)
        let values = lines.filter { $0.recordValue?["event"] == "fulfilled" }.compactMap { $0.recordValue?["value"] }
        XCTAssertTrue(values.contains(["a": ["b": 2], "c": 3] as Value), "\(values)")
        XCTAssertTrue(values.contains(2), "\(values)")
    }

    func test_theValidatorRejectsABrokenLine() throws {
        let schema = try JSON.parse(String(contentsOf: projectRoot.appendingPathComponent("docs/trace-schema.json"), encoding: .utf8))
        XCTAssertFalse(SchemaValidator.validate(["t": 1, "event": "fulfilled", "id": 1] as Value, against: schema).isEmpty)
        XCTAssertFalse(SchemaValidator.validate(["t": -1, "event": "cancelled", "id": 1] as Value, against: schema).isEmpty)
        XCTAssertFalse(SchemaValidator.validate(["t": 1, "event": "exploded", "id": 1] as Value, against: schema).isEmpty)
        XCTAssertTrue(SchemaValidator.validate(["t": 1, "event": "cancelled", "id": 1] as Value, against: schema).isEmpty)
    }

    func test_secretsNeverAppearInTracesExplainOrTimeline() throws {
        let source = #"echo 1 | then echo x --never --bearer S3CRET1 | catch echo "Authorization: Bearer S3CRET2""#
        let lines = try trace("get http://127.0.0.1:1/ --header 'Cookie: S3CRET3' --bearer S3CRET5 | catch echo 0")
        XCTAssertTrue(lines.contains { $0.recordValue?["stage"] == "get" }, "the get stage was traced")
        for line in lines { XCTAssertFalse(JSONWriter.compact(line).contains("S3CRET"), JSONWriter.compact(line)) }
        let explained = runVow(":explain " + source).out
        XCTAssertFalse(explained.contains("S3CRET"), explained)
        let timeline = runVow("echo 1 | tap echo 'Cookie: S3CRET4' | len\n:timeline").out
        XCTAssertFalse(timeline.contains("S3CRET4"), timeline)
    }

    func test_raceIsTheSameOnEveryRun() {
        // The timers are far apart: a timer starts from the time it is set (as node's does), so
        // under load the elements' starts 10 ms apart let 20 ms and 10 ms finish in either order.
        for _ in 0..<5 {
            XCTAssertEqual(runVow("race [sim --delay 300ms a, sim --delay 10ms b]").out, "b\n")
        }
    }

    func test_retryMakesExactlyThreeAttemptsEachVisibleInTheTrace() throws {
        let r = runVow("sim --fail 1.0 --seed 3 x | retry 2 --delay 10ms")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[user]: simulated failure (seed 3, attempt 3)"), r.err)
        let lines = try trace("sim --fail 1.0 --seed 3 x | retry 2 --delay 10ms")
        let messages = lines.compactMap { $0.recordValue?["error"]?.recordValue?["message"]?.stringValue }
        for attempt in 1...3 {
            XCTAssertTrue(messages.contains("simulated failure (seed 3, attempt \(attempt))"), "attempt \(attempt): \(messages)")
        }
        XCTAssertFalse(messages.contains("simulated failure (seed 3, attempt 4)"))
    }

    func test_timelineShowsOverlapForAllAndAStaircaseForAChain() {
        let parallel = runVow("all [sim --delay 40ms a, sim --delay 40ms b, sim --delay 40ms c] | len\n:timeline").out
        let rows = parallel.split(separator: "\n").filter { $0.hasPrefix("sim --delay 40ms") }
        XCTAssertEqual(rows.count, 3, parallel)
        // Overlapping bars: every bar starts in the first few columns.
        let starts = rows.map { row -> Int in
            let bar = row[row.range(of: "│")!.upperBound...]
            return bar.distance(from: bar.startIndex, to: bar.firstIndex(of: "█")!)
        }
        XCTAssertLessThan(starts.max()!, 5, parallel)
        XCTAssertTrue(parallel.contains("✓"), parallel)

        let chain = runVow("sim --delay 40ms a | then sim --delay 40ms b | then sim --delay 40ms c\n:timeline").out
        let steps = chain.split(separator: "\n").filter { $0.hasPrefix("sim --delay 40ms") }.map { row -> Int in
            let bar = row[row.range(of: "│")!.upperBound...]
            return bar.distance(from: bar.startIndex, to: bar.firstIndex(of: "█")!)
        }
        XCTAssertEqual(steps.count, 3, chain)
        XCTAssertEqual(steps, steps.sorted(), chain)
        XCTAssertGreaterThan(steps.last! - steps.first!, 10, "a staircase:\n\(chain)")
    }

    func test_timelineMarksRejectionsAndCancellations() {
        let out = runVow("race [sim --delay 10ms a, sim --delay 200ms b]\n:timeline").out
        XCTAssertTrue(out.contains("⊘"), out)
        let failed = runVow("sim --fail 1.0 x | catch echo saved\n:timeline").out
        XCTAssertTrue(failed.contains("✗"), failed)
    }

    /// `sim` draws the same outcomes each time a statement runs: a statement typed again, or a
    /// lesson loaded twice in one session, prints what it printed the first time, while `retry`
    /// within one run still draws attempt 1, 2, 3, 4.
    func test_simIsRepeatablePerStatementAndPerLoad() throws {
        let again = runVow("sim --fail 1.0 x | catch pick message\nsim --fail 1.0 x | catch pick message")
        XCTAssertEqual(again.out, "simulated failure (seed 1, attempt 1)\nsimulated failure (seed 1, attempt 1)\n")
        let retried = runVow("sim --fail 1.0 x | retry 3 | catch pick message")
        XCTAssertEqual(retried.out, "simulated failure (seed 1, attempt 4)\n")
        let lesson = try String(contentsOf: projectRoot.appendingPathComponent("examples/lessons/12-retry.vow"), encoding: .utf8)
        let out = VowRuntime.Locked("")
        let runner = Runner(session: Session(output: OutputSink({ s in out.withLock { $0 += s } }), diagnostics: OutputSink({ _ in })), renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
        defer { runner.session.http.shutdown() }
        XCTAssertEqual(runner.run(lesson, name: "12-retry.vow"), 0)
        let first = out.withLock { s -> String in defer { s = "" }; return s }
        XCTAssertEqual(runner.run(lesson, name: "12-retry.vow"), 0)
        XCTAssertEqual(out.withLock { $0 }, first)
        XCTAssertFalse(first.isEmpty)
    }

    /// `:explain` and `:explain --js` know the session's `def` and `async def` stages: the chain
    /// calls the def's function, and the JavaScript they write runs under node.
    func test_explainKnowsTheSessionsDefs() throws {
        for def in ["def g() = delay 10ms x", "async def g() = await delay 10ms | echo x"] {
            let explained = runVow("\(def)\n:explain g | print \"{}\"")
            XCTAssertTrue(explained.out.contains("p1 = stage_g(null)"), explained.out)
            XCTAssertFalse(explained.out.contains("missing"), explained.out)
            let js = runVow("\(def)\n:explain --js g | print \"{}\"").out
            XCTAssertEqual(try runNode(js).out, "x\n", js)
        }
    }
}

/// The part of JSON Schema that docs/trace-schema.json uses: type, enum, const, required,
/// properties, items, oneOf, minimum.
enum SchemaValidator {
    static func validate(_ v: Value, against schema: Value, path: String = "$") -> [String] {
        guard let s = schema.recordValue else { return [] }
        var problems: [String] = []
        if let type = s["type"] {
            let allowed = type.listValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
            let actual: String
            switch v {
            case .null: actual = "null"
            case .bool: actual = "boolean"
            case .int: actual = "integer"
            case .double(let d): actual = d == d.rounded() ? "integer" : "number"
            case .string: actual = "string"
            case .list: actual = "array"
            default: actual = "object"
            }
            if !allowed.contains(actual) && !(actual == "integer" && allowed.contains("number")) {
                problems.append("\(path): \(actual) is not \(allowed)")
            }
        }
        if let options = s["enum"]?.listValue, !options.contains(v) { problems.append("\(path): not one of \(JSONWriter.compact(.list(options)))") }
        if let c = s["const"], c != v { problems.append("\(path): not \(JSONWriter.compact(c))") }
        if let min = s["minimum"]?.doubleValue, let d = v.doubleValue, d < min { problems.append("\(path): below \(min)") }
        if let r = v.recordValue {
            for key in s["required"]?.listValue?.compactMap(\.stringValue) ?? [] where r[key] == nil {
                problems.append("\(path): missing \(key)")
            }
            if let props = s["properties"]?.recordValue {
                for (k, sub) in props.entries { if let x = r[k] { problems += validate(x, against: sub, path: path + "." + k) } }
            }
        }
        if let items = s["items"], let l = v.listValue {
            for (i, x) in l.enumerated() { problems += validate(x, against: items, path: "\(path)[\(i)]") }
        }
        if let branches = s["oneOf"]?.listValue {
            let passing = branches.filter { validate(v, against: $0, path: path).isEmpty }.count
            if passing != 1 { problems.append("\(path): matches \(passing) of the oneOf branches, not exactly one") }
        }
        return problems
    }
}
