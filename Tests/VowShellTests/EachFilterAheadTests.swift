import Foundation
import XCTest

@testable import VowShell

/// `each json | where EXPR` over a stream searches each item's JSON as it parses it and keeps
/// only the items EXPR holds for (`StagePlan.filterAhead`): the same values and the same errors
/// as the pipeline without it (a stage between them turns it off), and its twin's.
final class EachFilterAheadTests: LineFileTestCase {
    func test_theSameValuesAsWithoutIt() throws {
        var lines: [String] = []
        for i in 0..<300 { lines.append(#"{"id": \#(i), "status": "\#(["new", "paid", "shipped"][i % 3])", "total": \#(i % 17)}"#) }
        lines.append("[1, 2]")
        let path = try file("orders.ndjson", lines)
        for condition in ["status == 'paid'", "total > `10`", "id", "missing", "[0] == `1`"] {
            let fused = runVow("read \(path) --stream | each json --limit 8 | where \"\(condition)\" | to-json")
            let plain = runVow("read \(path) --stream | each json | tap (quiet) | where \"\(condition)\" | to-json")
            XCTAssertEqual(fused.out, plain.out, condition)
            XCTAssertEqual(fused.status, plain.status, condition)
            XCTAssertEqual(fused.err, plain.err, condition)
            XCTAssertFalse(fused.out.isEmpty, condition)
        }
        XCTAssertEqual(runVow("read \(path) --stream | each json | where \"status == 'paid'\" | len").out, "100\n")
        let twin = try assertTwinAgrees("read \(path) --stream | each json | where \"total > `15`\" | pick '[*].id' | to-json")
        XCTAssertEqual(twin.out, "[16,33,50,67,84,101,118,135,152,169,186,203,220,237,254,271,288]\n")
    }

    func test_theSameErrorsAsWithoutIt() throws {
        let bad = try file("bad.ndjson", [#"{"n": 1}"#, #"{"n": "#, #"{"n": 3}"#])
        let fused = runVow("read \(bad) --stream | each json | where 'n > `0`' | len")
        let plain = runVow("read \(bad) --stream | each json | tap (quiet) | where 'n > `0`' | len")
        XCTAssertEqual(fused.status, 1)
        // The same error; the stages it skipped are named as written (the tap is not there).
        func head(_ err: String) -> [Substring] {
            err.split(separator: "\n").filter { !$0.contains("= skipped:") && !$0.contains("│ read") && !$0.contains("^^^") }
        }
        XCTAssertEqual(head(fused.err), head(plain.err))
        XCTAssertTrue(fused.err.contains("error[json]"), fused.err)
        // Items the filter dropped before the bad one still count in the place the error names.
        let late = try file("late.ndjson", [#"{"n": 0}"#, #"{"n": 0}"#, #"{"n": 1}"#, #"{"n": 0}"#, #"{"n": "#])
        for tail in ["len", "to-json"] {
            let f = runVow("read \(late) --stream | each json | where 'n > `0`' | \(tail)")
            let p = runVow("read \(late) --stream | each json | tap (quiet) | where 'n > `0`' | \(tail)")
            XCTAssertEqual(head(f.err), head(p.err), tail)
            XCTAssertTrue(f.err.contains("item 5 of the stream"), f.err)
        }
        let scalar = try file("scalar.ndjson", [#"{"n": 1}"#, "5"])
        let s1 = runVow("read \(scalar) --stream | each json | where 'n' | to-json")
        let s2 = runVow("read \(scalar) --stream | each json | tap (quiet) | where 'n' | to-json")
        XCTAssertEqual(s1.out, s2.out)
        XCTAssertEqual(head(s1.err), head(s2.err))
        XCTAssertEqual(s1.status, s2.status)
    }

    /// `each json | where EXPR | len` counts the records EXPR holds for without keeping them
    /// (`CountedResults`): the items that go the ordinary way (scalars, a search that fails) are
    /// still filtered by `where`, and the count and the errors are those without it.
    func test_aCountIsTheCountOfTheListFiltered() throws {
        var lines: [String] = []
        for i in 0..<200 { lines.append(#"{"id": \#(i), "status": "\#(["new", "paid", "shipped"][i % 3])", "total": \#(i % 17)}"#) }
        for (at, odd) in [(5, "5"), (40, "null"), (41, #""text""#), (90, "true"), (120, "[1, 2]"), (150, "0"), (199, "[]")] { lines.insert(odd, at: at) }
        let path = try file("mixed.ndjson", lines)
        func head(_ err: String) -> [Substring] {
            err.split(separator: "\n").filter { !$0.contains("= skipped:") && !$0.contains("│ read") && !$0.contains("^^^") }
        }
        for condition in ["status == 'paid'", "@", "type(@) == 'number'", "total > `10` || @ == `5`", "!status", "abs(total) > `3`", "abs(@) > `3`"] {
            for each in ["each json", "each json --limit 8", "each json --rate 100000/s"] {
                let fused = runVow("read \(path) --stream | \(each) | where \"\(condition)\" | len")
                let plain = runVow("read \(path) --stream | each json | tap (quiet) | where \"\(condition)\" | len")
                XCTAssertEqual(fused.out, plain.out, "\(each) | where \(condition)")
                XCTAssertEqual(fused.status, plain.status, "\(each) | where \(condition)")
                // The same error; its input, a count where the list was not kept, says so.
                XCTAssertEqual(head(fused.err).filter { !$0.contains("= input:") }, head(plain.err).filter { !$0.contains("= input:") }, "\(each) | where \(condition)")
                if fused.status != 0, !each.contains("--rate") {
                    XCTAssertTrue(fused.err.contains("results, counted rather than kept>"), fused.err)
                }
            }
        }
        XCTAssertEqual(runVow("read \(path) --stream | each json | where \"status == 'paid'\" | len").out, "67\n")
        // Over a list, `where` gets the results to filter.
        XCTAssertEqual(runVow(#"echo ['{"a": 1}', '{"a": 0}', '{"a": 2}'] | each json | where 'a > `0`' | len"#).out, "2\n")
    }
}
