// vow's own functions: round, now, to_iso8601 and from_iso8601, as
// docs/language.md defines them (the JavaScript twin implements the same definitions).
import VowValue
import XCTest

@testable import JMESPath

final class VowFunctionTests: XCTestCase {
    func search(_ expression: String, _ document: Value = .null) throws -> Value {
        try JMESPathExpression(expression).search(document)
    }

    func kind(_ expression: String, _ document: Value = .null) -> JMESPathError.Kind? {
        do throws(JMESPathError) {
            _ = try JMESPathExpression(expression).search(document)
            return nil
        } catch {
            return error.kind
        }
    }

    func test_roundHalvesAwayFromZero() throws {
        XCTAssertEqual(try search("round(n / total * `100`, `1`)", ["n": 7, "total": 9]), .double(77.8))
        XCTAssertEqual(JSONWriter.compact(try search("round(n / total * `100`, `1`)", ["n": 7, "total": 9])), "77.8")
        XCTAssertEqual(try search("round(`2.5`)"), .int(3))
        XCTAssertEqual(try search("round(`-2.5`)"), .int(-3))
        XCTAssertEqual(try search("round(`0.49999999999999994`)"), .int(0))
        XCTAssertEqual(try search("round(`1.25`, `1`)"), .double(1.3))
        XCTAssertEqual(try search("round(`-1.25`, `1`)"), .double(-1.3))
        XCTAssertEqual(try search("round(`1234.5`, `-2`)"), .int(1200))
        XCTAssertEqual(try search("round(`1250`, `-2`)"), .int(1300))
        XCTAssertEqual(try search("round(`7`)"), .int(7))
        XCTAssertEqual(try search("round(`2.999`, `2`)"), .int(3))
        // No fraction left to round at that size: the number as it is.
        XCTAssertEqual(try search("round(`1e300`, `15`)"), .double(1e300))
        XCTAssertEqual(kind("round('1')"), .invalidType)
        XCTAssertEqual(kind("round(`1.5`, `0.5`)"), .invalidValue)
        XCTAssertEqual(kind("round(`1.5`, `16`)"), .invalidValue)
    }

    func test_nowIsSecondsSinceTheEpoch() throws {
        let now = try XCTUnwrap(search("now()").doubleValue)
        XCTAssertGreaterThan(now, 1_700_000_000)
        XCTAssertLessThan(now, 4_000_000_000)
        XCTAssertEqual(try search("type(now())"), "number")
        XCTAssertThrowsError(try JMESPathExpression("now(`1`)")) { XCTAssertEqual(($0 as? JMESPathError)?.kind, .invalidArity) }
    }

    func test_toISO8601() throws {
        XCTAssertEqual(try search("to_iso8601(`1795615118`)"), "2026-11-25T13:58:38Z")
        XCTAssertEqual(try search("to_iso8601(`1795615118.25`)"), "2026-11-25T13:58:38.25Z")
        XCTAssertEqual(try search("to_iso8601(`0`)"), "1970-01-01T00:00:00Z")
        XCTAssertEqual(try search("to_iso8601(`-1.5`)"), "1969-12-31T23:59:58.5Z")
        XCTAssertEqual(try search("to_iso8601(`951782400`)"), "2000-02-29T00:00:00Z")
        // To the millisecond, halves away from zero.
        XCTAssertEqual(try search("to_iso8601(`0.0004`)"), "1970-01-01T00:00:00Z")
        XCTAssertEqual(try search("to_iso8601(`0.0005`)"), "1970-01-01T00:00:00.001Z")
        XCTAssertEqual(try search("to_iso8601(`-62167219200`)"), "0000-01-01T00:00:00Z")
        XCTAssertEqual(try search("to_iso8601(`253402300799.999`)"), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(kind("to_iso8601(`253402300800`)"), .invalidValue)
        XCTAssertEqual(kind("to_iso8601('0')"), .invalidType)
    }

    func test_fromISO8601() throws {
        XCTAssertEqual(try search("from_iso8601('2026-11-25T13:58:38Z')"), .int(1_795_615_118))
        XCTAssertEqual(try search("from_iso8601('2026-11-25T14:58:38.25+01:00')"), .double(1_795_615_118.25))
        XCTAssertEqual(try search("from_iso8601('2026-11-25T08:28:38-05:30')"), .int(1_795_615_118))
        XCTAssertEqual(try search("from_iso8601('1970-01-01T00:00:00.000Z')"), .int(0))
        XCTAssertEqual(try search("to_iso8601(from_iso8601('2024-02-29T23:59:59.5Z'))"), "2024-02-29T23:59:59.5Z")
        for bad in ["2026-11-25", "2026-11-25 13:58:38Z", "2026-11-25T13:58:38", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
                    "2026-11-25T24:00:00Z", "2026-11-25T13:60:00Z", "2026-11-25T13:58:60Z", "2026-11-25T13:58:38+1:00",
                    "2026-11-25T13:58:38+24:00", "2026-11-25T13:58:38.Z", "2026-11-25t13:58:38z", "26-11-25T13:58:38Z", ""] {
            XCTAssertEqual(kind("from_iso8601(@)", .string(bad)), .invalidValue, bad)
        }
        XCTAssertEqual(kind("from_iso8601(`1`)"), .invalidType)
    }
}
