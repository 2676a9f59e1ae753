// vow's own functions: round, now, to_iso8601, from_iso8601, matches and regex_replace, as
// docs/language.md defines them (the JavaScript twin implements the same definitions).
import VowValue
import XCTest

@testable import JMESPath

final class VowFunctionTests: XCTestCase {
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
        // Any number of digits: already that precise, or rounded to nothing.
        XCTAssertEqual(try search("round(`1.5`, `16`)"), .double(1.5))
        XCTAssertEqual(try search("round(`12345`, `-400`)"), .int(0))
        XCTAssertEqual(kind("round(`1.7976931348623157e308`, `-308`)"), .notANumber)
        // On the shortest decimal form, not the binary value: as a person reads the number.
        XCTAssertEqual(try search("round(`1.005`, `2`)"), .double(1.01))
        XCTAssertEqual(try search("round(`-2.675`, `2`)"), .double(-2.68))
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
        XCTAssertEqual(try search("to_iso8601(`-62135596800`)"), "0001-01-01T00:00:00Z")
        XCTAssertEqual(kind("to_iso8601(`-62135596801`)"), .invalidValue)
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

    func test_matches() throws {
        XCTAssertEqual(try search("matches('order-1234', '\\d{3,}')"), .bool(true))
        XCTAssertEqual(try search("matches('order-12', '^\\d')"), .bool(false))
        XCTAssertEqual(try search("matches('abc\n', '^abc$')"), .bool(false))
        XCTAssertEqual(try search("matches('é', '^.$')"), .bool(true))
        XCTAssertEqual(try search("matches('e\u{301}', '^.$')"), .bool(false))
        XCTAssertEqual(try search("matches('a\nb', 'a.b')"), .bool(false))
        XCTAssertEqual(try search("matches('٣', '\\d')"), .bool(false))
        XCTAssertEqual(try search("matches('é', '\\w')"), .bool(false))
        XCTAssertEqual(try search("matches('\u{FEFF}', '^\\s$')"), .bool(true))
        XCTAssertEqual(try search("matches('\u{85}', '\\s')"), .bool(false))
        XCTAssertEqual(try search("matches('été x', '\\bx')"), .bool(true))
        XCTAssertEqual(try search("matches('a-b', '^[a\\-]+-?[^\\s]$')"), .bool(true))
        XCTAssertEqual(try search("matches('😀', '^[\\u{1F600}-\\u{1F64F}]$')"), .bool(true))
        XCTAssertEqual(try search("matches('ab', '^(?:a|b)+$')"), .bool(true))
        XCTAssertEqual(try search("matches('ab', 'a(?=b)')"), .bool(true))
        XCTAssertEqual(try search("matches('ab', 'a(?!b)')"), .bool(false))
        XCTAssertEqual(try search("matches('a&&b', '[a&&b]{4}')"), .bool(true))
        XCTAssertEqual(try search("matches('', '')"), .bool(true))
        // Ranges whose ends Unicode normalization would change are still ranges of code points.
        XCTAssertEqual(try search("matches(@, '^[\\u2000-\\u2001]$')", "\u{2000}"), .bool(true))
        XCTAssertEqual(try search("matches(@, '^[\\u2000-\\u2001]$')", "\u{2002}"), .bool(false))
        XCTAssertEqual(try search("matches(@, '^\\s$')", "\u{2001}"), .bool(true))
        XCTAssertEqual(kind("matches(`1`, 'a')"), .invalidType)
    }

    func test_patternsOutsideTheSubsetAreInvalid() {
        for pattern in ["(", ")", "[a", "a{2", "*a", "a**", "a{3,2}", "[]", "[b-a]", "(?<=a)b", "(?i)a", "(?<n>a)", "\\1", "\\k",
                        "\\-", "]", "}", "{", "[\\d-z]", "[a-\\d]", "[\\D]", "[[a]]", "\\uD800", "\\u{110000}", "a{1001}", "(?=a)*", "^*",
                        "\\p{L}", "\\A", "\\z", "[a-b-c]"] {
            XCTAssertEqual(kind("matches('a', @)", .string(pattern)), .invalidValue, pattern)
        }
    }

    func test_regexReplace() throws {
        XCTAssertEqual(try search("regex_replace('2026-11-25', '(\\d+)-(\\d+)-(\\d+)', '$3/$2/$1')"), "25/11/2026")
        XCTAssertEqual(try search("regex_replace('a.b.c', '\\.', '$$')"), "a$b$c")
        XCTAssertEqual(try search("regex_replace('abc', 'b', '[$0]')"), "a[b]c")
        XCTAssertEqual(try search("regex_replace('abc', 'x*', '-')"), "-a-b-c-")
        XCTAssertEqual(try search("regex_replace('aaa', 'a*', '-')"), "--")
        XCTAssertEqual(try search("regex_replace('ab', '(x)?b', '[$1]')"), "a[]")
        XCTAssertEqual(try search("regex_replace('a1', '\\d', '$x $')"), "a$x $")
        XCTAssertEqual(try search("regex_replace('a1', '(\\d)', '$12')"), "a12")
        XCTAssertEqual(try search("regex_replace('x😀y', '.', '<$0>')"), "<x><😀><y>")
        XCTAssertEqual(try search("regex_replace('ab,cd', '(\\w)+', '$1')"), "b,d")
        XCTAssertEqual(kind("regex_replace('a', '(a)', '$2')"), .invalidValue)
        // A group inside a repeated group: the engines report different text, so it is refused.
        XCTAssertEqual(kind("regex_replace('ab', '(?:(a)|b)+', '$1')"), .invalidValue)
        XCTAssertEqual(kind("regex_replace('ab', '(?=(a))', '$1')"), .invalidValue)
        XCTAssertEqual(try search("regex_replace('ab', '(?:(a)|b)+', '$0')"), "ab")
    }
}
