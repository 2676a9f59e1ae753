import XCTest

@testable import VowValue

/// The reader (`JSON.parse`) makes each record and list with the room its members take, not
/// the room growing one member at a time leaves; what it makes is unchanged: checked against the
/// tape's reader (`JSONTape`, which makes values its own way) on generated documents with
/// repeated keys, small records and records large enough to be indexed.
final class JSONReaderRoomTests: XCTestCase {
    func test_aRecordAndAListHaveTheRoomOfTheirMembers() throws {
        guard case .record(let r) = try JSON.parse(#"{"id": 1, "name": "x"}"#) else { return XCTFail("a record") }
        // Growing, a record's arrays had room for four.
        XCTAssertLessThan(r.keys.capacity, 4)
        XCTAssertLessThan(r.values.capacity, 4)
        guard case .list(let l) = try JSON.parse("[1, 2, 3, 4, 5]") else { return XCTFail("a list") }
        // Growing, a list of five had room for eight.
        XCTAssertLessThan(l.capacity, 8)
        guard case .list(let nested) = try JSON.parse(#"[{"a": [1, {"b": 2}]}, [3, 4], {}]"#) else { return XCTFail("a list") }
        XCTAssertEqual(JSONWriter.compact(.list(nested)), #"[{"a":[1,{"b":2}]},[3,4],{}]"#)
    }

    func test_aRepeatedKeyKeepsItsLastValueAtItsFirstPlace() throws {
        let small = try JSON.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        XCTAssertEqual(JSONWriter.compact(small), #"{"a":3,"b":2}"#)
        let many = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        guard case .record(let r) = try JSON.parse("{\(many), \"k3\": \"again\", \"z\": 0}") else { return XCTFail("a record") }
        XCTAssertEqual(r.count, 21)
        XCTAssertEqual(r["k3"], .string("again"))
        XCTAssertEqual(r.position(of: "k3"), 3)
        XCTAssertEqual(r["z"], .int(0))
    }

    /// Generated documents: the reader's values print as the tape's do, and every key of every
    /// record finds its value (the index of a large record included).
    func test_generatedDocumentsReadAsTheTapeReadsThem() throws {
        var rng = SplitMix64(seed: 20261127)
        for _ in 0..<400 {
            let text = Self.document(depth: 0, &rng)
            let tree = try JSON.parse(text)
            let tape = try XCTUnwrap(JSONTape.read(text), text)
            XCTAssertEqual(JSONWriter.compact(tree), JSONWriter.compact(tape.value(0)), text)
            Self.checkLookups(tree, text)
        }
    }

    private static func checkLookups(_ v: Value, _ text: String) {
        switch v {
        case .record(let r):
            for (i, k) in r.keys.enumerated() {
                XCTAssertEqual(r.position(of: k), i, "\(k) in \(text)")
                XCTAssertEqual(r[k], r.values[i], "\(k) in \(text)")
            }
            r.values.forEach { checkLookups($0, text) }
        case .list(let l): l.forEach { checkLookups($0, text) }
        default: break
        }
    }

    private static func document(depth: Int, _ rng: inout SplitMix64) -> String {
        switch depth >= 3 ? Int.random(in: 0..<3, using: &rng) : Int.random(in: 0..<6, using: &rng) {
        case 0: return String(Int.random(in: -1000...1000, using: &rng))
        case 1: return "\"s\(Int.random(in: 0..<50, using: &rng))\""
        case 2: return ["true", "null", "1.5", "[]", "{}"][Int.random(in: 0..<5, using: &rng)]
        case 3:
            let n = Int.random(in: 1..<8, using: &rng)
            return "[" + (0..<n).map { _ in document(depth: depth + 1, &rng) }.joined(separator: ",") + "]"
        default:
            // Up to 30 members from a small set of keys: repeats are common, and a record may
            // pass the size at which it is indexed.
            let n = Int.random(in: 1..<30, using: &rng)
            let keys = Int.random(in: 1..<25, using: &rng)
            return "{" + (0..<n).map { _ in "\"k\(Int.random(in: 0..<keys, using: &rng))\": \(document(depth: depth + 1, &rng))" }.joined(separator: ", ") + "}"
        }
    }
}
