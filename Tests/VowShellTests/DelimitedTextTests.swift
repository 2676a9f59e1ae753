// CSV and TSV against Python's csv module: seeded random tables with commas, quotes, tabs, line
// breaks and non-ASCII text, written and read by both.
import Foundation
import VowValue
import XCTest

@testable import VowRuntime
@testable import VowShell

final class DelimitedTextTests: XCTestCase {
    /// What Python's csv module writes for each table, and what it reads back from that text.
    func python(_ tables: [(delimiter: String, rows: [[String]])]) throws -> [(text: String, read: [[String]])] {
        let script = """
            import csv, io, json, sys
            out = []
            for t in json.load(sys.stdin):
                buf = io.StringIO()
                csv.writer(buf, delimiter=t["delimiter"], lineterminator="\\r\\n").writerows(t["rows"])
                text = buf.getvalue()
                out.append({"text": text, "read": [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=t["delimiter"]) if r]})
            json.dump(out, sys.stdout)
            """
        let input = try JSONSerialization.data(withJSONObject: tables.map { ["delimiter": $0.delimiter, "rows": $0.rows] as [String: Any] })
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script]
        let stdin = Pipe(), stdout = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        try p.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let parsed = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return parsed.map { ($0["text"] as? String ?? "", $0["read"] as? [[String]] ?? []) }
    }

    /// A seeded table: a few rows of fields drawn from pieces that need quoting and some that do not.
    func table(_ rng: inout SplitMix64) -> [[String]] {
        let pieces = ["a", "Ada", "x,y", "say \"hi\"", "\"", "two\nlines", "cr\r\nlf", "tab\there", " pad ", "é€", "漢字", "🙂", "", "1.5", "null", ",", "\t"]
        let columns = 1 + Int(rng.next() % 4)
        return (0..<(1 + Int(rng.next() % 5))).map { _ in
            (0..<columns).map { _ in
                (0..<Int(rng.next() % 3)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            }
        }
    }

    func test_writingAndReadingAgreeWithPythonsCSVModule() throws {
        var rng = SplitMix64(seed: 20261125)
        var tables: [(delimiter: String, rows: [[String]])] = []
        for i in 0..<300 { tables.append((i % 3 == 2 ? "\t" : ",", table(&rng))) }
        let reference = try python(tables)
        XCTAssertEqual(reference.count, tables.count)
        var agreed = 0
        for (t, ref) in zip(tables, reference) {
            let d = Character(t.delimiter)
            let written = t.rows.map { DelimitedText.line($0, delimiter: d) }.joined(separator: "\r\n")
            XCTAssertEqual(written + "\r\n", ref.text, "written: \(t.rows)")
            let read = try DelimitedText.parse(ref.text, delimiter: d)
            XCTAssertEqual(read, ref.read, "read back: \(ref.text.debugDescription)")
            if written + "\r\n" == ref.text && read == ref.read { agreed += 1 }
        }
        XCTAssertEqual(agreed, tables.count)
    }

    /// The same text read line by line (a stream) gives the same records as read whole.
    func test_aReaderFedLinesGivesWhatTheWholeTextGives() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let rows = table(&rng)
            let text = rows.map { DelimitedText.line($0, delimiter: ",") }.joined(separator: "\n")
            var reader = DelimitedText.Reader(delimiter: ",")
            var fed: [[String]] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) { fed += reader.feedLine(String(line)) }
            if let last = try reader.finish() { fed.append(last) }
            XCTAssertEqual(fed, try DelimitedText.parse(text, delimiter: ","), text.debugDescription)
        }
    }

    /// Through the stages: a header row and records, as Python's DictReader reads them, and back.
    func test_theStagesReadRecordsAndWriteThemBack() throws {
        let file = NSTemporaryDirectory() + "vow-csv-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "name,note,n\r\nAda,\"likes, commas\",3\r\nBob,\"two\nlines\",\r\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(runVow("read \(file) | csv | to-json").out, #"[{"name":"Ada","note":"likes, commas","n":"3"},{"name":"Bob","note":"two\nlines","n":""}]"# + "\n")
        XCTAssertEqual(runVow("read \(file) --stream | csv | pick '[*].name' | to-json").out, #"["Ada","Bob"]"# + "\n")
        XCTAssertEqual(runVow("read \(file) | csv | to-csv").out, "name,note,n\r\nAda,\"likes, commas\",3\r\nBob,\"two\nlines\",\n")
        XCTAssertEqual(runVow("read \(file) | csv | pick '[0].name' ; echo [{a: \"x,y\"}] | to-csv").out, "Ada\na\r\n\"x,y\"\n")
        let unclosed = runVow("echo 'a\n\"open' | csv")
        XCTAssertTrue(unclosed.err.contains("csv: a quoted field that starts on line 2 is never closed"), unclosed.err)
        let twice = runVow("echo 'a,a\n1,2' | csv")
        XCTAssertTrue(twice.err.contains("the header names 'a' twice (columns 1 and 2)"), twice.err)
    }

    /// The twin reads and writes as vow does, streams included.
    func test_theTwinReadsAndWritesAsVowDoes() throws {
        let program = """
            let t = echo [{a: "x,y", b: "say \\"hi\\"", c: null, d: 3}, {a: "line1\\nline2", b: "é€", c: [1, 2], d: true}]
            $t | to-csv
            $t | to-csv | csv | to-json
            $t | to-tsv --no-header | tsv --no-header | to-json
            run printf "a,b\\n1,\\"two\\nlines\\"\\n3,4\\n" --stream | csv | to-json
            run seq 1 3 --stream | csv --no-header | to-csv --columns x
            """
        let vowRun = runVow(program, javaScript: true)
        XCTAssertEqual(vowRun.status, 0, vowRun.err)
        let node = try runTwin(program, name: "csv")
        XCTAssertEqual(node.out, vowRun.out)
    }
}
