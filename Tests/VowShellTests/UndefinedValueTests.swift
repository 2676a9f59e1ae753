import XCTest

@testable import VowShell

/// `undefined`, apart from null: what a handler that returns nothing gives, checked against node
/// and vow's own twin.
final class UndefinedValueTests: XCTestCase {
    /// `catch do (print …) undefined` is `.catch((e) => { console.log(…); })`: the next handler
    /// gets undefined, as node's does.
    func test_aHandlerThatReturnsNothingGivesUndefined() throws {
        let js = """
            Promise.reject(new Error("oops")).catch((e) => { console.log(`caught ${e.message}`); }).then((v) => console.log(`next ${v}`));
            """
        let node = try runNode(js).out
        XCTAssertEqual(node, "caught oops\nnext undefined\n")
        let vow = #"reject oops | catch do (print "caught {message}") undefined | print "next {}" | quiet"#
        XCTAssertEqual(runVow(vow).out, node)
        XCTAssertEqual(try runTwin(vow).out, node)
    }

    /// On its own it prints `undefined`; as JSON a record leaves its key out and a list has null
    /// (JSON.stringify's rules); a search reads it as null; it is falsy; it is not null.
    func test_itPrintsAndWritesAsJavaScriptDoes() throws {
        XCTAssertEqual(try assertTwinAgrees("echo undefined").out, "undefined\n")
        XCTAssertEqual(try assertTwinAgrees("echo [1, undefined] | to-json").out, "[1,null]\n")
        XCTAssertEqual(try assertTwinAgrees("echo {a: 1, b: undefined} | to-json").out, #"{"a":1}"# + "\n")
        XCTAssertEqual(try assertTwinAgrees("echo undefined | format \"is {}\"").out, "is undefined\n")
        XCTAssertEqual(try assertTwinAgrees("resolve undefined | if '@' (echo truthy) else (echo falsy)").out, "falsy\n")
        XCTAssertEqual(runVow("echo undefined | pick a").out, "null\n")
        XCTAssertEqual(runVow("echo undefined | pick 'type(@)'").out, "null\n")
        XCTAssertEqual(runVow("echo [undefined, null] | pick '[0] == [1]'").out, "true\n")
    }
}
