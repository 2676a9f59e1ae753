import Foundation
import Synchronization
import VowPromises
import VowValue
import XCTest

@testable import VowRuntime
@testable import VowShell

let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The course in examples/lessons: every lesson runs and prints what its `# expect:` lines say.
final class LessonTests: XCTestCase {
    func test_everyLessonPrintsWhatItExpects() throws {
        let dir = projectRoot.appendingPathComponent("examples/lessons")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".vow") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 12)
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            let expected = text.split(separator: "\n", omittingEmptySubsequences: false)
                .compactMap { line -> String? in
                    guard let r = line.range(of: "# expect: ") else { return nil }
                    return String(line[r.upperBound...])
                }
            XCTAssertFalse(expected.isEmpty, "\(file) has no # expect: lines")
            let r = runVowTranscript(text, name: file)
            XCTAssertEqual(r.status, 0, "\(file):\n\(r.text)")
            XCTAssertEqual(r.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init), expected, file)
        }
    }
}

/// :explain, --trace, :timeline and sim, checked against the documented examples and the trace schema.
final class TeachingTests: XCTestCase {
    func test_explainShowsAChainOfFourWithAdoptionAndSkipNotes() {
        let r = runVow(":explain fetch $u | json | pick a | catch echo 0")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("The chain (4 promises)"), r.out)
        for line in ["p1 = fetch($u)", "p2 = p1.then(json)", "p3 = p2.then(pick a)", "p4 = p3.catch(echo 0)"] {
            XCTAssertTrue(r.out.contains(line), "\(line) in\n\(r.out)")
        }
        XCTAssertTrue(r.out.contains("p1 fetch rejects → skips json, pick a → p4 catch handles it"), r.out)
        XCTAssertTrue(r.out.contains("returns a plain value"), r.out)
    }

    func test_explainNamesAdoptionAndCombinators() {
        let r = runVow(":explain echo 1 | then sim --delay 10ms | all [sim a, sim b] | timeout 1s")
        XCTAssertTrue(r.out.contains("p2 adopts it"), r.out)
        XCTAssertTrue(r.out.contains("fail-fast"), r.out)
        XCTAssertTrue(r.out.contains("p4 = timeout(p3, 1s)"), r.out)
        XCTAssertTrue(r.out.contains("cancels p3 back to its source"), r.out)
        let bad = runVow(":explain echo [1,")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.contains("error[syntax]"), bad.err)
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
        for _ in 0..<5 {
            XCTAssertEqual(runVow("race [sim --delay 20ms a, sim --delay 10ms b]").out, "b\n")
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
