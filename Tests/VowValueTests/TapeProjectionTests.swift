import Foundation
import JMESPath
import XCTest

@testable import VowValue

/// Each document kept to what an expression reads of it (`JMESPathDemand`, `JSONTape.project`)
/// gives every search the same value or error as the whole documents: generated and seeded,
/// against the same list kept whole. The projected text itself is checked against a projection
/// of the reader's values made here another way.
final class TapeProjectionTests: XCTestCase {
    /// An expression over a list of documents, as a user writes one first for a stream: counts,
    /// sums, groups, filters and orders of fields, with the generator's expressions inside.
    func listExpression(_ g: inout JSONTextGenerator) -> String {
        let field = ["a", "b", "id", "items", "name", #""é""#, "K", "k3"][g.below(8)]
        let inner = g.expression(depth: 2)
        switch g.below(16) {
        case 0: return "length([?\(inner)])"
        case 1: return "length([?\(field) == \(["'text'", "`1`", "`null`", "`true`"][g.below(4)])])"
        case 2: return "{n: length([?\(field)]), m: length([*].\(field))}"
        case 3: return "sum([*].\(field))"
        case 4: return "from_items(items(group_by(@, &\(field)))[*].[[0], {n: length([1]), s: [1][*].\(inner)}])"
        case 5: return "group_by(@, &\(field)).text | length(@)"
        case 6: return "max_by(@, &\(field)).\(inner)"
        case 7: return "sort_by(@, &\(field))[*].\(inner)"
        case 8: return "map(&\(inner), @)"
        case 9: return "[?\(inner)].\(field) | length(@)"
        case 10: return "[*].\(inner)"
        case 11: return "reverse(@)[1:].\(inner)"
        case 12: return "values(group_by(@, &\(field)))[*][0].\(inner)"
        case 13: return "keys(group_by(@, &\(field)))"
        case 14: return "[*].{x: \(inner), y: \(field)}"
        default: return inner
        }
    }

    /// The search of `tape` with `expression`: its compact text, or its error's message.
    func outcome(_ tape: JSONTape, _ expression: JMESPathExpression) -> String {
        do throws(JMESPathError) {
            return JSONWriter.compact(try tape.search(expression))
        } catch {
            return "error: " + error.message
        }
    }

    /// The search of the list `values` (as the reader's values) with `expression`.
    func outcome(_ values: [Value], _ expression: JMESPathExpression) -> String {
        do throws(JMESPathError) {
            return JSONWriter.compact(try expression.search(Value.list(values)))
        } catch {
            return "error: " + error.message
        }
    }

    /// `value` projected to `demand` as the rule says, made from the reader's values.
    func projected(_ value: Value, _ demand: JMESPathDemand) -> Value {
        guard !demand.whole, case .record(let r) = value else { return value }
        var out: [(String, Value)] = []
        for (key, v) in r.entries { if let below = demand.fields[key] { out.append((key, projected(v, below))) } }
        return .record(Record(out))
    }

    func test_projectedDocumentsGiveEverySearchTheSameAnswer() throws {
        var g = JSONTextGenerator(seed: 0x9E0_1EC7)
        var compared = 0, smaller = 0
        for _ in 0..<3000 {
            let source = listExpression(&g)
            guard let expression = try? JMESPathExpression(source), let demand = expression.elementDemand else { continue }
            var documents: [String] = []
            for _ in 0..<g.below(7) {
                let d = g.document()
                if (try? JSON.parse(d)) != nil { documents.append(d) }
            }
            let whole = JSONLinesTape(), kept = JSONLinesTape(keeping: demand)
            for d in documents {
                XCTAssertTrue(Array(d.utf8).withUnsafeBufferPointer { whole.append($0) })
                XCTAssertTrue(Array(d.utf8).withUnsafeBufferPointer { kept.append($0) }, d)
            }
            let wholeTape = whole.finish(), keptTape = kept.finish()
            XCTAssertEqual(outcome(keptTape, expression), outcome(wholeTape, expression), "`\(source)` on \(documents)")
            // Each document's projection is the rule's.
            let values = try documents.map { try JSON.parse($0.hasPrefix("\u{FEFF}") ? String($0.dropFirst()) : $0) }
            XCTAssertEqual(keptTape.value(0), .list(values.map { projected($0, demand) }), "`\(source)` on \(documents)")
            // Some documents projected and some whole (a stream whose later items go the
            // ordinary way): the same answer, element by element.
            let mixed = values.map { g.below(2) == 0 ? projected($0, demand) : $0 }
            XCTAssertEqual(outcome(mixed, expression), outcome(wholeTape, expression), "`\(source)` on \(mixed)")
            compared += 1
            if keptTape.textCount < wholeTape.textCount { smaller += 1 }
        }
        // The generator must reach the cases this test is for.
        XCTAssertGreaterThan(compared, 1000)
        XCTAssertGreaterThan(smaller, 300)
    }

    func test_textIsCopiedAsWrittenAndRefusedDocumentsAreRefused() throws {
        let demand = try XCTUnwrap(JMESPathExpression("[*].{n: n, s: s, o: o.x}").elementDemand)
        let kept = JSONLinesTape(keeping: demand)
        let documents = [
            #"{"n": 1.50, "skip": [1, {"a": 2}], "s": "é\n\u00e9", "o": {"x": [ 1 , 2 ] , "y": 3}}"#,
            #"{"o": {"y": {}, "x": {"deep": [true, false, null]} }, "n": 12345678901234567890}"#,
            #"{"n": 1, "n": 2, "o": 5}"#,
            "[1, 2]", "\"text\"", "null", "{}",
        ]
        for d in documents { XCTAssertTrue(Array(d.utf8).withUnsafeBufferPointer { kept.append($0) }, d) }
        XCTAssertFalse(Array(#"{"n": 1,}"#.utf8).withUnsafeBufferPointer { kept.append($0) })
        let tape = kept.finish()
        XCTAssertEqual(
            String(decoding: UnsafeBufferPointer(start: tape.text, count: tape.textCount), as: UTF8.self),
            #"[{"n":1.50,"s":"é\n\u00e9","o":{"x":[ 1 , 2 ]}},{"o":{"x":{"deep": [true, false, null]}},"n":12345678901234567890},{"n":2,"o":5},[1, 2],"text",null,{}]"#)
        let expression = try JMESPathExpression("[*].{n: n, s: s, o: o.x}")
        let tree = try documents.map { try JSON.parse($0) }
        XCTAssertEqual(JSONWriter.compact(try tape.search(expression)), JSONWriter.compact(try expression.search(Value.list(tree))))
    }
}
