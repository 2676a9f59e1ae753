import XCTest

@testable import VowShell

/// `do (A) … STAGE…`: the words after the groups that begin with a stage's name are a stage run
/// in the same turn, so a handler can do something and then throw, as JavaScript's
/// `(e) => { log(e); throw y; }` does (examples/puzzles/throw-in-a-handler has the turns).
final class DoFinalStageTests: XCTestCase {
    /// A final stage that rejects at once is a throw: the chain rejects in the handler's turn.
    func test_aFinalStageThatRejectsIsAThrow() throws {
        let r = try assertTwinAgrees(#"reject a | catch do (print "logged {message}") reject again | catch format "caught {message}""#)
        XCTAssertEqual(r.out, "logged a\ncaught again\n")
    }

    /// Its value is the stage's value; a stage that waits gives its promise, which is adopted.
    func test_aFinalStagesValueOrPromiseIsTheValue() throws {
        XCTAssertEqual(try assertTwinAgrees(#"echo 1 | do (print started) format "{}!""#).out, "started\n1!\n")
        XCTAssertEqual(try assertTwinAgrees(#"echo 1 | do (print started) delay 1ms later"#).out, "started\nlater\n")
    }

    /// A word that names no stage is still the value, as before.
    func test_aWordThatNamesNoStageIsStillTheValue() throws {
        XCTAssertEqual(try assertTwinAgrees(#"echo 1 | do (print started) finished"#).out, "started\nfinished\n")
        XCTAssertEqual(try assertTwinAgrees(#"echo 1 | do (print started) null | to-json"#).out, "started\nnull\n")
    }

    /// The throw comes a turn before a returned rejected promise would reject, as in node.
    func test_theThrowIsTwoTurnsAheadOfAReturnedRejection() throws {
        let js = """
            Promise.reject(new Error("a")).catch((e) => { console.log("logged", e.message); throw new Error("thrown"); }).catch((e) => console.log("caught", e.message));
            Promise.reject(new Error("b")).catch((e) => { console.log("logged", e.message); return Promise.reject(new Error("returned")); }).catch((e) => console.log("caught", e.message));
            Promise.resolve().then(() => console.log(1)).then(() => console.log(2)).then(() => console.log(3)).then(() => console.log(4));
            """
        let node = try runNode(js).out
        let vow = """
            reject a | catch do (print "logged {message}") reject thrown | catch print "caught {message}" &
            reject b | catch do (print "logged {message}") (reject returned) | catch print "caught {message}" &
            resolve null | print 1 | print 2 | print 3 | print 4 &
            """
        XCTAssertEqual(node, "logged a\nlogged b\n1\ncaught thrown\n2\n3\ncaught returned\n4\n")
        XCTAssertEqual(runVow(vow, javaScript: true).out, node)
        XCTAssertEqual(try runTwin(vow).out, node)
    }
}
