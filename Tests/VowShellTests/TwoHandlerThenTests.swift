import XCTest

@testable import VowShell

/// `then (A) (B)` is JavaScript's `.then(onFulfilled, onRejected)`, rule by rule, each program
/// checked against node running the JavaScript a class would write and vow's own twin.
final class TwoHandlerThenTests: XCTestCase {
    /// The first group runs on a fulfilment, with the value; the second does not.
    func test_aFulfilmentRunsTheFirstGroup() throws {
        let r = try assertTwinAgrees(#"resolve 2 | then (format "ok {}") (echo never)"#)
        XCTAssertEqual(r.out, "ok 2\n")
    }

    /// The second group runs on a rejection with the error as a record, and the chain recovers.
    func test_aRejectionRunsTheSecondGroupWithTheRecord() throws {
        let r = try assertTwinAgrees(#"reject boom | then (echo never) (pick '[kind, message, stage]') | to-json"#)
        XCTAssertEqual(r.out, #"["user","boom","reject"]"# + "\n")
        XCTAssertEqual(r.status, 0)
    }

    /// A rejection of the first group goes on down the chain past the second: not `| catch`.
    func test_theSecondGroupNeverSeesTheFirstGroupsRejection() throws {
        let r = try assertTwinAgrees(#"resolve 1 | then (reject inner) (echo never) | catch format "caught {message}""#)
        XCTAssertEqual(r.out, "caught inner\n")
        let unhandled = runVow(#"resolve 1 | then (reject inner) (echo never)"#)
        XCTAssertEqual(unhandled.status, 1)
        XCTAssertTrue(unhandled.err.contains("error[user]: inner"), unhandled.err)
    }

    /// One reaction, as in node: against a then + catch beside it, the two-handler form's
    /// rejection handler runs a turn sooner, and a chain's printed order is node's.
    func test_itIsOneReactionAsInNode() throws {
        let js = """
            Promise.reject(new Error("a")).then(async () => console.log("never"), async (e) => console.log("two handlers", e.message));
            Promise.reject(new Error("b")).then(async () => console.log("never")).catch(async (e) => console.log("then + catch", e.message));
            Promise.resolve().then(() => console.log("tick 1")).then(() => console.log("tick 2"));
            """
        let node = try runNode(js).out
        XCTAssertEqual(node, "two handlers a\ntick 1\nthen + catch b\ntick 2\n")
        let vow = """
            reject a | then (print never) (print "two handlers {message}") &
            reject b | then (print never) | catch (print "then + catch {message}") &
            resolve null | print "tick 1" | print "tick 2" &
            """
        XCTAssertEqual(runVow(vow, javaScript: true).out, node)
        XCTAssertEqual(try runTwin(vow).out, node)
    }

    /// A group followed by more arguments is refused before anything runs, where it used to
    /// drop what followed: `catch (A) (B)` ran A alone, `then (A) (B) (C)` A alone.
    func test_aGroupFollowedByMoreIsRefused() {
        let c = runVow(#"echo 1 | catch (print a) (print b)"#)
        XCTAssertEqual(c.status, 2)
        XCTAssertTrue(c.err.contains("catch takes one stage: a group `( … )` is the whole of it"), c.err)
        XCTAssertEqual(c.out, "")
        let t = runVow(#"echo 1 | then (print a) (print b) (print c)"#)
        XCTAssertEqual(t.status, 2)
        XCTAssertTrue(t.err.contains("then takes one stage, or two groups"), t.err)
        XCTAssertTrue(t.err.contains("^^^^^^^^^"), t.err)
    }

    /// `:explain` tells the form as one reaction with two handlers.
    func test_explainTellsOneReactionWithTwoHandlers() {
        let r = runVow(#":explain reject x | then (echo a) (echo b)"#)
        XCTAssertTrue(r.out.contains(".then(onFulfilled, onRejected)"), r.out)
        XCTAssertTrue(r.out.contains("Never both"), r.out)
    }
}
