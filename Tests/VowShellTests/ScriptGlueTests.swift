import Foundation
import TestSupport
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

    /// `reject --status N` ends a script with N, and is caught like any rejection; the twin too.
    func test_rejectCarriesAnExitStatus() throws {
        XCTAssertEqual(runVow("reject \"no config\" --status 4").status, 4)
        XCTAssertEqual(runVow("reject x --status 4 | catch echo fine").status, 0)
        let source = "resolve 1 | then reject x --status 5 | catch pick exitStatus\nresolve 1 | reject y --status 6"
        let vow = runVow(source)
        XCTAssertEqual(vow.out, "5\n")
        XCTAssertEqual(vow.status, 6)
        let path = NSTemporaryDirectory() + "vow-status-\(UUID().uuidString).js"
        try Runner.emitJavaScript(source, name: "t").output.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let node = try runCommand("node", [path])
        XCTAssertEqual(node.out, vow.out)
        XCTAssertEqual(node.status, 6)
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
        XCTAssertEqual(runVow("run printf 'x\\ny\\n' --stream | write \(path) --append | to-json").out, "2\n")
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

    /// `if COND THEN [else ELSE]`: one branch runs, chosen by COND's truthiness on the input.
    func test_if() {
        XCTAssertEqual(runVow("echo {ok: false} | if ok (echo yes) else (echo no)").out, "no\n")
        XCTAssertEqual(runVow("echo {ok: true} | if ok (echo yes) else (echo no)").out, "yes\n")
        XCTAssertEqual(runVow("echo 3 | if '@ > `10`' (format \"big {}\")").out, "3\n")
        // Only the branch chosen runs.
        XCTAssertEqual(runVow("echo 1 | if true (print then) else (print else) | then echo done").out, "then\ndone\n")
        // A group COND is a pipeline on the input.
        XCTAssertEqual(runVow("echo [1, 2] | if (len | pick '@ > `1`') many else one").out, "many\n")
        let bad = runVow("echo 1 | if ok (echo yes) otherwise (echo no)")
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("the third argument must be the word else"), bad.err)
    }

    /// `if` takes the twin's turns exactly: branches that are groups are adopted promises,
    /// interleaved with a plain chain as node interleaves them.
    func test_ifTakesTheTwinsTurns() throws {
        let source = """
            resolve 1 | if true (print a1) | then print a2 &
            resolve 1 | if '@ == `2`' (print x) else (print c1) | then print c2 &
            resolve 1 | if (resolve true) d1 else d0 | print | then print d2 &
            resolve 1 | then print b1 | then print b2 | then print b3 | then print b4 | then print b5 | then print b6 &
            """
        let path = NSTemporaryDirectory() + "vow-if-\(UUID().uuidString).js"
        try Runner.emitJavaScript(source, name: "t").output.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let node = try runCommand("node", [path]).out
        XCTAssertEqual(node, "a1\nc1\nb1\nb2\nb3\na2\nc2\nd1\nb4\nd2\nb5\nb6\n")
        XCTAssertEqual(runVow(source, javaScript: true).out, node)
        XCTAssertEqual(runVow(source).out, node)
    }

    /// `until` polls: the upstream runs again until COND holds, or gives up with kind timeout
    /// naming the attempts and the last value.
    func test_untilPollsAJob() throws {
        let server = try FixtureServer.start()
        defer { server.shutdown() }
        let vars: [String: Value] = ["b": .string(server.base)]
        let done = runVow(#"fetch "$b/job?key=one&after=1000" | json | until "status == 'done'" --every 200ms --timeout 5s | pick status"#, variables: vars)
        XCTAssertEqual(done.out, "done\n", done.err)
        XCTAssertGreaterThan(server.hits("/job"), 2)
        let gaveUp = runVow(#"fetch "$b/job?key=two&after=60000" | json | until "status == 'done'" --every 200ms --timeout 1s"#, variables: vars)
        XCTAssertEqual(gaveUp.status, 1)
        XCTAssertTrue(gaveUp.err.hasPrefix("error[timeout]: until: status == 'done' did not hold after "), gaveUp.err)
        XCTAssertTrue(gaveUp.err.contains(#""status":"running""#), gaveUp.err)
        // A rejection upstream ends the polling with it.
        let failed = runVow(#"fetch "$b/status/500" | until ok --every 10ms --max 5 | catch pick kind"#, variables: vars)
        XCTAssertEqual(failed.out, "http\n")
        XCTAssertEqual(server.hits("/status/500"), 1)
    }

    /// `ask`, `confirm` and `choose` read one line of standard input each, in the order asked,
    /// when it is not a terminal; the twin reads them with readline alike.
    func test_questionsReadLinesInOrder() throws {
        let source = """
            let n = ask Name
            ask Colour | format "${n} likes {}"
            confirm "Go on?" | assert @ | then choose Pick --from [red, green, blue]
            ask Missing --default none
            """
        let vow = try piped(REPLTests.binary, ["-c", source], input: "Ada\nblue\nyes\n2\n")
        XCTAssertEqual(vow.out, "Ada likes blue\ngreen\nnone\n")
        let path = NSTemporaryDirectory() + "vow-ask-\(UUID().uuidString).js"
        try Runner.emitJavaScript(source, name: "t").output.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try piped("/usr/bin/env", ["node", path], input: "Ada\nblue\nyes\n2\n").out, vow.out)
        // A standard input that ends rejects, naming the question; a wrong answer is an error.
        let ended = try piped(REPLTests.binary, ["-c", "ask Name"], input: "")
        XCTAssertEqual(ended.status, 1)
        XCTAssertTrue(ended.err.contains("ask: standard input ended before an answer to 'Name'"), ended.err)
        XCTAssertTrue(try piped(REPLTests.binary, ["-c", "confirm Sure"], input: "maybe\n").err.contains("answer yes or no"))
        XCTAssertTrue(try piped(REPLTests.binary, ["-c", "choose Pick --from [a, b]"], input: "c\n").err.contains("is not one of the 2 choices"))
    }

    /// `glob` lists the paths a pattern names, `**` included, sorted; the twin agrees.
    func test_glob() throws {
        let dir = NSTemporaryDirectory() + "vow-glob-\(UUID().uuidString)"
        for f in ["a/b/z.txt", "a/y.txt", "x.txt", "a/.hidden.txt", "a/b/w.md"] {
            let path = dir + "/" + f
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = "glob '\(dir)/**/*.txt' | to-json\nglob '\(dir)/a/*' | len\nglob '\(dir)/nothing*' | to-json"
        let r = runVow(source)
        XCTAssertEqual(r.out, "[\"\(dir)/a/b/z.txt\",\"\(dir)/a/y.txt\",\"\(dir)/x.txt\"]\n2\n[]\n", r.err)
        let path = NSTemporaryDirectory() + "vow-glob-\(UUID().uuidString).js"
        try Runner.emitJavaScript(source, name: "t").output.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try runCommand("node", [path]).out, r.out)
    }

    /// `quiet` ends a statement that prints nothing.
    func test_quiet() {
        XCTAssertEqual(runVow("echo 1 | quiet\necho done").out, "done\n")
        XCTAssertEqual(runVow("reject no | quiet").status, 1)
    }

    func piped(_ program: String, _ arguments: [String], input: String) throws -> (out: String, err: String, status: Int32) {
        try runWithInput(program, arguments, input: input)
    }

    /// `defer` runs its clean-up, last registered first, when the script ends: normally, on a
    /// rejection, and on SIGINT (status 130) or SIGTERM (status 143) in the middle of a wait.
    func test_deferCleansUpOnEveryEnding() throws {
        XCTAssertEqual(runVow("defer (print second)\ndefer (print first)\necho work").out, "work\nfirst\nsecond\n")
        let rejected = runVow("defer (print cleaned)\nreject boom")
        XCTAssertEqual(rejected.out, "cleaned\n")
        XCTAssertEqual(rejected.status, 1)
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let dir = NSTemporaryDirectory() + "vow-defer-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: REPLTests.binary)
            p.arguments = ["-c", "defer (run rm -rf \(dir))\nprint started\ndelay 10s"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Signalled once it has started its wait (its first line printed).
            _ = out.fileHandleForReading.availableData
            kill(p.processIdentifier, signal)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, status, "signal \(signal)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir), "signal \(signal): the clean-up did not run")
        }
    }

    /// `each --progress` draws done/total on a terminal's stderr and erases it; never in a pipe.
    func test_eachProgressOnATerminalOnly() throws {
        let source = "run seq 30 | lines | each (delay 40ms) --limit 2 --progress | len"
        let t = try PseudoTerminal(REPLTests.binary, ["-c", source])
        XCTAssertTrue(t.waitFor("30\n", timeout: 10), t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("each: "), t.plainOutput)
        XCTAssertTrue(t.plainOutput.range(of: #"each: [0-9]+/30 done, [0-9.]+/s"#, options: .regularExpression) != nil, t.plainOutput)
        // Erased at the end: the last erase comes after the last progress line.
        let lastLine = try XCTUnwrap(t.output.range(of: "each: ", options: .backwards))
        let lastErase = try XCTUnwrap(t.output.range(of: "\u{1B}[2K", options: .backwards))
        XCTAssertGreaterThan(lastErase.lowerBound, lastLine.lowerBound, "the line was not erased: \(t.output)")
        let piped = try self.piped(REPLTests.binary, ["-c", source], input: "")
        XCTAssertEqual(piped.out, "30\n")
        XCTAssertEqual(piped.err, "")
    }
}

/// Runs `program` with `arguments` and `input` on its standard input; stdout, stderr and status.
func runWithInput(_ program: String, _ arguments: [String], input: String) throws -> (out: String, err: String, status: Int32) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: program)
    p.arguments = arguments
    let (out, err, inp) = (Pipe(), Pipe(), Pipe())
    p.standardOutput = out
    p.standardError = err
    p.standardInput = inp
    try p.run()
    inp.fileHandleForWriting.write(Data(input.utf8))
    try inp.fileHandleForWriting.close()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self), p.terminationStatus)
}
