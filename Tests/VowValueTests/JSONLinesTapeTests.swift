import Foundation
import JMESPath
import XCTest

@testable import VowValue

/// A list built one document at a time (`JSONLinesTape`) against the tape and the tree of the
/// same list written whole (`[d1,d2,…]`): it takes exactly the documents the reader takes, and
/// its values, its printing and every search agree with theirs. Generated and seeded.
final class JSONLinesTapeTests: XCTestCase {
    /// `documents` added one by one (those the reader refuses are refused and leave the list as
    /// it was) and compared with the whole list's tree and tape.
    func check(_ documents: [String], _ g: inout JSONTextGenerator, longSize: Int? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let lines = longSize.map { JSONLinesTape(longSize: $0) } ?? JSONLinesTape()
        var taken: [String] = []
        for d in documents {
            let added = d.utf8.withContiguousStorageIfAvailable { lines.append($0) } ?? Array(d.utf8).withUnsafeBufferPointer { lines.append($0) }
            let readable = (try? JSON.parse(d)) != nil
            XCTAssertEqual(added, readable, "taken as the reader takes it: \(d)", file: file, line: line)
            if added { taken.append(d) }
        }
        XCTAssertEqual(lines.documents, taken.count, file: file, line: line)
        // A byte order mark is the reader's to skip in a document on its own, not in a list.
        let whole = "[" + taken.map { $0.hasPrefix("\u{FEFF}") ? String($0.dropFirst()) : $0 }.joined(separator: ",") + "]"
        let tree = try JSON.parse(whole)
        let tape = lines.finish()
        XCTAssertEqual(tape.value(0), tree, whole, file: file, line: line)
        let kept = Value.opaque(JSONTapeValue(tape: tape, result: tape.root))
        XCTAssertEqual(JSONWriter.compact(kept), JSONWriter.compact(tree), file: file, line: line)
        XCTAssertEqual(JSONWriter.pretty(kept), JSONWriter.pretty(tree), file: file, line: line)
        for _ in 0..<4 {
            let source = g.below(3) == 0 ? "[*]." + g.expression() : g.expression()
            guard let expression = try? JMESPathExpression(source) else { continue }
            let fromLines = Result { () throws(JMESPathError) in try tape.search(expression) }
            let fromTree = Result { () throws(JMESPathError) in try expression.search(tree) }
            switch (fromLines, fromTree) {
            case (.success(let a), .success(let b)): XCTAssertEqual(JSONWriter.compact(a), JSONWriter.compact(b), "`\(source)` on \(whole)", file: file, line: line)
            case (.failure(let a), .failure(let b)): XCTAssertEqual(a.message, b.message, "`\(source)` on \(whole)", file: file, line: line)
            default: XCTFail("`\(source)` on \(whole): \(fromLines) against \(fromTree)", file: file, line: line)
            }
        }
    }

    func test_documentsAddedOneByOneAreTheWholeList() throws {
        var g = JSONTextGenerator(seed: 0x11E5_7A9E)
        for round in 0..<400 {
            var documents: [String] = []
            for _ in 0..<g.below(8) {
                var d = g.document()
                if g.below(5) == 0 { d = g.broken(d) }
                if g.below(20) == 0 { d = "\u{FEFF}" + d }
                documents.append(d)
            }
            try check(documents, &g, longSize: round % 4 == 0 ? 3 : nil)
        }
    }

    func test_whatTheReaderRefusesLeavesTheListAsItWas() throws {
        var g = JSONTextGenerator(seed: 7)
        try check([#"{"a": 1}"#, "", "  ", "{", #"{"a": 1} x"#, "[1, 2]", "\u{FEFF}", "\"\u{FEFF}\"", "3", "nul", "null", #"{"b": [true]}"#], &g)
        let empty = JSONLinesTape().finish()
        XCTAssertEqual(JSONWriter.compact(.opaque(JSONTapeValue(tape: empty, result: empty.root))), "[]")
        XCTAssertEqual(empty.value(0), .list([]))
    }

    func test_theValuesOfTheDocumentsAreTheReaders() throws {
        let lines = JSONLinesTape()
        let documents = [#"{"id": 1, "n": 1.50, "s": "é\n"}"#, "[1e400, -0, 12345678901234567890]", #""text""#, "false"]
        for d in documents { XCTAssertTrue(Array(d.utf8).withUnsafeBufferPointer { lines.append($0) }) }
        XCTAssertEqual(lines.finishValues(), try documents.map { try JSON.parse($0) })
    }
}
