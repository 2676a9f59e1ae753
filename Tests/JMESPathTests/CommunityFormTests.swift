// JMESPath Community's forms beyond what its compliance suite checks: how arithmetic keeps
// integers, where a conditional ends, what a let sees, and the errors each gives.
import VowValue
import XCTest

@testable import JMESPath

final class CommunityFormTests: XCTestCase {
    func test_arithmeticKeepsIntegersWhereItCan() throws {
        XCTAssertEqual(try search("`7` + `2`"), .int(9))
        XCTAssertEqual(try search("`7` - `9`"), .int(-2))
        XCTAssertEqual(try search("`7` * `3`"), .int(21))
        XCTAssertEqual(try search("`6` / `3`"), .double(2))
        XCTAssertEqual(try search("`7` // `2`"), .int(3))
        XCTAssertEqual(try search("`-7` // `2`"), .int(-4))
        XCTAssertEqual(try search("`7` % `3`"), .int(1))
        XCTAssertEqual(try search("`-7` % `3`"), .int(2))
        XCTAssertEqual(try search("`7` % `-3`"), .int(-2))
        XCTAssertEqual(try search("`7.5` % `2`"), .double(1.5))
        XCTAssertEqual(try search("`-7.5` // `2`"), .int(-4))
        XCTAssertEqual(try search("`1.5` * `2`"), .double(3))
        // Beyond an integer, a double.
        XCTAssertEqual(try search("`9223372036854775807` + `1`"), .double(9_223_372_036_854_775_808))
        XCTAssertEqual(try search("-`-9223372036854775808`"), .double(9_223_372_036_854_775_808))
        // The Unicode operators, and precedence: × before +, left to right within a level.
        XCTAssertEqual(try search("`1` + `2` × `3` − `4` ÷ `2`"), .double(5))
        XCTAssertEqual(try search("`10` - `2` - `3`"), .int(5))
        XCTAssertEqual(try search("-`2` * `3`"), .int(-6))
        XCTAssertEqual(try search("a.b * `2` > `5`", ["a": ["b": 3]]), .bool(true))
    }

    func test_arithmeticOnAnythingButNumbersIsNotANumber() {
        for expression in ["`1` + 'a'", "`null` - `1`", "-'a'", "+`true`", "`1` / `0`", "`1` // `0`", "`1` % `0`", "`1e308` * `10`", "missing + `1`"] {
            XCTAssertEqual(kind(expression), .notANumber, expression)
        }
        XCTAssertEqual(kind("a -1"), .syntax, "a negative number is not a subtraction")
    }

    func test_conditionals() throws {
        let doc: Value = ["t": true, "f": false, "a": "A", "b": "B", "c": "C", "list": [1, 2]]
        XCTAssertEqual(try search("t ? a : b", doc), "A")
        XCTAssertEqual(try search("list[?@ > `1`] ? a : b", doc), "A")
        // Right to left: the false branch may be another conditional.
        XCTAssertEqual(try search("f ? a : f ? b : c", doc), "C")
        // Looser than || and &&, tighter than |: the pipe takes the whole conditional.
        XCTAssertEqual(try search("f || t ? a : b", doc), "A")
        XCTAssertEqual(try search("t ? a : b | length(@)", doc), .int(1))
        XCTAssertEqual(try search("t ? [a, b] : c | length(@)", doc), .int(2))
        XCTAssertEqual(try search("f ? a : (b | length(@))", doc), .int(1))
        // Only the branch taken is evaluated.
        XCTAssertEqual(try search("t ? a : `1` / `0`", doc), "A")
        XCTAssertEqual(kind("t ? a", doc), .syntax)
    }

    func test_letBindsInTheEnclosingScopeAndShadows() throws {
        let doc: Value = ["a": 1, "b": [["a": 2], ["a": 3]]]
        XCTAssertEqual(try search("let $x = a in b[*].[a, $x]", doc), [[2, 1], [3, 1]])
        XCTAssertEqual(try search("let $x = a, $y = b[0].a in $x + $y", doc), .int(3))
        XCTAssertEqual(try search("let $x = a in let $x = `5`, $y = $x in [$x, $y]", doc), [5, 1])
        XCTAssertEqual(try search("let $x = b in map(&($x[0].a + a), b)", doc), [4, 5])
        // `let` and `in` stay names elsewhere.
        XCTAssertEqual(try search("let", ["let": 7]), .int(7))
        XCTAssertEqual(try search("[let, in]", ["let": 1, "in": 2]), [1, 2])
        // A variable is an error only when it is evaluated.
        XCTAssertEqual(kind("$nope"), .undefinedVariable)
        XCTAssertEqual(try search("`true` || $nope"), .bool(true))
        XCTAssertEqual(kind("[let $x = `1` in $x, $x]"), .undefinedVariable)
        XCTAssertEqual(kind("let $x = `1` $y = `2` in $x"), .syntax)
        XCTAssertEqual(kind("let $x in $x"), .syntax)
    }

    func test_rootIsTheSearchedValueEverywhere() throws {
        let doc: Value = ["k": "x", "items": [["n": "x", "v": 1], ["n": "y", "v": 2]]]
        XCTAssertEqual(try search("items[?n == $.k].v", doc), [1])
        XCTAssertEqual(try search("items | map(&$.k, @)", doc), ["x", "x"])
        XCTAssertEqual(try search("$", doc), doc)
        XCTAssertEqual(kind("items.$"), .syntax)
    }

    func test_nullEndsAChainButNotAPipe() throws {
        XCTAssertEqual(try search("a.[b]", [:]), .null)
        XCTAssertEqual(try search("a | [b]", [:]), [.null])
        XCTAssertEqual(try search("a.length(@)", [:]), .null)
        XCTAssertEqual(try search("{x: a}", .null), ["x": .null])
    }

    func test_stringSlicesCountCodePoints() throws {
        XCTAssertEqual(try search("s[1:3]", ["s": "héllo"]), "él")
        XCTAssertEqual(try search("s[::-1]", ["s": "ab😀"]), "😀ba")
        XCTAssertEqual(try search("s[1:].length(@)", ["s": "abc"]), .int(2))
        XCTAssertEqual(try search("s[5:]", ["s": "abc"]), "")
        XCTAssertEqual(try search("s[0]", ["s": "abc"]), .null)
    }

    func test_rawStringsEscapeQuoteAndBackslash() throws {
        XCTAssertEqual(try search(#"'a\\b'"#), #"a\b"#)
        XCTAssertEqual(try search(#"'it\'s'"#), "it's")
        XCTAssertEqual(try search(#"'\z'"#), #"\z"#)
    }

    func test_legacyLiteralsOnlyWhenAsked() throws {
        XCTAssertThrowsError(try JMESPathExpression("`foo`"))
        XCTAssertEqual(try JMESPathExpression("`foo`", legacyLiterals: true).search(Value.null), "foo")
        XCTAssertEqual(try JMESPathExpression("`  foo`", legacyLiterals: true).search(Value.null), "foo")
        XCTAssertEqual(try JMESPathExpression("`[1]`", legacyLiterals: true).search(Value.null), [1])
    }

    func test_stringsCompareByCodePoint() throws {
        XCTAssertEqual(try search("'\u{E9}' == 'e\u{301}'"), .bool(false))
        XCTAssertEqual(try search("sort(@)", ["\u{E9}", "e\u{301}", "f"]), ["e\u{301}", "f", "\u{E9}"])
    }

    func test_communityFunctionsAtTheirEdges() throws {
        XCTAssertEqual(try search("group_by(`[]`, &a)"), [:])
        XCTAssertEqual(kind("group_by(@, &a)", [["a": 1]]), .invalidType)
        XCTAssertEqual(try search("group_by(@, &a)", [["a": "x", "i": 1], ["i": 2], ["a": "x", "i": 3]]), ["x": [["a": "x", "i": 1], ["a": "x", "i": 3]]])
        XCTAssertEqual(try search("from_items(`[[\"a\", 1], [\"b\", 2], [\"a\", 3]]`)"), ["a": 3, "b": 2])
        XCTAssertEqual(kind("from_items(`[[1, 2]]`)"), .invalidType)
        XCTAssertEqual(try search("zip(`[1, 2, 3]`, `[\"a\", \"b\"]`)"), [[1, "a"], [2, "b"]])
        XCTAssertEqual(try search("replace('abc', '', '-')"), "-a-b-c-")
        XCTAssertEqual(try search("replace('abc', '', '-', `2`)"), "-a-bc")
        // As the reference implementation: with a count, the rest is a piece even when empty.
        XCTAssertEqual(try search("split('ab', '', `5`)"), ["a", "b", ""])
        XCTAssertEqual(try search("split('abc', '', `1`)"), ["a", "bc"])
        XCTAssertEqual(try search("split('', '')"), [])
        XCTAssertEqual(try search("split('', '', `1`)"), [""])
        XCTAssertEqual(try search("split('', 'x')"), [""])
        XCTAssertEqual(try search("upper('straße')"), "STRASSE")
        XCTAssertEqual(try search("lower('ΑΣ')"), "ασ")
        XCTAssertEqual(try search("pad_left('7', `3`, '0')"), "007")
        XCTAssertEqual(kind("pad_left('x', `100000000`)"), .invalidValue)
        XCTAssertEqual(try search("find_last('abcabc', 'bc', `-4`)"), .int(4))
        XCTAssertEqual(try search("find_first('abcabc', 'bc', `2`, `6`)"), .int(4))
        XCTAssertEqual(try search("find_first('abcabc', 'bc', `2`, `5`)"), .null)
        XCTAssertEqual(try search("trim('xxhixx', 'x')"), "hi")
        XCTAssertEqual(kind("trim(`1`)"), .invalidType)
        XCTAssertEqual(kind("find_first('a', 'a', `1`, `2`, `3`)"), .invalidArity)
    }
}
