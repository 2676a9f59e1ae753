import Foundation
import JMESPath
import VowSyntax
import XCTest

@testable import VowRuntime
import VowShell
import VowValue

/// `read FILE | json | pick PATH`: the path scan gives what the whole parse gives, errors stay
/// the reader's, and only a literal simple path after `json` is paired with it.
final class JSONPickTests: XCTestCase {
    var file = ""

    override func setUpWithError() throws {
        file = NSTemporaryDirectory() + "vow-jsonpick-\(UUID().uuidString).json"
        let items = (0..<200).map { #"{"id": \#($0), "name": "user-\#($0)-é", "tags": ["t\#($0 % 3)"], "dup": 1, "dup": \#($0)}"# }
        try ("{\"items\": [" + items.joined(separator: ",\n") + "], \"count\": 200}").write(toFile: file, atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: file) }

    func test_aSimplePathGivesWhatTheWholeDocumentGives() {
        // Each simple path next to an expression that is not one and must find the same value.
        let pairs = [
            ("items[123].name", "items[-77].name"), ("items[7].dup", "items[-193].dup"), ("items[5].tags", "items[-195].tags"),
            ("count", "[count][0]"), ("items[500].name", "items[-700].name"), ("items.name", "[items][0].name"),
            // Multiselects of simple paths, found in the same one pass.
            ("{n: items[123].name, c: count, d: items[7].dup, m: missing}", "[{n: items[123].name, c: count, d: items[7].dup, m: missing}][0]"),
            ("[count, items[5].tags, items[900]]", "[[count, items[5].tags, items[900]]][0]"),
        ]
        for (simple, other) in pairs {
            let a = runVow("read \(file) | json | pick '\(simple)' | to-json")
            let b = runVow("read \(file) | json | pick '\(other)' | to-json")
            XCTAssertEqual(a.status, 0, a.err)
            XCTAssertEqual(a.out, b.out, simple)
        }
        XCTAssertEqual(runVow("read \(file) | json | pick items[123].name").out, "user-123-é\n")
        XCTAssertEqual(runVow("read \(file) | json | pick items[42].dup").out, "42\n")
    }

    /// A `pick` after `json` that rejects shows the document it was given as its input, not the
    /// part of it that `json` built for it.
    func test_aPickThatRejectsShowsTheWholeDocumentAsItsInput() {
        let r = runVow(#"echo '{"a": [1, 2, 3], "items": 5}' | json | pick 'items[*].qty | sum(@)'"#)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains(#"= input: {"a":[1,2,3],"items":5}"#), r.err)
        let list = runVow(#"echo '[1, 2, 3]' | json | pick 'sum(items)'"#)
        XCTAssertTrue(list.err.contains("= input: [1,2,3]"), list.err)
    }

    func test_invalidJSONStillRejectsAtJsonWithTheReadersMessage() throws {
        try #"{"items": [1, 2,]}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let r = runVow("read \(file) | json | pick items[0]")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[json]: expected a value"), r.err)
        XCTAssertTrue(r.err.contains("line 1, column 17"), r.err)
        XCTAssertTrue(r.err.contains("skipped: pick items[0]"), r.err)
    }

    func test_bytesThatAreNotUTF8AreRefusedAsTheReaderRefusesThem() throws {
        try Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]).write(to: URL(fileURLWithPath: file))
        let r = runVow("read \(file) | json | pick a")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[json]: invalid UTF-8 in a string"), r.err)
    }

    /// `read FILE | json` hands the bytes on without making a String of them: the same values and
    /// the same errors as when the text goes through a stage in between (which keeps them apart),
    /// and the input an error shows is the file's text.
    func test_readThenJsonGivesWhatTheTextGives() throws {
        let contents: [[UInt8]] = [
            Array(#"{"a": [1, 2.5, "é"], "b": {"c": null}}"#.utf8), Array(#"{"a": 1,}"#.utf8), Array("[1, 2".utf8),
            [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D], Array("  \n 42 \n".utf8),
        ]
        for bytes in contents {
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let paired = runVow("read \(file) | json | to-json")
            let apart = runVow("read \(file) | tap (echo 0) | json | to-json")
            XCTAssertEqual(paired.status, apart.status, String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(paired.out, apart.out, String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(paired.err.split(separator: "\n").first, apart.err.split(separator: "\n").first)
        }
        try #"{"a": 1,}"#.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertTrue(runVow("read \(file) | json").err.contains(#"= input: "{\"a\": 1,}""#))
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        let plans = Evaluator(session: session).plans(try Parser.parsePipeline(SourceText("read f | json | len")))
        XCTAssertEqual(plans.map(\.feedsJSON), [true, false, false])
        let flagged = Evaluator(session: session).plans(try Parser.parsePipeline(SourceText("read f --stream | json")))
        XCTAssertEqual(flagged.map(\.feedsJSON), [false, false])
    }

    /// Which `json | pick` pairs the plan makes, and what `json` then reads for `pick`: a simple
    /// path's value, or the document's tape for any other literal expression.
    func test_aLiteralExpressionIsPaired() throws {
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        func paired(_ source: String) throws -> PickAhead? {
            let pipeline = try Parser.parsePipeline(SourceText(source))
            return Evaluator(session: session).plans(pipeline).first?.pickAhead  // nothing else runs on the session
        }
        XCTAssertEqual(try paired("json | pick items[3].name")?.path, [.field("items"), .index(3), .field("name")])
        XCTAssertEqual(try paired(#"json | pick '"a b"'"#)?.path, [.field("a b")])
        let projection = try XCTUnwrap(try paired("json | pick 'items[*].name'"))
        XCTAssertNil(projection.path)
        XCTAssertNotNil(try paired("json | pick 'a[-1]'"))
        XCTAssertNil(try paired("json | pick 'a b'"))  // not JMESPath: the syntax error stays pick's
        XCTAssertNil(try XCTUnwrap(try paired("json | pick 'length(@)'")).path)  // searched in the tape
        let selection = try XCTUnwrap(try paired("json | pick '{s: status, t: a.total}'"))
        XCTAssertNil(selection.path)
        XCTAssertEqual(selection.selection?.recordKeys, ["s", "t"])
        XCTAssertNil(try XCTUnwrap(try paired("json | pick '{s: status, t: length(a)}'")).selection)
        XCTAssertNil(try paired("json | pick \"{}\""))
        XCTAssertNil(try paired("json | keys"))
        XCTAssertNil(try paired("text | pick a"))
    }

    /// `each (json | pick '{s: status, t: total}')` over lines: what the same gives with a stage
    /// between `json` and `pick` (which keeps them apart), on records, other values and lines
    /// that are not JSON.
    func test_aSelectionOverLinesGivesWhatTheWholeDocumentGives() throws {
        let lines = [
            #"{"status": "paid", "total": 12, "x": [1, {"total": 3}]}"#, #"{"total": 2.5, "status": null}"#, "null", "7",
            #"["status", "total"]"#, #"{"status": "a", "status": "b", "total": {"n": 1}}"#, #"{"st\u0061tus": "é", "total": -0}"#,
        ]
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        for expression in ["{s: status, t: total}", "[total, status, x[1].total]", "{w: @, s: status}"] {
            let paired = runVow("read \(file) --stream | each (json | pick '\(expression)') | to-json")
            let apart = runVow("read \(file) --stream | each (json | tap (echo 0) | pick '\(expression)') | to-json")
            XCTAssertEqual(paired.status, 0, paired.err)
            XCTAssertEqual(paired.out, apart.out, expression)
        }
        try (lines + [#"{"status": "paid",}"#]).joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let broken = runVow("read \(file) --stream | each (json | pick '{s: status}') | to-json")
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.err.contains("error[json]: expected"), broken.err)
    }

    func test_projectionsFiltersAndFunctionsGiveWhatTheWholeDocumentGives() {
        for expression in [
            "items[*].name", "items[?id > `190`].tags[0]", "length(items)", "items[*].dup | sum(@)", "items[-3:].{i: id, t: tags}",
            "count", "items[*].tags[]", "items[0].*", "max_by(items, &id).name",
        ] {
            let paired = runVow("read \(file) | json | pick '\(expression)' | to-json")
            let whole = runVow("read \(file) | json | then echo $_ | pick '\(expression)' | to-json")
            XCTAssertEqual(paired.status, 0, paired.err)
            XCTAssertEqual(paired.out, whole.out, expression)
        }
    }

    /// A statement's printed value is printed from the tape: the bytes the values print as
    /// (pretty, and compact with --json), for `json` and for a `pick` after it, on documents with
    /// equal keys, escapes, controls, C1 controls, U+2028 and numbers of every form.
    func test_aPrintedDocumentIsPrintedFromItsTapeAsItsValuesPrint() throws {
        let documents = [
            "{\"a\": 1, \"b\": [1.5, -0, 1e400, 12345678901234567890, \"t\\u0001\\u0085\\u2028\u{2029}\u{85}\u{7F}\"], \"a\": {\"\u{e9}\": null, \"e\u{301}\": true}}",
            "[0.30000000000000004, 0.30000000000000005, 25.010755222666937, \"q\\\"\\\\\\/\", {}, [], {\"k\\u0041\": [{\"x\": 2}]}]",
        ]
        for document in documents {
            try document.write(toFile: file, atomically: true, encoding: .utf8)
            for expression in ["@", "[*]", "*", "a", "b[4:]", "values(@)"] {
                for json in [false, true] {
                    let fromTape = runVow("read \(file) | json | pick '\(expression)'", json: json)
                    let fromValues = runVow("read \(file) | json | then echo $_ | pick '\(expression)'", json: json)
                    XCTAssertEqual(fromTape.status, fromValues.status, "\(expression) on \(document)")
                    XCTAssertEqual(fromTape.out, fromValues.out, "\(expression) on \(document)")
                }
            }
            XCTAssertEqual(runVow("read \(file) | json").out, runVow("read \(file) | json | then echo $_").out)
            XCTAssertEqual(runVow("read \(file) | json", json: true).out, runVow("read \(file) | json | then echo $_", json: true).out)
        }
    }

    /// Only a statement's printed value stays in the tape: a value bound with `let`, a job's
    /// value, and what a later stage gets are values.
    func test_aTapeValueGoesOnlyToThePrinter() throws {
        try #"{"items": [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": []}]}"#.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(runVow("let x = read \(file) | json | pick 'items[?id > `1`]'\n$x | pick '[0].id'").out, "2\n")
        XCTAssertEqual(runVow("let d = read \(file) | json\n$d | pick 'items[1].id'").out, "2\n")
        XCTAssertEqual(runVow("read \(file) | json | pick 'items[*].tags' | len").out, "2\n")
        XCTAssertEqual(runVow("read \(file) | json | pick 'items[0]' | keys | to-json").out, "[\"id\",\"tags\"]\n")
        let job = runVow("read \(file) | json | pick 'items[*].id' &\nawait %1 | pick '[1]'")
        XCTAssertTrue(job.out.hasSuffix("2\n"), job.out)
    }

    /// On a terminal, a list of records still prints as a table: the tape's value is made into
    /// values for it.
    func test_onATerminalATapeValueIsMadeIntoValues() throws {
        let tape = try XCTUnwrap(JSONTape.read(#"[{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]"#))
        let kept = Value.opaque(JSONTapeValue(tape: tape, result: tape.root))
        for terminal in [true, false] {
            let renderer = Renderer(colors: terminal, jsonLines: false, terminal: terminal)
            XCTAssertEqual(renderer.value(kept), renderer.value(tape.value(0)))
        }
        XCTAssertEqual(kept.toJSONValue(), tape.value(0))
    }
}
