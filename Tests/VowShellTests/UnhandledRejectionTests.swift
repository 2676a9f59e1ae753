import Foundation
import XCTest

@testable import VowShell

/// Unhandled rejections, rule by rule: a `let` promise that rejects with nothing waiting on it
/// once the jobs that were ready have run (node's check after a drain of the microtask queue).
final class UnhandledRejectionTests: XCTestCase {
    /// Runs a JavaScript program with node: stdout, stderr and the exit status.
    func node(_ program: String) throws -> (out: String, err: String, status: Int32) {
        let path = NSTemporaryDirectory() + "vow-unhandled-\(UUID().uuidString).js"
        try program.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["node", path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self), p.terminationStatus)
    }

    /// node's report without its arrow (the place in node's own sources) and its version line.
    func reason(ofNodeReport err: String) -> String {
        var lines = err.components(separatedBy: "\n")
        if let caret = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "^" }) { lines.removeFirst(caret + 1) }
        return lines.filter { !$0.isEmpty && !$0.hasPrefix("Node.js v") }.joined(separator: "\n")
    }

    /// The acceptance case: JavaScript mode prints node's report after what was printed before,
    /// and the status is 1.
    func test_javaScriptModeReportsAsNodeDoes() {
        let r = runVow("let p = reject late; echo done", javaScript: true)
        XCTAssertEqual(r.out, "done\n")
        XCTAssertEqual(r.err, "\n<test>:1\nlet p = reject late\n^\n{ kind: 'user', message: 'late' }\n")
        XCTAssertEqual(r.status, 1)
    }

    /// node, running the twin, prints the same reason and ends with status 1.
    func test_nodeAgreesOnTheTwin() throws {
        for (src, expected) in [
            ("let p = reject late; echo done", "{ kind: 'user', message: 'late' }"),
            ("let p = reject {message: \"it's\", code: 3}", "{ kind: 'user', message: \"it's\", code: 3 }"),
            ("let p = any [reject a, reject b]",
             "[AggregateError: All promises were rejected] {\n  [errors]: [ { kind: 'user', message: 'a' }, { kind: 'user', message: 'b' } ]\n}"),
            // An any over an any: node shows the inner AggregateError as the outer one.
            ("let p = any [any [reject e10, delay 10ms | reject e11] | print p12]",
             "[AggregateError: All promises were rejected] {\n  [errors]: [\n    [AggregateError: All promises were rejected] {\n      [errors]: [\n"
                + "        { kind: 'user', message: 'e10' },\n        { kind: 'user', message: 'e11' }\n      ]\n    }\n  ]\n}"),
            // Deeper than node's report inspects (depth 5): the name in brackets.
            ("let p = any [any [any [any [any [reject k]]]]]",
             "[AggregateError: All promises were rejected] {\n  [errors]: [\n    [AggregateError: All promises were rejected] {\n      [errors]: [\n"
                + "        [AggregateError: All promises were rejected] {\n          [errors]: [ [AggregateError] ]\n        }\n      ]\n    }\n  ]\n}"),
        ] {
            let twin = try node(Runner.emitJavaScript(src, name: "t").output)
            let vow = runVow(src, javaScript: true)
            XCTAssertEqual(twin.out, vow.out, src)
            XCTAssertEqual(twin.status, 1, src)
            XCTAssertEqual(vow.status, 1, src)
            XCTAssertEqual(reason(ofNodeReport: twin.err), expected, twin.err)
            XCTAssertEqual(reason(ofNodeReport: vow.err), expected, vow.err)
        }
    }

    /// The script ends in the drain where the rejection is found: nothing after it runs.
    func test_javaScriptModeEndsAtOnce() throws {
        let src = "let p = delay 10ms | reject x\ndelay 60ms y\necho never"
        let r = runVow(src, javaScript: true)
        XCTAssertEqual(r.out, "")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasSuffix("{ kind: 'user', message: 'x' }\n"), r.err)
        let twin = try node(Runner.emitJavaScript(src, name: "t").output)
        XCTAssertEqual(twin.out, "")
        XCTAssertEqual(twin.status, 1)
    }

    /// A handler attached in the same drain, by a later statement, means nothing is reported.
    func test_handledInTheSameDrainIsNotReported() throws {
        for js in [true, false] {
            let r = runVow("let p = reject late\necho 1\n$p | catch echo handled", javaScript: js)
            XCTAssertEqual(r.out, "1\nhandled\n")
            XCTAssertEqual(r.err, "")
            XCTAssertEqual(r.status, 0)
        }
        let twin = try node(Runner.emitJavaScript("let p = reject late\necho 1\n$p | catch echo handled", name: "t").output)
        XCTAssertEqual(twin.out, "1\nhandled\n")
        XCTAssertEqual(twin.status, 0)
    }

    /// `let q = $p` is `const q = p`: the same promise, with nothing waiting on it, so its
    /// rejection is still unhandled (a name read alone waits for nothing).
    func test_aLetOfAnotherLetHandlesNothing() throws {
        let src = "let p = reject late\nlet q = $p\necho 87"
        let twin = try node(Runner.emitJavaScript(src, name: "t").output)
        for js in [true, false] {
            let r = runVow(src, javaScript: js)
            XCTAssertEqual(r.out, "87\n")
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.err.contains("late"), r.err)
        }
        XCTAssertEqual(twin.out, "87\n")
        XCTAssertEqual(twin.status, 1)
    }

    /// vow's mode: a statement still to come that reads the name handles it, even after the
    /// drain in which it rejected.
    func test_vowModeWaitsForALaterReader() {
        let r = runVow("let p = delay 10ms | reject x\ndelay 40ms y\n$p | catch echo ok")
        XCTAssertEqual(r.out, "y\nok\n")
        XCTAssertEqual(r.err, "")
        XCTAssertEqual(r.status, 0)
    }

    /// vow's mode reports it in its error style at once, goes on, and fails at the end.
    func test_vowModeReportsAndGoesOn() {
        let r = runVow("let p = reject late\ndelay 20ms | echo after")
        XCTAssertEqual(r.out, "after\n")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("unhandled rejection: the promise of `let p` (<test>:1) rejected and nothing waited for it\nerror[user]: late\n"), r.err)
        XCTAssertTrue(r.err.contains("^^^^^^^^^^^ rejected here"), r.err)
        // A later reader that never comes (no statement reads it): reported once, at the end.
        let read = runVow("let p = delay 10ms | reject x\nreject stop\n$p | catch echo ok")
        XCTAssertEqual(read.status, 1)
        XCTAssertFalse(read.err.contains("unhandled rejection"), read.err)
    }

    /// Cancelled promises are not rejections nobody saw: race losers, what timeout gave up on.
    func test_cancelledPromisesAreNotReported() {
        for src in [
            "let p = race [delay 10ms a, delay 30ms | reject x]\n$p",
            "let q = delay 1s | reject x | timeout 10ms | catch echo t\n$q",
            "let r = all [reject a, delay 30ms | reject b] | catch echo c\n$r",
            "let s = delay 1s x\ndelay 10ms | echo go",
        ] {
            let r = runVow(src)
            XCTAssertFalse(r.err.contains("unhandled"), src + ": " + r.err)
            XCTAssertEqual(r.status, 0, src + ": " + r.err)
        }
    }

    /// Statement results and background jobs are handled by definition.
    func test_jobsAndStatementsAreHandled() {
        let r = runVow("reject bg &\necho 1", javaScript: true)
        XCTAssertEqual(r.out, "1\n")
        XCTAssertFalse(r.err.contains("kind:"), r.err)
        XCTAssertEqual(r.status, 1)
    }

    /// A statement of `do` that rejects is work nobody waits for: reported in both modes, and
    /// node agrees on the twin.
    func test_aRejectionInAHandlersWorkIsReported() throws {
        let src = "echo 1 | do (reject inner) (print outer) null"
        let vow = runVow(src)
        // `do`'s null is nothing a program prints.
        XCTAssertEqual(vow.out, "outer\n")
        XCTAssertEqual(vow.status, 1)
        XCTAssertTrue(vow.err.hasPrefix("unhandled rejection: the promise of statement 1 of `do` (<test>:1)"), vow.err)
        let js = runVow(src, javaScript: true)
        let twin = try node(Runner.emitJavaScript(src, name: "t").output)
        XCTAssertEqual(js.out, twin.out)
        XCTAssertEqual(js.status, 1)
        XCTAssertEqual(twin.status, 1)
        XCTAssertEqual(reason(ofNodeReport: js.err), reason(ofNodeReport: twin.err))
        let waited = runVow("echo 1 | do (reject inner | catch echo c) (print outer) null")
        XCTAssertEqual(waited.status, 0, waited.err)
    }
}
