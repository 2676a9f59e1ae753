// Arguments read as expressions: never templates, and vow's variables bound in them, in vow and
// in the twin alike.
import XCTest

@testable import VowRuntime
@testable import VowShell

final class ExpressionArgumentTests: XCTestCase {
    let program = """
        let id = echo 7
        let later = delay 10ms 8
        let items = echo [{id: 7, n: a}, {id: 8, n: b}]
        $items | pick "[?id == $id].n" | to-json
        echo {items: [{id: 7, n: a}, {id: 8, n: b}]} | pick "items[?id == $id].n" | to-json
        echo {items: [{id: 7, n: a}, {id: 8, n: b}]} | pick 'items[?id == $later].n' | to-json
        echo [{id: 7}, {id: 8}] | where "id == $id" | to-json
        echo {id: 7} | if "id == $id" same else different
        echo {id: 1} | pick "{x: id}" | to-json
        echo {id: 1} | pick 'let $id = `2` in {x: $id}' | to-json
        echo {s: a} | assert "s == 'a'" | pick s
        """

    func test_expressionsAreWrittenAsTheyReadAndSeeVowsVariables() {
        let r = runVow(program)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out, """
            ["a"]
            ["a"]
            ["b"]
            [{"id":7}]
            same
            {"x":1}
            {"x":2}
            a

            """)
    }

    func test_theTwinBindsTheSameVariables() throws {
        let vow = runVow(program, javaScript: true)
        let node = try runNode(Runner.emitJavaScript(program, name: "expressions").output)
        XCTAssertEqual(node.out, vow.out)
    }

    func test_theVariablesAnExpressionNames() {
        XCTAssertEqual(ExpressionVariables.names(in: "items[?id == $id && $b] | $"), ["id", "b"])
        XCTAssertEqual(ExpressionVariables.names(in: "'$raw' == `\"$lit\"` || \"$quoted\" == $real"), ["real"])
        XCTAssertEqual(ExpressionVariables.bound("a", [("x", .int(1))]), "let $x = `1` in (a)")
        XCTAssertEqual(ExpressionVariables.bound("a", [("t", .string("`"))]), #"let $t = `"\`"` in (a)"#)
    }
}
