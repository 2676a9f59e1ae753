import Foundation
import VowValue
import XCTest

@testable import VowShell

/// `each json | pick EXPR` over a stream puts each item's document into one tape of the list,
/// which `pick` searches (`StagePlan.pickAhead` on `each`, `JSONLinesTape`): the same values,
/// printing and errors as the pipeline without it (a stage between them turns it off), on
/// generated files and on the lines the tape does not take (which go the ordinary way).
final class EachPickAheadTests: LineFileTestCase {
    /// The error report without the lines that quote the pipeline (the tap is not in the fused one).
    func head(_ err: String) -> [Substring] {
        err.split(separator: "\n").filter { !$0.contains("= skipped:") && !$0.contains("│ read") && !$0.contains("^^^") && !$0.contains("-->") }
    }

    /// `tail` after `each json` with and without a stage between them.
    func assertSame(_ path: String, _ tail: String, file: StaticString = #filePath, line: UInt = #line) {
        let fused = runVow("read \(path) --stream | each json --limit 8 | \(tail)")
        let plain = runVow("read \(path) --stream | each json | tap (quiet) | \(tail)")
        XCTAssertEqual(fused.out, plain.out, tail, file: file, line: line)
        XCTAssertEqual(fused.status, plain.status, tail, file: file, line: line)
        XCTAssertEqual(head(fused.err), head(plain.err), tail, file: file, line: line)
    }

    func test_generatedFilesGiveTheSameAnswers() throws {
        var random = SplitMix64(seed: 0x5EED_0044)
        let statuses = ["new", "paid", "shipped", "refunded"]
        for round in 0..<4 {
            var lines: [String] = []
            for i in 0..<(50 + 100 * round) {
                let s = statuses[Int(random.next() % 4)]
                let total = Int(random.next() % 1000)
                let note = random.next() % 5 == 0 ? #", "note": "é \"q\"\t""# : ""
                lines.append(#"{"id": \#(i), "status": "\#(s)", "total": \#(total)\#(note), "items": [\#(total % 3), \#(total % 7)]}"#)
            }
            // A scalar, a list and a record with equal keys, which the tape reads as the reader does.
            if round == 1 { lines.insert("7", at: 3); lines.insert("[1, {\"a\": null}]", at: 9); lines.append(#"{"id": 1, "id": 2}"#) }
            if round == 2 { lines[0] = "\u{FEFF}" + lines[0] }
            let path = try file("orders\(round).ndjson", lines)
            for expression in [
                "length([?status == `\"paid\"`])",
                "from_items(items(group_by([?status], &status))[*].[[0], {n: length([1]), total: sum([1][*].total)}])",
                "[*].id | [:5]", "[?total > `900`].items[]", "[-1]", "max_by([?total], &total).id", "@",
                // Each document kept to the fields read (`JMESPathDemand`).
                "sum([?status == `\"paid\"`].total)", "[*].{i: id, n: note} | [-3:]", "length([*].note)",
            ] {
                assertSame(path, "pick '\(expression)' | to-json")
            }
            // The last stage of a printed statement prints from the tape.
            assertSame(path, "pick '[?status == `\"refunded\"`] | [:3]'")
        }
    }

    func test_aLineTheTapeDoesNotTakeGoesTheOrdinaryWay() throws {
        let ok = (0..<40).map { #"{"n": \#($0)}"# }
        for (name, bad) in [("broken", #"{"n": "#), ("blank", ""), ("text", "hello"), ("trailing", #"{"n": 1} x"#)] {
            var lines = ok
            lines.insert(bad, at: 20)
            let path = try file("\(name).ndjson", lines)
            assertSame(path, "pick 'length(@)'")
            let run = runVow("read \(path) --stream | each json | pick 'length(@)'")
            XCTAssertEqual(run.status, 1, name)
            XCTAssertTrue(run.err.contains("error[json]") && run.err.contains("item 21 of the stream"), "\(name): \(run.err)")
        }
        let empty = try file("empty.ndjson", [])
        XCTAssertEqual(runVow("read \(empty) --stream | each json | pick 'length(@)'").out, runVow("read \(empty) --stream | each json | tap (quiet) | pick 'length(@)'").out)
        // Not a stream: the list's items go the ordinary way.
        XCTAssertEqual(runVow(#"echo ['{"a": 1}', '{"a": 2}'] | each json | pick '[*].a' | to-json"#).out, "[1,2]\n")
    }

    func test_aTraceSeesEveryItemAsBefore() throws {
        let path = try file("few.ndjson", [#"{"n": 1}"#, #"{"n": 2}"#])
        let trace = dir + "/trace.jsonl"
        let script = dir + "/few.vow"
        try "read \(path) --stream | each json | pick '[*].n' | to-json\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try runCommand(REPLTests.binary, ["--trace", trace, script])
        XCTAssertEqual(run.out, "[1,2]\n")
        let events = try String(contentsOfFile: trace, encoding: .utf8)
        // Each item's `json` is a promise of its own, as without the tape.
        XCTAssertEqual(events.split(separator: "\n").filter { $0.contains(#""event":"created""#) && $0.contains(#""name":"json""#) }.count, 2, String(events.prefix(600)))
    }
}
