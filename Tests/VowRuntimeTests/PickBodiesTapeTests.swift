import JMESPath
import XCTest

@testable import VowRuntime
import VowValue

/// `each fetch … | pick EXPR`: a list of responses is searched in one tape of their bodies
/// (`Pick.bodiesTape`), which gives what searching the list of their bodies as values gives, on
/// generated bodies, and leaves a list it cannot take (a body that is not JSON, an element that
/// is not a response) to the ordinary reading, which names the body at fault.
final class PickBodiesTapeTests: XCTestCase {
    func response(_ body: String) -> Value {
        .response(HTTPResponse(
            status: 200, statusText: "OK", url: "http://127.0.0.1/x", method: "GET",
            headers: [("Content-Type", "application/json")], elapsed: 0, body: Array(body.utf8)))
    }

    /// A seeded JSON document: records, lists, numbers of every form, text with escapes.
    func document(_ random: inout SplitMix64, depth: Int = 0) -> String {
        let pick = depth > 2 ? random.next() % 5 : random.next() % 8
        switch pick {
        case 0: return "null"
        case 1: return random.next() % 2 == 0 ? "true" : "false"
        case 2: return String(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
        case 3: return ["1.5", "-0.0", "2e3", "1E-2", "9007199254740993", "0.1"][Int(random.next() % 6)]
        case 4: return ["\"a\"", "\"é \\\"q\\\"\\t\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\""][Int(random.next() % 4)]
        case 5, 6:
            let n = Int(random.next() % 4)
            // A repeated key keeps its last value, as the reader keeps it.
            let keys = ["id", "items", "name", "id", "total"]
            return "{" + (0..<n).map { _ in "\"\(keys[Int(random.next() % 5)])\": \(document(&random, depth: depth + 1))" }.joined(separator: ", ") + "}"
        default:
            let n = Int(random.next() % 4)
            return "[" + (0..<n).map { _ in document(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        }
    }

    /// What `pick` gave before the tape: the bodies read into values, then searched.
    func ordinary(_ expression: String, _ list: Value) throws -> Value {
        do {
            return try JMESPathExpression.cached(expression).search(try Pick.body(list))
        } catch let error as JMESPathError {
            throw Pick.pickError(error, expression)
        }
    }

    /// A search's value, or the message of its error.
    enum Outcome: Equatable {
        case value(Value)
        case error(String)

        init(_ search: () throws -> Value) {
            do { self = .value(try search()) } catch { self = .error("\(error)") }
        }
    }

    func test_generatedBodiesGiveWhatTheirValuesGive() throws {
        var random = SplitMix64(seed: 0xB0D1_E5)
        let expressions = [
            "@", "length([*].items)", "[*].id", "[?id > `0`].name", "[*].items[]", "[-1]", "[*].total | [?@ != null]",
            "max_by([?type(id) == 'number'], &id).id", "[*].keys(@)", "sort_by([?type(id) == 'number'], &id)[*].id",
            "length([*]) == length(@)", "[0].items[0][0]",
        ]
        var values = 0
        var errors = 0
        for round in 0..<60 {
            let bodies = (0..<(1 + round % 9)).map { _ in random.next() % 3 == 0 ? "  \(document(&random))\n" : document(&random) }
            let list = Value.list(bodies.map(response))
            XCTAssertNotNil(Pick.bodiesTape(list), "every body is JSON: \(bodies)")
            for expression in expressions {
                let viaTape = Outcome { try Pick.search(expression, in: list) }
                XCTAssertEqual(viaTape, Outcome { try ordinary(expression, list) }, "\(expression) on \(bodies)")
                if case .value = viaTape { values += 1 } else { errors += 1 }
            }
        }
        // Both outcomes are compared: the searches give values, and errors the same way.
        XCTAssertGreaterThan(values, 300)
        XCTAssertGreaterThan(errors, 20)
    }

    func test_aListItCannotTakeGoesTheOrdinaryWay() throws {
        let good = (0..<5).map { response(#"{"items": [\#($0)]}"#) }
        // A body that is not JSON: the ordinary reading rejects, naming the content type.
        for bad in ["<html>", "", "{\"a\": 1} x", "{\"a\": "] {
            var items = good
            items.insert(response(bad), at: 2)
            XCTAssertNil(Pick.bodiesTape(.list(items)), bad)
            XCTAssertThrowsError(try Pick.search("length(@)", in: .list(items)), bad) { error in
                XCTAssertTrue("\(error)".contains("the body is not JSON"), "\(error)")
            }
        }
        // An element that is not a response is searched as itself.
        let mixed = Value.list(good + [.int(7)])
        XCTAssertNil(Pick.bodiesTape(mixed))
        XCTAssertEqual(try Pick.search("[-1]", in: mixed), .int(7))
        XCTAssertEqual(try Pick.search("[0].items[0]", in: mixed), .int(0))
        // A byte order mark before a body is skipped, as the reader skips it.
        let marked = Value.list([response("\u{FEFF}[1, 2]"), response("3")])
        XCTAssertNotNil(Pick.bodiesTape(marked))
        XCTAssertEqual(try Pick.search("[0][1]", in: marked), try ordinary("[0][1]", marked))
    }
}
