import JMESPath
import XCTest

@testable import VowValue

/// JSON reading and writing, rule by rule.
final class JSONReadTests: XCTestCase {
    func parse(_ s: String) throws -> Value { try JSON.parse(s) }

    func parseError(_ s: String, file: StaticString = #filePath, line: UInt = #line) -> JSONError? {
        do {
            let v = try JSON.parse(s)
            XCTFail("expected an error, got \(JSONWriter.compact(v))", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// Records and opaque values are boxed, so a value is no larger than a string and a tag: a
    /// parsed document's lists take a third of what 48-byte values took.
    func test_aValueIsSmall() {
        XCTAssertLessThanOrEqual(MemoryLayout<Value>.size, 17)
        XCTAssertLessThanOrEqual(MemoryLayout<Value>.stride, 24)
    }

    func test_keyOrderIsKept() throws {
        let v = try parse(#"{"b": 1, "a": 2, "c": 3}"#)
        XCTAssertEqual(v.recordValue?.entries.map(\.key), ["b", "a", "c"])
        XCTAssertEqual(JSONWriter.compact(v), #"{"b":1,"a":2,"c":3}"#)
    }

    func test_duplicateKeyLastOneWins() throws {
        let v = try parse(#"{"a": 1, "b": 2, "a": 3}"#)
        XCTAssertEqual(v.recordValue?["a"], .int(3))
        XCTAssertEqual(v.recordValue?.count, 2)
    }

    func test_integersExactTo64Bits() throws {
        XCTAssertEqual(try parse("9223372036854775807"), .int(Int.max))
        XCTAssertEqual(try parse("-9223372036854775808"), .int(Int.min))
        if case .int = try parse("9223372036854775808") { XCTFail("overflowing integer must be a double") }
        XCTAssertEqual(try parse("9223372036854775808").doubleValue, 9_223_372_036_854_775_808)
    }

    func test_fractionsAndExponentsAreDoubles() throws {
        XCTAssertEqual(try parse("1.5"), .double(1.5))
        XCTAssertEqual(try parse("-2e3"), .double(-2000))
        XCTAssertEqual(try parse("1E-2"), .double(0.01))
        if case .double = try parse("10") { XCTFail("10 is an integer") }
    }

    func test_numbersBeyondADoubleClampAndRoundTrip() throws {
        // Found by the JSON fuzz target: 1e11111 used to become infinity and print as null.
        XCTAssertEqual(try parse("1e11111"), .double(.greatestFiniteMagnitude))
        XCTAssertEqual(try parse("-1e400"), .double(-.greatestFiniteMagnitude))
        let v = try parse("[1e11111]")
        XCTAssertEqual(try JSON.parse(JSONWriter.compact(v)), v)
    }

    func test_escapesAndSurrogatePairs() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(try parse(#""\u00e9\u4e2d""#), .string("é中"))
        XCTAssertEqual(try parse(#""\ud83d\ude00""#), .string("😀"))
    }

    func test_loneSurrogateIsAnError() {
        XCTAssertNotNil(parseError(#""\ud83d""#))
    }

    func test_invalidUTF8IsAnError() {
        XCTAssertThrowsError(try JSON.parse([0x22, 0xFF, 0xFE, 0x22])) { e in
            XCTAssertTrue("\(e)".contains("UTF-8"), "\(e)")
        }
    }

    func test_errorsNameLineColumnAndWhatWasExpected() throws {
        let e = try XCTUnwrap(parseError("{\n  \"a\": 1,\n  \"b\" 2\n}"))
        XCTAssertEqual(e.line, 3)
        XCTAssertEqual(e.column, 7)
        XCTAssertTrue(e.message.contains("':'"), e.message)
        XCTAssertTrue(e.snippet.contains("^"), e.snippet)
    }

    func test_trailingCommaAndGarbageAreErrors() {
        XCTAssertNotNil(parseError("[1, 2,]"))
        XCTAssertNotNil(parseError("{\"a\": 1,}"))
        XCTAssertNotNil(parseError("1 2"))
        XCTAssertNotNil(parseError(""))
        XCTAssertNotNil(parseError("[01]"))
        XCTAssertNotNil(parseError("\"tab\there\""))
        XCTAssertNotNil(parseError("nul"))
    }

    func test_depthIsCappedWithAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let e = try XCTUnwrap(parseError(deep))
        XCTAssertTrue(e.message.contains("deep"), e.message)
        XCTAssertNoThrow(try JSON.parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)))
    }
}

final class JSONWriteTests: XCTestCase {
    func test_integersPrintWithoutFraction() {
        // -0 prints as 0, as JSON.stringify does.
        XCTAssertEqual(JSONWriter.compact([1, 2.5, -0.0, 1e21, 3.0] as Value), "[1,2.5,0,1e+21,3]")
    }

    func test_controlCharactersAreEscaped() {
        let s = JSONWriter.compact(.string("a\u{1B}[31m\u{7F}\u{85}\u{2028}\"\\"))
        XCTAssertEqual(s, #""a\u001b[31m\u007f\u0085\u2028\"\\""#)
        XCTAssertFalse(s.unicodeScalars.contains { $0.value < 0x20 })
    }

    func test_roundTripIsTheIdentity() throws {
        let text = #"{"id":9007199254740993,"f":0.1,"s":"é😀\n","l":[true,false,null,{}],"o":{"z":[],"a":-1}}"#
        let v = try JSON.parse(text)
        XCTAssertEqual(JSONWriter.compact(v), text)
        XCTAssertEqual(try JSON.parse(JSONWriter.pretty(v)), v)
        XCTAssertEqual(JSONWriter.compact(try JSON.parse(JSONWriter.pretty(v))), text)
    }

    func test_prettyIndentsAndColours() {
        let v: Value = ["a": [1, "x"]]
        XCTAssertEqual(JSONWriter.pretty(v), "{\n  \"a\": [\n    1,\n    \"x\"\n  ]\n}")
        let coloured = JSONWriter.pretty(v, colors: .ansi)
        XCTAssertTrue(coloured.contains("\u{1B}[36m1\u{1B}[0m"), coloured)
    }
}

final class ValueJMESPathTests: XCTestCase {
    func test_pickSeesRecordsListsAndNumbersNatively() throws {
        let v = try JSON.parse(#"{"items":[{"n":1},{"n":5},{"n":3}]}"#)
        XCTAssertEqual(try JMESPathExpression("items[?n > `2`].n").search(v), [5, 3])
        XCTAssertEqual(try JMESPathExpression("length(items)").search(v), 3)
        XCTAssertEqual(try JMESPathExpression("max_by(items, &n).n").search(v), 5)
    }
}
