import Foundation
import JMESPath
import XCTest

@testable import VowValue

/// The tape (`JSONTape`) against the tree the reader builds: it accepts what the reader accepts,
/// a search of it gives what a search of the tree gives (results and errors), and printing from
/// it writes the bytes the tree writer writes. Rule by rule, then on generated documents and
/// expressions and on every case of the JMESPath compliance suite.
final class JSONTapeTests: XCTestCase {
    /// A search's result as compact JSON (key order and number forms show), or its error.
    func outcome<V: JMESPathValue>(_ search: () throws(JMESPathError) -> V, _ json: (V) -> String) -> String {
        do throws(JMESPathError) { return json(try search()) } catch { return "error \(error.kind): \(error.message)" }
    }

    /// What searching the tree of `text` gives, or nil when the reader refuses the text.
    func treeOutcome(_ text: String, _ expression: JMESPathExpression) -> String? {
        guard let tree = try? JSON.parse(text) else { return nil }
        return outcome({ () throws(JMESPathError) in try expression.search(tree) }, JSONWriter.compact)
    }

    /// What searching the tape of `text` gives (from the text and from its bytes, which must
    /// agree), or nil when the tape refuses the text.
    func tapeOutcome(_ text: String, _ expression: JMESPathExpression, file: StaticString = #filePath, line: UInt = #line) -> String? {
        let fromText = JSONTape.read(text)
        let fromBytes = JSONTape.read(Array(text.utf8))
        XCTAssertEqual(fromText == nil, fromBytes == nil, "text and bytes disagree on \(text)", file: file, line: line)
        guard let tape = fromText, let bytesTape = fromBytes else { return nil }
        let a = outcome({ () throws(JMESPathError) in try tape.search(expression) }, JSONWriter.compact)
        let b = outcome({ () throws(JMESPathError) in try bytesTape.search(expression) }, JSONWriter.compact)
        XCTAssertEqual(a, b, "text and bytes disagree on \(text)", file: file, line: line)
        return a
    }

    func check(_ text: String, _ source: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let expression = try JMESPathExpression(source)
        XCTAssertEqual(tapeOutcome(text, expression, file: file, line: line), treeOutcome(text, expression), "`\(source)` on \(text)",
            file: file, line: line)
    }

    // MARK: rule by rule

    func test_aSearchWalksTheTapeAndGivesTheTreesResult() throws {
        let doc = #"{"items": [{"id": 1, "active": true, "score": 2.5, "address": {"city": "Lyon"}, "name": "a"},"#
            + #" {"id": 2, "active": false, "score": 7, "address": {"city": "Paris"}, "name": "b"},"#
            + #" {"id": 3, "active": true, "score": -1e2, "address": {"city": "L\u0079on"}, "name": "c"}]}"#
        for source in [
            "length(items[?active])", "sum(items[*].score)", "length(items[?address.city == 'Lyon'].name)", "max_by(items, &score).id",
            "@", "items[-1]", "items[1:]", "items[*].address", "items[?score > `0`].{n: name, c: address.city}", "keys(items[0])",
            "values(items[1])", "sort_by(items, &score)[*].id", "items[*].name | sort(@) | reverse(@)", "min_by(items, &id)",
            "items[0].*", "items[].tags", "length(items[0])", "items[?!active] | [0].name", "to_string(items[2].address)",
        ] {
            try check(doc, source)
        }
    }

    func test_projectionsAndFiltersKeepTheTapesValues() throws {
        let tape = try XCTUnwrap(JSONTape.read(#"{"items": [{"a": true, "n": {"x": 1}}, {"a": false}, {"a": 1, "n": [2]}]}"#))
        guard case .array(let kept) = try tape.searchKeepingTape(JMESPathExpression("items[?a].n")) else { return XCTFail("not a list") }
        XCTAssertEqual(kept.count, 2)
        for v in kept {
            guard case .node = v else { return XCTFail("\(v) was made, not kept in the tape") }
        }
        XCTAssertTrue(try tape.searchKeepingTape(JMESPathExpression("items[?a].n")).holdsTapeContainer)
        XCTAssertFalse(try tape.searchKeepingTape(JMESPathExpression("length(items)")).holdsTapeContainer)
    }

    func test_equalKeysKeepTheLastValueAtTheFirstPlace() throws {
        let doc = #"{"a": 1, "b": 2, "a": {"c": 3}, "d": [], "b": null}"#
        for source in ["a", "a.c", "b", "keys(@)", "values(@)", "@", "length(@)", "*", "items(@)", "merge(@, `{\"a\": 0}`)"] {
            try check(doc, source)
        }
        let tape = try XCTUnwrap(JSONTape.read(doc))
        XCTAssertEqual(JSONWriter.compact(.opaque(JSONTapeValue(tape: tape, result: tape.root))), #"{"a":{"c":3},"b":null,"d":[]}"#)
        // Made objects (a multi-select hash) keep the same rule.
        try check(doc, "{x: a, y: b, x: d}")
        try check(doc, "keys({x: a, y: b, x: d})")
    }

    func test_keysAreEqualAsSwiftStringsAre() throws {
        // `é` precomposed, decomposed and escaped; the Kelvin sign and `K`: one key each, as a
        // record read from the text has them.
        let doc = "{\"\u{e9}\": 1, \"e\u{301}\": 2, \"\\u00e9\": 3, \"\u{212A}\": 4, \"K\": 5, \"plain\": 6}"
        for source in [#""é""#, #""e\u0301""#, "K", #""\u212a""#, "plain", "keys(@)", "@", "length(@)", "values(@)"] {
            try check(doc, source)
        }
        // An object whose keys are all plain ASCII and different is not careful; one with a key
        // that is not plain ASCII, or two equal keys, is.
        let tape = try XCTUnwrap(JSONTape.read(#"[{"a": 1, "b": 2}, {"é": 1}, {"a": 1, "a": 2}, {"\u0061": 1}]"#))
        XCTAssertEqual((1...4).map { tape.flag(tape.element(0, $0 - 1)!, TapeWord.careful) }, [false, true, true, true])
    }

    func test_escapedKeysAreFoundByTheirText() throws {
        let doc = #"{"\u0061": 1, "a\"b": 2, "back\\slash": 3, "\ud83d\ude00": 4, "q\"": {"r": 5}}"#
        for source in ["a", #""a\"b""#, #""back\\slash""#, #""😀""#, #""q\"".r"#, "keys(@)", "@"] {
            try check(doc, source)
        }
        // A plain key that a wanted key with a quote would match byte for byte, but for the quote.
        try check(#"{"k": "","b": 1}"#, #""\",\"b""#)
        try check(#"{"k": "","b": 1}"#, "b")
    }

    func test_numbersAreWhatTheReaderMakes() throws {
        for text in JSONTextGenerator.numbers {
            let tape = try XCTUnwrap(JSONTape.read(text), text)
            let tree = try JSON.parse(text)
            let fromTape = tape.value(0)
            switch (fromTape, tree) {
            case (.int(let a), .int(let b)): XCTAssertEqual(a, b, text)
            case (.double(let a), .double(let b)): XCTAssertEqual(a.bitPattern, b.bitPattern, text)
            default: XCTFail("\(text): \(fromTape) from the tape, \(tree) from the reader")
            }
            try check("[" + text + "]", "[0]")
            try check("[" + text + "]", "sum(@)")
        }
        XCTAssertEqual(try JSON.parse("1e400"), .double(.greatestFiniteMagnitude))
        XCTAssertEqual(JSONTape.read("-1e400")?.value(0), .double(-.greatestFiniteMagnitude))
        XCTAssertEqual(JSONTape.read("92233720368547758070")?.value(0), .double(Double("92233720368547758070")!))
    }

    func test_stringsAreCheckedAndDecodedAsTheReaderDoes() throws {
        for text in JSONTextGenerator.strings {
            XCTAssertEqual(JSONTape.read(text)?.value(0), try JSON.parse(text), text)
            try check("[" + text + "]", "[0]")
            try check("[" + text + "]", "length([0])")
        }
        // Bytes that are not UTF-8, inside a string and outside, and escapes the reader refuses.
        for bytes: [UInt8] in [
            [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0xC3, 0xA9],
            [0x22, 0xE2, 0x80, 0x22], Array(#""\ud800""#.utf8), Array(#""\udc00""#.utf8), Array(#""\ud800\u0041""#.utf8),
        ] {
            XCTAssertNil(JSONTape.read(bytes), "\(bytes)")
            XCTAssertThrowsError(try JSON.parse(bytes), "\(bytes)")
        }
        XCTAssertEqual(JSONTape.read([0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22])?.value(0), .string("😀"))
    }

    func test_whatTheReaderRefusesTheTapeRefuses() throws {
        for bad in [
            "", " ", "{", #"{"a": 1,}"#, "[1,]", "01", "1.", "-", "1e", "tru", "nul", "falsey", "fals", #""\x""#, #""\u12""#,
            #""\u+041""#, "\"a\u{01}\"", "[1] 2", "{\"a\" 1}", "{1: 2}", "[", "]", "{\"a\":}", "[1 2]", "\u{FEFF}", "\u{FEFF}[",
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        ] {
            XCTAssertNil(JSONTape.read(bad), bad)
            XCTAssertNil(JSONTape.read(Array(bad.utf8)), bad)
            XCTAssertThrowsError(try JSON.parse(bad), bad)
        }
        // A byte order mark before a document is skipped by both, as jq skips it.
        for withMark in ["\u{FEFF}1", "\u{FEFF}{\"name\": \"ada\", \"pad\": \"to be stored out of line\"}"] {
            XCTAssertEqual(try JSON.parse(withMark), JSONTape.read(withMark)?.value(0), withMark)
            XCTAssertEqual(try JSON.parse(withMark), JSONTape.read(Array(withMark.utf8))?.value(0), withMark)
        }
        // The reader's depth cap, exactly.
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNotNil(try? JSON.parse(deepest))
        XCTAssertNotNil(JSONTape.read(deepest))
        let deepObjects = String(repeating: #"{"a":"#, count: 512) + "1" + String(repeating: "}", count: 512)
        XCTAssertEqual(JSONTape.read(deepObjects) == nil, (try? JSON.parse(deepObjects)) == nil)
    }

    /// Objects deep inside lists and other objects: each level compares its own keys.
    func test_deeplyNestedObjectsKeepTheirOwnKeys() throws {
        let inner = #"{"a": 1, "b": {"a": 2, "c": [{"a": 3, "a": 4}]}, "a": 5}"#
        for depth in [0, 7, 8, 9, 20, 40, 300] {
            let doc = String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
            let path = String(repeating: "[0]", count: depth)
            for source in ["@", "\(path).a", "\(path).b.c[0].a", "\(path).keys(@)", "\(path).b.c"] {
                try check(doc, source.hasPrefix(".") ? String(source.dropFirst()) : source)
            }
            let tape = try XCTUnwrap(JSONTape.read(doc))
            XCTAssertEqual(JSONWriter.compact(.opaque(JSONTapeValue(tape: tape, result: tape.root))), JSONWriter.compact(try JSON.parse(doc)))
        }
        // Objects nested in objects, past the first levels the reader sets aside room for.
        let objects = String(repeating: #"{"k": 1, "n": "#, count: 100) + #"{"k": 2, "k": 3}"# + String(repeating: "}", count: 100)
        try check(objects, String(repeating: "n.", count: 100) + "k")
        try check(objects, "@")
    }

    /// Objects and lists too large for the size in their word (2^27 words; here from 3, to
    /// try it), strings longer than the length in their word (16 MiB): found again, the same.
    func test_sizesAndLengthsTooLargeForTheirWordAreFoundElsewhere() throws {
        let doc = #"{"items": [{"a": [1, 2, 3], "b": {"c": "d"}}, {"a": [], "b": {}}, [[[4]]]], "n": 1.5, "s": "t"}"#
        let small = try XCTUnwrap(JSONTape.read(Array(doc.utf8), maxDepth: 512, longSize: 3))
        XCTAssertFalse(small.longSizes.isEmpty)
        let tree = try JSON.parse(doc)
        XCTAssertEqual(JSONWriter.pretty(.opaque(JSONTapeValue(tape: small, result: small.root))), JSONWriter.pretty(tree))
        for source in ["items[0].b.c", "items[2][0][0][0]", "n", "s", "length(items)", "items[-1]", "keys(@)", "items[*].a"] {
            let expression = try JMESPathExpression(source)
            XCTAssertEqual(JSONWriter.compact(try small.search(expression)), JSONWriter.compact(try expression.search(tree)), source)
        }
        let long = String(repeating: #"ab\u00e9\n"#, count: (1 << 24) / 10 + 3)
        let text = #"{"long": ""# + long + #"", "after": 1}"#
        let tape = try XCTUnwrap(JSONTape.read(text))
        let expected = try JSON.parse(text)
        XCTAssertEqual(try tape.search(JMESPathExpression("length(long)")), try JMESPathExpression("length(long)").search(expected))
        XCTAssertEqual(try tape.search(JMESPathExpression("after")), Value.int(1))
        XCTAssertEqual(JSONWriter.compact(.opaque(JSONTapeValue(tape: tape, result: tape.root))), JSONWriter.compact(expected))
    }

    func test_printingFromTheTapeEscapesWhatTheWriterEscapes() throws {
        let doc = "{\"del\u{7F}\": \"\u{7F}\u{85}\u{2028}\u{2029}\", \"\\u0001\": [\"\\u009f\", \"\\u2028\", \"\\/\\b\"]}"
        let tape = try XCTUnwrap(JSONTape.read(doc))
        let printed = JSONWriter.compact(.opaque(JSONTapeValue(tape: tape, result: tape.root)))
        XCTAssertEqual(printed, JSONWriter.compact(try JSON.parse(doc)))
        XCTAssertEqual(printed, #"{"del\u007f":"\u007f\u0085\u2028\u2029","\u0001":["\u009f","\u2028","/\b"]}"#)
        XCTAssertFalse(printed.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 })
    }

    // MARK: generated

    /// Generated documents and broken copies of them, with generated expressions: the tape
    /// refuses exactly what the reader refuses, and every search gives the tree's result (or
    /// the same error); printing the document, and any result that holds parts of it, from the
    /// tape writes the tree writer's bytes (compact, pretty, coloured).
    func test_generatedDocumentsAndExpressionsAgreeWithTheTree() throws {
        var g = JSONTextGenerator(seed: 0x7A9E_0031)
        var searched = 0
        var refused = 0
        for _ in 0..<5_000 {
            var text = g.document()
            if g.below(4) == 0 { text = g.broken(text) }
            guard let tree = try? JSON.parse(text) else {
                XCTAssertNil(JSONTape.read(text), text)
                XCTAssertNil(JSONTape.read(Array(text.utf8)), text)
                refused += 1
                continue
            }
            let tape = try XCTUnwrap(JSONTape.read(text), text)
            XCTAssertEqual(tape.value(0), tree, text)
            try checkPrinting(tape.root, tape, tree, text)
            for _ in 0..<3 {
                let source = g.expression()
                guard let expression = try? JMESPathExpression(source) else { continue }
                XCTAssertEqual(tapeOutcome(text, expression), treeOutcome(text, expression), "`\(source)` on \(text)")
                if let kept = try? tape.searchKeepingTape(expression), let made = try? expression.search(tree) {
                    try checkPrinting(kept, tape, made, "`\(source)` on \(text)")
                }
                searched += 1
            }
        }
        XCTAssertGreaterThan(searched, 10_000)
        XCTAssertGreaterThan(refused, 500)
    }

    /// Printing `result` from `tape` writes what printing `made` writes.
    func checkPrinting(_ result: TapeValue, _ tape: JSONTape, _ made: Value, _ what: String) throws {
        let kept = Value.opaque(JSONTapeValue(tape: tape, result: result))
        XCTAssertEqual(JSONWriter.compact(kept), JSONWriter.compact(made), what)
        XCTAssertEqual(JSONWriter.pretty(kept), JSONWriter.pretty(made), what)
        XCTAssertEqual(JSONWriter.pretty(kept, indent: 4, colors: .ansi), JSONWriter.pretty(made, indent: 4, colors: .ansi), what)
    }

    /// Every case of the JMESPath compliance suite, its `given` written as text and read into a
    /// tape: the same result or the same error as the tree.
    func test_everyComplianceCaseAgreesWithTheTree() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("testdata/jmespath-community-compliance")
        let files = (FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix("legacy/") }
        XCTAssertGreaterThan(files.count, 20)
        var checked = 0
        for file in files {
            let suites = try JSON.parse([UInt8](Data(contentsOf: directory.appendingPathComponent(file))))
            for suite in suites.listValue ?? [] {
                let text = JSONWriter.compact(suite.recordValue?["given"] ?? .null)
                for c in suite.recordValue?["cases"]?.listValue ?? [] {
                    guard let source = c.recordValue?["expression"]?.stringValue, let expression = try? JMESPathExpression(source) else { continue }
                    XCTAssertEqual(tapeOutcome(text, expression), treeOutcome(text, expression), "\(file): `\(source)` on \(text)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 900)
    }
}
