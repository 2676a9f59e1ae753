import XCTest

@testable import VowShell

/// `thenable STAGE…`: an object with a `then` method that is no promise, rule by rule, each
/// program checked against node running the JavaScript a class would write and vow's own twin.
final class ThenableTests: XCTestCase {
    /// A chain resolved with a thenable calls its then one turn later and settles in that turn:
    /// one turn, where a returned promise costs two (node's order, and node's words).
    func test_itCostsOneTurnWhereAPromiseCostsTwo() throws {
        let js = """
            const thenable = { then(resolve) { console.log("then called"); resolve("thenable"); } };
            Promise.resolve().then(() => thenable).then((v) => console.log(v));
            Promise.resolve().then(() => Promise.resolve("promise")).then((v) => console.log(v));
            Promise.resolve().then(() => console.log("t1")).then(() => console.log("t2")).then(() => console.log("t3")).then(() => console.log("t4"));
            """
        let node = try runNode(js).out
        XCTAssertEqual(node, "t1\nthen called\nt2\nthenable\nt3\npromise\nt4\n")
        let vow = """
            resolve null | thenable do (print "then called") echo thenable | print &
            resolve null | then (resolve promise) | print &
            resolve null | print t1 | print t2 | print t3 | print t4 &
            """
        XCTAssertEqual(runVow(vow, javaScript: true).out, node)
        XCTAssertEqual(runVow(vow).out, node)
        XCTAssertEqual(try runTwin(vow).out, node)
    }

    /// First in a statement it is `Promise.resolve(thenable)`: its then is called in the next
    /// turn, even with nothing after it (a `let`).
    func test_firstInAStatementItsThenIsCalledNextTurn() throws {
        let js = """
            const t = Promise.resolve({ then(resolve) { console.log("then called"); resolve(1); } });
            Promise.resolve().then(() => console.log("t1")).then(() => console.log("t2"));
            """
        let node = try runNode(js).out
        XCTAssertEqual(node, "then called\nt1\nt2\n")
        let vow = "let t = thenable (print \"then called\")\nresolve null | print t1 | print t2 | quiet"
        XCTAssertEqual(runVow(vow, javaScript: true).out, node)
        XCTAssertEqual(try runTwin(vow).out, node)
    }

    /// Its then resolving with a value fulfils; a throw rejects (the stage named); a promise it
    /// resolves with is adopted; a thenable it resolves with is called in turn.
    func test_whatItsThenGivesSettlesTheChain() throws {
        XCTAssertEqual(try assertTwinAgrees("resolve 1 | thenable format \"{}!\"").out, "1!\n")
        let rejected = try assertTwinAgrees("resolve 1 | thenable reject no | catch pick '[message, stage]' | to-json")
        XCTAssertEqual(rejected.out, #"["no","thenable"]"# + "\n")
        XCTAssertEqual(try assertTwinAgrees("resolve 1 | thenable delay 5ms 3").out, "3\n")
        XCTAssertEqual(try assertTwinAgrees("resolve 1 | thenable thenable echo 9").out, "9\n")
        XCTAssertEqual(try assertTwinAgrees("reject x | catch thenable echo 7").out, "7\n")
        XCTAssertEqual(try assertTwinAgrees("echo [1, 2] | each thenable format \"e{}\" | to-json").out, #"["e1","e2"]"# + "\n")
    }

    /// The run record names the job: a `thenable` job whose target is the chain's promise, and
    /// `--turns` says what it does.
    func test_theTraceAndTheTurnsNameTheJob() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("thenable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("t.vow").path
        try "resolve 1 | thenable echo 42 | print \"got {}\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        let trace = dir.appendingPathComponent("t.jsonl").path
        let r = try runWithInput(REPLTests.binary, ["--trace", trace, script], input: "")
        XCTAssertEqual(r.status, 0, r.err)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains(#""kind":"thenable""#) }.count, 2, lines.joined(separator: "\n"))
        let turns = try runWithInput(REPLTests.binary, ["--turns", script], input: "")
        XCTAssertTrue(turns.out.contains("calls the then of the thenable it was resolved with (JavaScript's NewPromiseResolveThenableJob)"), turns.out)
        XCTAssertTrue(turns.out.contains("calls a thenable's then"), turns.out)
    }

    /// `tap thenable …` is refused before anything runs: JavaScript drops a tap handler's
    /// value unless it is a promise, so the then would never be called.
    func test_tapOfAThenableIsRefused() {
        let r = runVow("echo 1 | tap thenable print x")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("tap waits only for a promise, and a thenable is none"), r.err)
        XCTAssertEqual(r.out, "")
        XCTAssertEqual(runVow("echo 1 | tap (thenable print x)").out, "x\n1\n")
    }
}
