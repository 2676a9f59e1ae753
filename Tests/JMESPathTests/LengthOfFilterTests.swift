import VowValue
import XCTest

@testable import JMESPath

/// `length([?condition])` counts the elements the filter keeps without making their list: the
/// same count, and the same errors, as the filter's list measured (`length([?c] | @)`, which
/// the shortcut does not take).
final class LengthOfFilterTests: XCTestCase {
    func test_theCountIsTheLengthOfTheFiltersList() throws {
        let document = try JSON.parse(#"""
            {"xs": [{"a": 1}, null, {"a": 2}, 3, "s", {"a": null}, [1], {}, {"a": [0]}],
             "ns": [null, null, 1, false, 0, ""], "o": {"a": 1}, "s": "text"}
            """#)
        for condition in ["a", "!a", "a > `1`", "@", "!@", "`true`", "type(@) == 'object'", "a || `true`", "a[0] == `0`"] {
            for list in ["xs", "ns", "o", "s", "missing", "@"] {
                let short = "length(\(list)[?\(condition)])"
                let long = "length(\(list)[?\(condition)] | @)"
                let a = Result { () throws(JMESPathError) in try JMESPathExpression(short).search(document) }
                let b = Result { () throws(JMESPathError) in try JMESPathExpression(long).search(document) }
                switch (a, b) {
                case (.success(let x), .success(let y)): XCTAssertEqual(x, y, short)
                case (.failure(let x), .failure(let y)): XCTAssertEqual(x.message, y.message, short)
                default: XCTFail("\(short): \(a) against \(b)")
                }
            }
        }
        XCTAssertEqual(try search("length(xs[?a])", document), .int(3))
        // A null the condition holds for is not an element of the filter's list, nor counted.
        XCTAssertEqual(try search("length(ns[?!@])", document), .int(2))
    }

    func test_aConditionThatFailsOnAnyElementFailsTheCount() {
        let document: Value = .list([.int(1), .string("x")])
        XCTAssertEqual(kind("length([?@ > `0`])", document), kind("length([?@ > `0`] | @)", document))
        XCTAssertEqual(kind("length([?abs(@) > `0`])", document), .invalidType)
    }
}
