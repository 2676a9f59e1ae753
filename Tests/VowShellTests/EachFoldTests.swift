import Foundation
import VowValue
import XCTest

@testable import VowShell

/// `each STAGE… | pick EXPR` over a stream, EXPR reading the list only through counts, sums and
/// averages (of it, or of the groups of a `group_by` over it), folds each result into EXPR as it
/// comes and keeps none (`StagePlan.foldAhead`, `ListFold`): the same values, printing and errors
/// as the pipeline without it (a stage between them turns it off), with results that come out of
/// order, and lines that are not JSON.
final class EachFoldTests: LineFileTestCase {
    /// The error report without the lines that quote the pipeline or show the `pick`'s input
    /// (the folded results are not a list to show).
    func head(_ err: String) -> [Substring] {
        err.split(separator: "\n").filter {
            !$0.contains("= skipped:") && !$0.contains("│ read") && !$0.contains("^^^") && !$0.contains("-->") && !$0.contains("= input:")
        }
    }

    /// `each INNER | TAIL` with and without a stage between them; the fused run's error, if any.
    @discardableResult
    func assertSame(_ path: String, _ inner: String, _ tail: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let fused = runVow("read \(path) --stream | each \(inner) --limit 8 | \(tail)")
        let plain = runVow("read \(path) --stream | each \(inner) | tap (quiet) | \(tail)")
        XCTAssertEqual(fused.out, plain.out, tail, file: file, line: line)
        XCTAssertEqual(fused.status, plain.status, tail, file: file, line: line)
        XCTAssertEqual(head(fused.err), head(plain.err), tail, file: file, line: line)
        return fused.err
    }

    func orders(_ random: inout SplitMix64, count: Int) -> [String] {
        let statuses = ["new", "paid", "shipped", "refunded"]
        return (0..<count).map { i in
            let s = statuses[Int(random.next() % 4)]
            let total = random.next() % 7 == 0 ? "\(random.next() % 100).25" : "\(random.next() % 1000)"
            let note = random.next() % 5 == 0 ? #", "note": "é \"q\"\t""# : ""
            return #"{"id": \#(i), "status": "\#(s)", "total": \#(total)\#(note), "items": [\#(i % 3), \#(i % 7)]}"#
        }
    }

    func test_generatedFilesGiveTheSameAnswers() throws {
        var random = SplitMix64(seed: 0xF01D_5EED)
        for round in 0..<3 {
            var lines = orders(&random, count: 40 + 150 * round)
            // A scalar, a list, a record whose status is not a string: what `group_by` refuses.
            if round == 1 { lines.insert("7", at: 3); lines.insert(#"[1, {"a": null}]"#, at: 9) }
            if round == 2 { lines.insert(#"{"id": -1, "status": 5, "total": 1}"#, at: 100) }
            let path = try file("orders\(round).ndjson", lines)
            for expression in [
                "length(@)", "sum([*].total)", "avg(map(&total, [?status == `\"paid\"`]))",
                "{paid: length([?status == `\"paid\"`]), total: sum([?status == `\"paid\"`].total)}",
                "from_items(items(group_by(@, &status))[*].[[0], {n: length([1]), total: sum([1][*].total)}])",
                "group_by([?status], &status).*.avg([*].total)", "keys(group_by(@, &status))",
                "sum([*].items[0]) / length(@)", "sum([*].status)", "length([?total > `500`]) > `3` && sum([*].note)",
            ] {
                assertSame(path, "json", "pick '\(expression)' | to-json")
                // A group inside, and the answer printed by the last stage.
                assertSame(path, "(json | pick '{status: status, total: total}')", "pick '\(expression)'")
            }
        }
    }

    /// Results of items that settle out of order are folded in the items' order: the groups'
    /// order and the element an error names are the list's.
    func test_resultsThatSettleOutOfOrderAreFoldedInOrder() throws {
        let lines = (0..<30).map { i in #"{"d": \#((i * 7) % 5), "k": "\#(["c", "a", "b"][(i * 5) % 3])", "n": \#(i % 4 == 3 ? "\"x\"" : "\(i)")}"# }
        let path = try file("late.ndjson", lines)
        let slow = #"(json | tap (pick d | then (delay "{}ms")))"#
        for expression in [
            "keys(group_by(@, &k))", "from_items(items(group_by(@, &k))[*].[[0], length([1])])", "sum([*].n)",
            "map(&[[0], sum([1][*].d)], items(group_by(@, &k)))",
        ] {
            assertSame(path, slow, "pick '\(expression)' | to-json")
        }
        let err = assertSame(path, slow, "pick 'sum([*].n)'")
        XCTAssertTrue(err.contains("index 3") && err.contains("folded into pick's answer"), err)
    }

    /// `each json | where EXPR | pick AGG`: the records EXPR holds for are folded, the others
    /// never kept; EXPR's error on a record that goes the ordinary way is `where`'s.
    func test_whereBetweenThem() throws {
        var random = SplitMix64(seed: 0x5C4E_E400)
        var lines = orders(&random, count: 300)
        lines.insert("7", at: 5)
        lines.insert(#"{"id": -1, "status": null, "total": 3}"#, at: 40)
        let path = try file("screened.ndjson", lines)
        for condition in ["status == 'paid'", "total > `500`", "note", "contains(status, 'e')"] {
            for expression in [
                "length(@)", "sum([*].total)", "from_items(items(group_by(@, &status))[*].[[0], length([1])])",
            ] {
                assertSame(path, "json", "where \"\(condition)\" | pick '\(expression)' | to-json")
            }
        }
        // `contains` of a number fails on the line `7`, which the filter sends the ordinary way.
        let err = assertSame(path, "json", "where \"contains(@, 'x')\" | pick 'length(@)'")
        XCTAssertTrue(err.contains("error[pick]") && err.contains("where"), err)
        let run = runVow("read \(path) --stream | each json | where \"status == 'paid'\" | pick 'length(@)'")
        XCTAssertEqual(run.status, 0, run.err)
    }

    func test_aLineThatIsNotJSONFailsAsWithoutTheFold() throws {
        var lines = (0..<40).map { #"{"n": \#($0)}"# }
        lines.insert(#"{"n": "#, at: 20)
        let path = try file("broken.ndjson", lines)
        assertSame(path, "json", "pick 'sum([*].n)'")
        let run = runVow("read \(path) --stream | each json | pick 'sum([*].n)'")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.err.contains("error[json]") && run.err.contains("item 21 of the stream"), run.err)
        let empty = dir + "/empty.ndjson"
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        XCTAssertEqual(runVow("read \(empty) --stream | each json | pick '[length(@), sum(@), avg(@)]' | to-json").out, "[0,0,null]\n")
    }

    func test_aTraceSeesEveryItemAsBefore() throws {
        let path = try file("few.ndjson", [#"{"n": 1}"#, #"{"n": 2}"#])
        let trace = dir + "/trace.jsonl"
        let script = dir + "/few.vow"
        try "read \(path) --stream | each json | pick 'sum([*].n)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try runCommand(REPLTests.binary, ["--trace", trace, script])
        XCTAssertEqual(run.out, "3\n")
        let events = try String(contentsOfFile: trace, encoding: .utf8)
        // Each item's `json` is a promise of its own, as without the fold.
        XCTAssertEqual(events.split(separator: "\n").filter { $0.contains(#""event":"created""#) && $0.contains(#""name":"json""#) }.count, 2, String(events.prefix(600)))
    }
}
