import Foundation
import TestSupport
import VowValue
import XCTest

@testable import VowRuntime
@testable import VowShell

/// Lists of records as tables: the layout rule by rule, display widths, the `table` stage, and
/// the automatic table on a real pseudo-terminal of a given width.
final class TableTests: XCTestCase {
    func records(_ source: String) -> [Record] {
        let v = try! JSON.parse(source)
        return TableLayout.rows(v)!
    }

    func test_columnsAreTheUnionOfKeysInFirstSeenOrder() {
        let t = TableLayout.render(records(#"[{"b": 1, "a": "x"}, {"c": true, "a": "y"}]"#))
        XCTAssertEqual(t.split(separator: "\n").first, "b  a  c")
        XCTAssertEqual(t, "b  a  c\n─  ─  ────\n1  x\n   y  true")
    }

    func test_numbersAreRightAlignedAndNestedValuesCompact() {
        let t = TableLayout.render(records(#"[{"n": 5, "v": {"k": [1, 2]}}, {"n": 1234.5, "v": null}]"#))
        XCTAssertEqual(t, "     n  v\n──────  ───────────\n     5  {\"k\":[1,2]}\n1234.5", "null is an empty cell")
    }

    func test_onlyListsOfRecordsAreTables() {
        XCTAssertNil(TableLayout.rows(try! JSON.parse("[]")))
        XCTAssertNil(TableLayout.rows(try! JSON.parse("[1, 2]")))
        XCTAssertNil(TableLayout.rows(try! JSON.parse(#"[{"a": 1}, 2]"#)))
        XCTAssertNil(TableLayout.rows(try! JSON.parse(#"{"a": 1}"#)))
    }

    func test_displayWidths() {
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("日本語"), 6)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1, "a combining accent takes no column")
        XCTAssertEqual(DisplayWidth.of("😀"), 2)
        XCTAssertEqual(DisplayWidth.of("ｆｕｌｌ"), 8)
        XCTAssertEqual(DisplayWidth.truncate("日本語テキスト", to: 7), "日本語…")
        XCTAssertEqual(DisplayWidth.truncate("short", to: 10), "short")
    }

    func test_everyLineFitsTheWidth() {
        var rng = SystemRandomNumberGenerator()
        let words = ["alpha", "日本語テキスト", "emoji😀😀", "e\u{301}te\u{301}", "a much longer piece of text than fits", "x"]
        for width in [20, 33, 60, 80] {
            var rows: [Record] = []
            for i in 0..<12 {
                var r = Record()
                r["id"] = .int(i * 1000)
                r["name"] = .string(words.randomElement(using: &rng)!)
                r["tags"] = .list([.string(words.randomElement(using: &rng)!)])
                if i % 3 == 0 { r["note"] = .string(words.randomElement(using: &rng)! + "\n" + "second line") }
                rows.append(r)
            }
            let t = TableLayout.render(rows, width: width)
            for line in t.split(separator: "\n") {
                XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), width, "\(line)")
                XCTAssertFalse(line.contains("\n"))
            }
            XCTAssertEqual(t.split(separator: "\n").count, 14)
        }
    }

    func test_longListsAreCut() {
        let rows = (0..<30).map { i -> Record in
            var r = Record()
            r["i"] = .int(i)
            return r
        }
        let t = TableLayout.render(rows, maxRows: 10)
        XCTAssertEqual(t.split(separator: "\n").count, 2 + 10 + 1)
        XCTAssertTrue(t.hasSuffix("… 20 more rows"), t)
    }

    func test_theStage() {
        XCTAssertEqual(runVow("echo [{name: ann, n: 3}, {name: bob, n: 12}] | table").out, "name   n\n────  ──\nann    3\nbob   12\n")
        XCTAssertEqual(runVow("echo [{a: 1, b: 2, c: 3}] | table --columns [c, a]").out, "c  a\n─  ─\n3  1\n")
        XCTAssertEqual(runVow("echo [] | table").out, "")  // an empty table is the empty string, which prints nothing
        XCTAssertTrue(runVow("echo [{a: 1}, 2] | table").err.contains("element 2 is number"))
        XCTAssertTrue(runVow("echo {a: 1} | table").err.contains("expected a list of records, got record"))
        let cut = runVow("echo [{text: \"a very long value indeed\"}] | table --width 10").out
        XCTAssertEqual(cut, "text\n──────────\na very lo…\n")
    }

    func test_pipedOutputStaysJSON() {
        XCTAssertEqual(runVow("echo [{a: 1}]").out, "[\n  {\n    \"a\": 1\n  }\n]\n")
    }

    func test_onATerminalATableFitsItsWidth() throws {
        let script = #"echo [{id: 1, name: "日本語のとても長い名前です", note: "a long note that will not fit in sixty columns at all"}, {id: 22, name: bob, extra: {x: [1, 2, 3]}}]"#
        let t = try PseudoTerminal(REPLTests.binary, ["-c", script], environment: ["NO_COLOR": "1"], rows: 24, columns: 60)
        XCTAssertEqual(t.waitExit(timeout: 20), 0)
        let lines = t.plainOutput.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 4, t.plainOutput)
        XCTAssertTrue(lines[0].hasPrefix("id"), t.plainOutput)
        for line in lines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 60, line) }
    }

    func test_inTheREPLSetTableOffGivesJSON() throws {
        let t = try PseudoTerminal(REPLTests.binary, [], environment: ["NO_COLOR": "1", "VOW_HISTORY": "/dev/null"], rows: 24, columns: 70)
        defer { t.type(":quit\n") }
        XCTAssertTrue(t.waitFor("vow>") || t.waitFor(">"))
        t.type("echo [{k: v1}, {k: v2}]\n")
        XCTAssertTrue(t.waitFor("──"), t.plainOutput)
        t.clear()
        t.type(":set table off\n")
        XCTAssertTrue(t.waitFor("table off"), t.plainOutput)
        t.type("echo [{k: v1}, {k: v2}]\n")
        XCTAssertTrue(t.waitFor("\"k\": \"v2\""), t.plainOutput)
    }

    func test_jobsPrintAsATableOnATerminal() throws {
        let t = try PseudoTerminal(REPLTests.binary, ["-c", "delay 2s &\njobs"], environment: ["NO_COLOR": "1"], rows: 24, columns: 100)
        XCTAssertNotNil(t.waitExit(timeout: 20))
        XCTAssertTrue(t.plainOutput.contains("──"), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("delay 2s"), t.plainOutput)
    }
}
