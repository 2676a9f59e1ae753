import XCTest

@testable import JMESPath

/// What an expression that searches a list reads of each element (`elementDemand`), rule by
/// rule: fields reached are kept, values used are kept whole, and anything that may need an
/// element whole (or that the analysis does not follow) gives no demand.
final class ElementDemandTests: XCTestCase {
    /// The demand of `source` written as text: `-` for none, `name` for a field needed whole,
    /// `name{…}` for one read through the fields inside (`name{}`: only reached), keys sorted.
    func demand(_ source: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard let d = try JMESPathExpression(source).elementDemand else { return "-" }
        return written(d)
    }

    func written(_ d: JMESPathDemand) -> String {
        if d.whole { return "*" }
        return "{" + d.fields.keys.sorted().map { k in
            let below = d.fields[k]!
            return below.whole ? k : k + written(below)
        }.joined(separator: ",") + "}"
    }

    func test_aCountOfAFilterKeepsTheFieldsTheConditionReads() throws {
        XCTAssertEqual(try demand("length([?status == 'paid'])"), "{status}")
        XCTAssertEqual(try demand("{paid: length([?status == 'paid']), sent: length([?status == 'sent'])}"), "{status}")
        XCTAssertEqual(try demand("[?status == 'paid'] | length(@)"), "{status}")
        XCTAssertEqual(try demand("length(@)"), "{}")
    }

    func test_groupsKeepTheirKeysAndWhatIsSummed() throws {
        XCTAssertEqual(
            try demand("from_items(items(group_by(@, &status))[*].[[0], {n: length([1]), total: sum([1][*].total)}])"),
            "{status,total}")
        XCTAssertEqual(try demand("group_by(@, &s).paid | length(@)"), "{s}")
        XCTAssertEqual(try demand("keys(group_by(@, &s))"), "{s}")
        XCTAssertEqual(try demand("values(group_by(@, &s))[*][0].id"), "{id,s}")
    }

    func test_aPathIsKeptAsDeepAsItIsRead() throws {
        XCTAssertEqual(try demand("[*].customer.name"), "{customer{name}}")
        XCTAssertEqual(try demand("sum([*].a.b)"), "{a{b}}")
        XCTAssertEqual(try demand("max_by(@, &total).id"), "{id,total}")
        XCTAssertEqual(try demand("sort_by(@, &t)[-1].id"), "{id,t}")
        XCTAssertEqual(try demand("map(&a.b, @)"), "{a{b}}")
        XCTAssertEqual(try demand("[*].{x: a, y: b.c}"), "{a,b{c}}")
        XCTAssertEqual(try demand("reverse(@)[0:2].a"), "{a}")
        // `[0:2][*].a` applies `[*].a` to each element: a list of the element's own, read whole.
        XCTAssertEqual(try demand("reverse(@)[0:2][*].a"), "-")
    }

    func test_aFieldOnlyReachedIsKeptToTellNullFromMissing() throws {
        // `length([*].a)` counts the elements whose `a` is not null: `a` is kept, though no one reads it.
        XCTAssertEqual(try demand("length([*].a)"), "{a{}}")
        XCTAssertEqual(try demand("length([*].a.b)"), "{a{b{}}}")
        XCTAssertEqual(try demand("length([?a.b == `1`].c)"), "{a{b},c{}}")
    }

    func test_truthComparisonsAndFunctionsNeedTheirValuesWhole() throws {
        XCTAssertEqual(try demand("length([?meta])"), "{meta}")
        XCTAssertEqual(try demand("length([?meta.x || meta.y])"), "{meta{x,y}}")
        XCTAssertEqual(try demand("length([?contains(tags, 'x')])"), "{tags}")
        XCTAssertEqual(try demand("length([?a == b])"), "{a,b}")
        XCTAssertEqual(try demand("[*].length(a)"), "{a}")
        XCTAssertEqual(try demand("[*].a[0]"), "{a}")
        XCTAssertEqual(try demand("[*].a[*].b"), "{a}")
        // A key written twice: which of the two a field finds is the host's, so both are whole.
        XCTAssertEqual(try demand("[*].{k: a.x, k: b}.k"), "{a{x},b}")
    }

    func test_whatMayNeedAnElementWholeHasNoDemand() throws {
        for source in [
            "@", "[0]", "[?a == 'x']", "max_by(@, &t)", "sort_by(@, &t)", "group_by(@, &s)", "[*]", "[]", "map(&@, @)",
            "[?a] | [0]", "to_string(@)", "[*].keys(@)", "[*].length(@)", "length([?@])", "[*].to_array(@)",
            "from_items(items(group_by(@, &s)))", "[*].merge(@, `{}`)", "@ == @", "[*].[a, @]",
        ] {
            XCTAssertEqual(try demand(source), "-", source)
        }
    }

    func test_rootsVariablesAndUnknownReferencesHaveNoDemand() throws {
        XCTAssertEqual(try demand("[?a == $[0].a]"), "-")
        XCTAssertEqual(try demand("let $x = `1` in length([?a == $x])"), "-")
        XCTAssertEqual(try demand("[*].a | $"), "-")
    }
}
