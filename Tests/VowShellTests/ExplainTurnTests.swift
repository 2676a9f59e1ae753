// What :explain says of turns: adoption of a pending and of a settled promise, and the turn a
// skipped stage still costs; each checked against node running the same chain.
import XCTest

final class ExplainTurnTests: XCTestCase {
    func test_adoptionSaysPendingAndSettledApart() {
        let out = runVow(":explain resolve 1 | then (delay 1ms x)").out
        XCTAssertTrue(out.contains("one turn after it settles when it is still pending, two turns after it is returned when it has already settled"), out)
        XCTAssertFalse(out.contains("two turns after it (flattening)"), out)
    }

    func test_aSkippedStageStillCostsATurn() {
        let out = runVow(":explain reject x | then len | catch echo 0").out
        XCTAssertTrue(out.contains("a rejection of p1 skips it (the skip still takes a turn: p2 rejects with p1's error one turn after p1 rejects)"), out)
    }

    /// The rules the sentences state, as node runs them: a skipped then costs a turn (the
    /// catch behind it runs after an interleaved chain's second step), and adopting a settled
    /// promise costs two turns where a pending one settles one turn after it settles.
    func test_theRulesHoldInNode() throws {
        let skip = """
            Promise.reject(1).then((v) => v).catch(() => console.log("caught"));
            Promise.resolve().then(() => console.log("a")).then(() => console.log("b"));
            """
        XCTAssertEqual(try runNode(skip).out, "a\ncaught\nb\n")
        let settled = """
            Promise.resolve().then(() => Promise.resolve(1)).then(() => console.log("adopted"));
            Promise.resolve().then(() => console.log("1")).then(() => console.log("2")).then(() => console.log("3")).then(() => console.log("4"));
            """
        // Returned in turn 1, settled: the adopting promise settles in turn 3, its reaction runs in turn 4.
        XCTAssertEqual(try runNode(settled).out, "1\n2\n3\nadopted\n4\n")
        let pending = """
            let fire;
            const p = new Promise((r) => { fire = r; });
            Promise.resolve().then(() => p).then(() => console.log("adopted"));
            setTimeout(() => { fire(1); Promise.resolve().then(() => console.log("x")).then(() => console.log("y")).then(() => console.log("z")); }, 1);
            """
        // Pending when returned: the adopting promise settles one turn after it does, its reaction the turn after.
        XCTAssertEqual(try runNode(pending).out, "x\nadopted\ny\nz\n")
    }
}
