import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell
import VowValue

/// The ordinary glue of scripts: assertions, ending with a status and a message, messages on
/// stderr, appending to files, commands that print nothing; each against its JavaScript twin too.
final class ScriptGlueTests: XCTestCase {
    /// `exit 3 "bad input"`: the message on stderr as written, status 3, nothing else; `catch`
    /// does not stop it and no later statement runs.
    func test_exitEndsTheScriptWithItsStatusAndMessage() {
        let r = runVow("echo 1\nexit 3 \"bad input\" | catch echo caught\necho never")
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(r.out, "1\n")
        XCTAssertEqual(r.err, "bad input\n")
        let quiet = runVow("exit")
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.err, "")
        XCTAssertTrue(runVow("exit 300").err.contains("STATUS must be 0 to 255"))
    }

    /// `reject --status N` ends a script with N, and is caught like any rejection.
    func test_rejectCarriesAnExitStatus() {
        XCTAssertEqual(runVow("reject \"no config\" --status 4").status, 4)
        XCTAssertEqual(runVow("reject x --status 4 | catch echo fine").status, 0)
    }

    /// `assert` passes the input on, or rejects with kind assert, the message and the value.
    func test_assert() {
        XCTAssertEqual(runVow("echo 5 | assert '@ > `1`' | then format \"ok {}\"").out, "ok 5\n")
        let r = runVow("echo 5 | assert '@ > `10`' \"too small\"")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.hasPrefix("error[assert]: too small"), r.err)
        // JMESPath's truthiness: 0 is true; "", [], {} and null are false.
        XCTAssertEqual(runVow("echo {n: 0} | assert n | pick n").out, "0\n")
        for falsy in ["\"\"", "[]", "{}", "null", "false"] {
            XCTAssertEqual(runVow("echo {v: \(falsy)} | assert v | catch pick kind").out, "assert\n", falsy)
        }
    }

    /// `print --stderr` writes to stderr; `--no-newline` adds no line break; a statement whose
    /// value is the empty string (`run true`) prints nothing.
    func test_outputControl() {
        let r = runVow("echo 2 | print \"working on {}\" --stderr | then format \"result {}\"")
        XCTAssertEqual(r.out, "result 2\n")
        XCTAssertEqual(r.err, "working on 2\n")
        XCTAssertEqual(runVow("print \"a \" --no-newline | then print b | then echo done").out, "a b\ndone\n")
        XCTAssertEqual(runVow("run true").out, "")
        XCTAssertEqual(runVow("echo \"\"").out, "")
    }

    /// `write --append` adds to the end of a file, a stream line by line.
    func test_writeAppends() throws {
        let path = NSTemporaryDirectory() + "vow-append-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(runVow("echo one | write \(path) --append").status, 0)
        XCTAssertEqual(runVow("echo {n: 2} | write \(path) --append").status, 0)
        XCTAssertEqual(runVow("run printf 'x\\ny\\n' --stream | write \(path) --append").out, "2\n")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "one\n{\"n\":2}\nx\ny\n")
    }

    /// The twin of these stages prints, writes to stderr and exits as vow does.
    func test_theTwinAgrees() throws {
        let source = """
            echo 5 | assert '@ > `1`' | then format "ok {}"
            echo {ok: false} | assert ok | catch pick '[kind, message]' | to-json
            print "a " --no-newline | then print b | then print c --stderr
            run true
            exit 3 "bad input"
            echo never
            """
        let vow = runVow(source)
        let path = NSTemporaryDirectory() + "vow-glue-\(UUID().uuidString).js"
        try Runner.emitJavaScript(source, name: "t").output.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let node = try runCommand("node", [path])
        XCTAssertEqual(node.out, vow.out)
        XCTAssertEqual(node.status, vow.status)
        XCTAssertEqual(vow.status, 3)
    }
}
