// `async def`, `await`, `promise` and `do`: the forms of JavaScript's async functions, executors
// and handler bodies, rule by rule, each checked against node running the same program.
import Foundation
import XCTest

@testable import VowShell

final class AsyncDefTests: XCTestCase {
    /// vow in JavaScript mode, and node on vow's twin, print the same.
    func agree(_ source: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let vow = runVow(source, javaScript: true)
        XCTAssertEqual(vow.out, expected, vow.err, file: file, line: line)
        let node = try runTwin(source)
        XCTAssertEqual(node.out, expected, file: file, line: line)
    }

    /// Stages before the first await run in the caller's turn, one after another.
    func test_stagesBeforeAnAwaitRunAtOnce() throws {
        try agree("async def f() = print a | print b | await null | print c\nf &\nprint sync &", "a\nb\nsync\nc\n")
    }

    /// `await` of a settled promise takes one turn (the reaction queued at the call runs first);
    /// of a pending one, one turn after it settles.
    func test_awaitTakesOneTurnAfterWhatItAwaitsSettles() throws {
        try agree(
            "let p = resolve 1\nasync def f() = await $p | print awaited\nf &\nresolve null | print t1 | print t2 &",
            "awaited\nt1\nt2\n")
        try agree(
            "async def f() = await delay 5ms | print late\nf &\nresolve null | print t1 &",
            "t1\nlate\n")
    }

    /// The value of the last stage is the result; a rejection at an await rejects it.
    func test_theLastValueIsTheResultAndARejectionRejectsIt() throws {
        try agree("async def f(x) = format \"<{}>\" | await (format \"[{}]\") | format \"{}!\"\necho 1 | f 0", "[<1>]!\n")
        let r = runVow("async def f() = print a | await (reject boom) | print never\nf | catch echo \"caught {message}\"", javaScript: true)
        XCTAssertEqual(r.out, "a\ncaught boom\n", r.err)
    }

    /// A stage that waits where nothing awaits it is refused, by name, in vow and in the twin.
    func test_aWaitingStageNotAwaitedIsRefusedByName() throws {
        let source = "async def f() = delay 5ms | print x\nf | catch echo \"{message}\""
        let message = "in async def f, 'delay 5ms' waits: write 'await delay 5ms' to wait for it, or make it the last stage to return its promise\n"
        XCTAssertEqual(runVow(source).out, message)
        XCTAssertEqual(try runTwin(source).out, message)
    }

    /// `async` must be followed by `def`.
    func test_asyncWithoutDefIsASyntaxError() {
        let r = runVow("async f() = echo 1")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("expected 'def' after 'async'"), r.err)
    }

    /// `promise` runs its executor at once and adopts a promise it resolves with.
    func test_promiseRunsItsExecutorAtOnce() throws {
        try agree("promise (print executor) 1 | print then &\nprint after &", "executor\nafter\nthen\n")
    }

    /// `do` starts its statements and returns the last: a plain value takes no turn.
    func test_doReturnsItsLastArgument() throws {
        try agree("resolve null | then do (print s1) (print s2) null | print next &\nresolve null | print other &", "s1\ns2\nother\nnext\n")
    }

    /// `catch` and `finally` inside an async def are JavaScript's try/catch/finally around the
    /// steps before them: vow, its twin and the JavaScript a class writes agree, turn for turn.
    func test_catchAndFinallyInAnAsyncDefAreTryCatchFinally() throws {
        let program = """
            async def f() = reject x | catch echo c
            f
            async def g() = echo 1 | catch echo c
            g
            async def h() = await delay 5ms | reject boom | print never | catch (pick message) | format "caught {}"
            h
            async def k() = print start | await (reject late) | catch pick kind
            k
            async def m() = reject inner | finally print cleanup
            m | catch pick message
            """
        let r = try assertTwinAgrees(program)
        XCTAssertEqual(r.out, "c\n1\ncaught boom\nstart\nuser\ncleanup\ninner\n", r.err)
        // `return await` inside try: the rejection is caught, in the turn node takes.
        let vow = "async def f() = await (reject x) | catch echo c\nf | print &\nresolve 0 | print a | print b | print d &"
        let js = """
            async function f() { try { await Promise.reject(new Error("x")); } catch (e) { return "c"; } }
            f().then((v) => console.log(v));
            Promise.resolve(0).then(() => console.log("a")).then(() => console.log("b")).then(() => console.log("d"));
            """
        let node = try runNode(js).out
        XCTAssertEqual(node, "a\nc\nb\nd\n")
        XCTAssertEqual(runVow(vow, javaScript: true).out, node)
        XCTAssertEqual(try runTwin(vow).out, node)
        // exit passes through a catch, as everywhere.
        XCTAssertEqual(runVow("async def e() = exit 3 gone | catch echo never\ne").status, 3)
    }
}
