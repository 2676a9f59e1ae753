// Long chains of steps: built in place, so a chain of n steps costs n, not n².
import VowValue
import XCTest

@testable import JMESPath

final class ChainTests: XCTestCase {
    /// A long chain compiles into one flat chain and runs (building it was quadratic: a chain of
    /// 50,000 through `pick` took 15.8 s, now 0.05 s in all, by hand; times are not asserted
    /// here). 10,000 steps: the debug build's frames are large.
    func test_aLongChainCompilesAndRuns() throws {
        let chain = Array(repeating: "a", count: 10_000).joined(separator: ".")
        let expr = try JMESPathExpression(chain)
        XCTAssertEqual(try expr.search(Value.record(Record([("a", .int(1))]))), .null)
        // A chain on a document as deep as it: every step is taken (1,000 levels: a value much
        // deeper than JSON's 512 cannot come from a parsed document).
        var deep = Value.int(7)
        for _ in 0..<1_000 { deep = .record(Record([("a", deep)])) }
        XCTAssertEqual(try JMESPathExpression(Array(repeating: "a", count: 1_000).joined(separator: ".")).search(deep), .int(7))
    }

    /// A chain of 50,000 indexes is one flat chain too (each `[n]` used to copy the chain
    /// before it: 50,000 took 30 s).
    func test_aLongChainOfIndexesCompilesAndRuns() throws {
        let expr = try JMESPathExpression(String(repeating: "[0]", count: 50_000))
        XCTAssertEqual(try expr.search(Value.list([.int(1)])), .null)
        var deep = Value.int(7)
        for _ in 0..<1_000 { deep = .list([deep]) }
        XCTAssertEqual(try JMESPathExpression(String(repeating: "[0]", count: 1_000)).search(deep), .int(7))
    }

    /// Chains mixed with other steps keep their meaning.
    func test_chainsWithIndexesAndProjections() throws {
        let doc = Value.record(Record([("a", .list([.record(Record([("b", .int(1))])), .record(Record([("b", .int(2))]))]))]))
        XCTAssertEqual(try JMESPathExpression("a[1].b").search(doc), .int(2))
        XCTAssertEqual(try JMESPathExpression("a[*].b").search(doc), .list([.int(1), .int(2)]))
        XCTAssertEqual(try JMESPathExpression("a[0:1].b").search(doc), .list([.int(1)]))
    }
}
