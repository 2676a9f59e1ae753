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
        let node = try runTwin(program, name: "expressions")
        XCTAssertEqual(node.out, vow.out)
    }

    func test_theVariablesAnExpressionNames() {
        XCTAssertEqual(ExpressionVariables.names(in: "items[?id == $id && $b] | $"), ["id", "b"])
        XCTAssertEqual(ExpressionVariables.names(in: "'$raw' == `\"$lit\"` || \"$quoted\" == $real"), ["real"])
        XCTAssertEqual(ExpressionVariables.bound("a", [("x", .int(1))]), "let $x = `1` in (a)")
        XCTAssertEqual(ExpressionVariables.bound("a", [("t", .string("`"))]), #"let $t = `"\`"` in (a)"#)
    }

    /// An expression stage given more words than one refuses before anything runs (status 2),
    /// with the expression to write quoted: a newcomer's `where age > 30` never returns every row.
    func test_extraWordsAreAnErrorNotDropped() {
        let r = runVow("echo [{age: 20}, {age: 40}] | where age > 30")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.out, "")
        XCTAssertTrue(r.err.contains("where takes one argument, given 3: nothing ran; quote the expression: where 'age > `30`'"), r.err)
        let pick = runVow("run touch /tmp/vow-never-\(getpid())\necho {a: 1} | pick a extra")
        XCTAssertEqual(pick.status, 2)
        XCTAssertTrue(pick.err.contains("pick takes one argument, given 2"), pick.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/vow-never-\(getpid())"), "a statement before it ran")
        XCTAssertEqual(runVow("echo [{age: 20}, {age: 40}] | where \"age > `30`\" | len").out, "1\n")
    }

    /// HTTPie's request items after a URL are refused before anything is sent, with the flag to
    /// write; no request goes out with an empty body.
    func test_requestItemsAreRefusedWithTheFlagToWrite() {
        let r = runVow("post http://127.0.0.1:9/echo name=ada n:=1")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("post takes one argument, given 3: nothing ran; a body is a flag: --json {name: ada, n: 1}"), r.err)
        XCTAssertEqual(runVow("fetch http://127.0.0.1:9/ extra").status, 2)
    }
}
