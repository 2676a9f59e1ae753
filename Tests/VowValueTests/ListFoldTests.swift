import Foundation
import JMESPath
import XCTest

@testable import VowValue

/// A fold (`ListFold`) gives the value or the error the search of the whole list gives: generated
/// and seeded aggregates (counts, sums, averages, of the list and of `group_by`'s groups, with
/// the generator's expressions as their steps, conditions and keys), their elements added one at
/// a time as the reader's values and as documents read into tapes, against the search of the
/// list kept whole.
final class ListFoldTests: XCTestCase {
    /// The list through generated element-wise steps.
    func steps(_ g: inout JSONTextGenerator, _ field: String) -> String {
        let inner = g.expression(depth: 2)
        switch g.below(7) {
        case 0: return "@"
        case 1: return "[*].\(field)"
        case 2: return "[?\(inner)]"
        case 3: return "[?\(field)].\(inner)"
        case 4: return "map(&\(inner), @)"
        case 5: return "[?\(field) != `null`][*].\(field)"
        default: return "[*].\(inner)"
        }
    }

    /// An aggregate of the list through generated steps.
    func aggregate(_ g: inout JSONTextGenerator, _ field: String) -> String {
        ["length", "sum", "avg"][g.below(3)] + "(" + steps(&g, field) + ")"
    }

    /// An aggregate of one group's list, from `base` (`[1]` of a pair, `@` of a group's list).
    func groupAggregate(_ g: inout JSONTextGenerator, _ base: String, _ field: String) -> String {
        let f = ["length", "sum", "avg"][g.below(3)]
        switch g.below(4) {
        case 0: return "\(f)(\(base))"
        case 1: return "\(f)(\(base)[*].\(field))"
        case 2: return "\(f)(\(base)[?\(g.expression(depth: 3))].\(field))"
        default: return "\(f)(map(&\(field), \(base)))"
        }
    }

    /// An expression a user writes to aggregate a stream: aggregates of the list or of its
    /// groups, with anything around them.
    func foldExpression(_ g: inout JSONTextGenerator) -> String {
        let field = ["a", "b", "id", "items", "name", #""é""#, "K", "k3"][g.below(8)]
        let group = "group_by(\(g.below(3) == 0 ? steps(&g, field) : "@"), &\(field))"
        switch g.below(12) {
        case 0: return aggregate(&g, field)
        case 1: return "{n: \(aggregate(&g, field)), m: \(aggregate(&g, field))}"
        case 2: return "\(aggregate(&g, field)) > `1` && \(aggregate(&g, field))"
        case 3: return "[\(aggregate(&g, field)), \(aggregate(&g, field))] | \(g.expression(depth: 3))"
        case 4: return "(\(aggregate(&g, field)) \(["+", "*", "/"][g.below(3)]) \(aggregate(&g, field)))"
        case 5:
            return "from_items(items(\(group))[*].[[0], {n: \(groupAggregate(&g, "[1]", field)), s: \(groupAggregate(&g, "[1]", field))}])"
        case 6: return "values(\(group))[*].\(groupAggregate(&g, "@", field))"
        case 7: return "\(group).*.\(groupAggregate(&g, "@", field))"
        case 8: return "\(group).text | \(groupAggregate(&g, "@", field))"
        case 9: return "keys(\(group))"
        case 10: return "items(\(group))[?\(groupAggregate(&g, "[1]", field)) > `1`][0]"
        default: return "map(&[[0], \(groupAggregate(&g, "[1]", field))], items(\(group)))"
        }
    }

    /// The search's value as compact text, or its error's message.
    func outcome(_ body: () throws(JMESPathError) -> Value) -> String {
        do throws(JMESPathError) {
            return JSONWriter.compact(try body())
        } catch {
            return "error: " + error.message
        }
    }

    func test_aFoldGivesTheSearchsValueOrError() throws {
        var g = JSONTextGenerator(seed: 0xF01D_0044)
        var folded = 0, failed = 0, grouped = 0
        for _ in 0..<4000 {
            let source = foldExpression(&g)
            guard let expression = try? JMESPathExpression(source), let byValue = ListFold(expression) else { continue }
            XCTAssertTrue(ListFold.folds(expression), source)
            let byDocument = try XCTUnwrap(ListFold(expression))
            var documents: [String] = []
            for _ in 0..<g.below(9) {
                let d = g.document()
                if (try? JSON.parse(d)) != nil { documents.append(d) }
            }
            let values = try documents.map { try JSON.parse($0.hasPrefix("\u{FEFF}") ? String($0.dropFirst()) : $0) }
            for (d, v) in zip(documents, values) {
                byValue.add(v)
                XCTAssertTrue(Array(d.utf8).withUnsafeBufferPointer { byDocument.addDocument($0) }, d)
            }
            let expected = outcome { () throws(JMESPathError) in try expression.search(Value.list(values)) }
            XCTAssertEqual(outcome { () throws(JMESPathError) in try byValue.finish(Value.self) }, expected, "`\(source)` on \(documents)")
            XCTAssertEqual(outcome { () throws(JMESPathError) in try byDocument.finish(Value.self) }, expected, "`\(source)` on \(documents)")
            XCTAssertEqual(byValue.count, values.count)
            folded += 1
            if expected.hasPrefix("error") { failed += 1 }
            if source.contains("group_by") { grouped += 1 }
        }
        // The generator must reach what this test is for: folds, errors, groups.
        XCTAssertGreaterThan(folded, 2000)
        XCTAssertGreaterThan(failed, 200)
        XCTAssertGreaterThan(grouped, 800)
    }

    /// Rule by rule: what folds and what does not.
    func test_whatFolds() throws {
        for source in [
            "length(@)", "sum([*].total)", "avg(map(&total, @))", "length([?status == 'paid'])",
            "{paid: length([?status == 'paid']), total: sum([?status == 'paid'].total)}",
            "from_items(items(group_by(@, &status))[*].[[0], {n: length([1]), total: sum([1][*].total)}])",
            "group_by(@, &status).paid | length(@)", "keys(group_by(@, &status))", "group_by(@, &status).*.sum([*].total)",
            "values(group_by([?total > `5`], &status))[*].avg([*].total)", "sum([*].total) / length(@)",
            "sum([*].total) | [@, length(@)]",
        ] {
            XCTAssertTrue(ListFold.folds(try JMESPathExpression(source)), source)
        }
        for source in [
            // An element or the list itself read otherwise, `$`, variables, no aggregate at all.
            "@", "[0]", "[*].total", "sort_by(@, &total)", "max_by(@, &total)", "group_by(@, &status)",
            "values(group_by(@, &status))", "group_by(@, &status).paid", "items(group_by(@, &status))[*][1][0]",
            "length(@) + `1` | [@, $]", "let $x = `1` in length(@)",
            "length([?total > $.min])", "`1`", "sum([*].items[].price)",
        ] {
            XCTAssertFalse(ListFold.folds(try JMESPathExpression(source)), source)
        }
    }

    /// The first error the search meets: an earlier step's, whatever its element, before a later
    /// step's or the function's own; an aggregate the evaluation never reaches throws nothing.
    func test_errorsComeInTheSearchsOrder() throws {
        let list: [Value] = try [#"{"t": 1, "s": "x"}"#, #"{"t": "two", "s": 2}"#, #"{"t": 3, "s": "y"}"#].map { try JSON.parse($0) }
        for source in [
            "sum([*].t)", "sum(map(&abs(s), [*]))", "sum([?abs(t)].s)", "group_by(@, &s) | keys(@)",
            "length(@) < `1` && sum([*].t)", "length(@) > `1` && sum([*].t)", "group_by([?s != `2`], &s).x | sum([*].t)",
            "from_items(items(group_by([?s != `2`], &s))[*].[[0], sum([1][*].s)])",
        ] {
            let expression = try JMESPathExpression(source)
            let fold = try XCTUnwrap(ListFold(expression), source)
            for v in list { fold.add(v) }
            let expected = outcome { () throws(JMESPathError) in try expression.search(Value.list(list)) }
            XCTAssertEqual(outcome { () throws(JMESPathError) in try fold.finish(Value.self) }, expected, source)
        }
    }
}
