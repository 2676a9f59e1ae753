import Foundation
import TestSupport
import XCTest

@testable import VowRuntime
@testable import VowShell
import VowValue

/// What new users tripped on, each against the fixture server: errors that show what the server
/// said, results that say when they are not whole, the response as data, binary output.
final class PaperCutTests: ServerTestCase {
    /// A 4xx/5xx shows the start of the body the server sent, as curl --fail-with-body does.
    func test_anHTTPErrorShowsItsBody() {
        let r = vow("fetch $base/status/400")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains(#"= body: {"error":"#), r.err)
        XCTAssertTrue(r.err.contains(#""status":400"#), r.err)
    }

    /// Stopping at --max-pages while a next page exists is said on stderr; a walk that ended by
    /// itself says nothing.
    func test_paginateSaysWhenItStoppedAtItsCap() {
        let capped = vow("paginate $base/pages/1 --items 'items[].id' --max-pages 2 | len")
        XCTAssertEqual(capped.out, "6\n", capped.err)
        XCTAssertTrue(capped.err.contains("warning: paginate stopped at --max-pages 2 (6 items) while a next page was there"), capped.err)
        let whole = vow("paginate $base/pages/1 --items 'items[].id' | len")
        XCTAssertEqual(whole.out, "9\n", whole.err)
        XCTAssertEqual(whole.err, "")
    }

    /// `pick` on a body that is not JSON rejects, naming the content type, instead of null.
    func test_pickOnABodyThatIsNotJSONRejects() {
        let r = vow("fetch $base/invalid-json | pick name")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[json]: pick: the body is not JSON (Content-Type: application/json); it starts: "), r.err)
        XCTAssertEqual(vow("fetch $base/invalid-json | pick name | catch pick kind").out, "json\n")
    }

    /// `retry` and `timeout` ran: they are not listed as skipped, and the error says how many
    /// attempts were made.
    func test_retryIsNotSkippedAndCountsItsAttempts() {
        let r = vow("sim --fail 1.0 --seed 3 x | retry 2 --delay 10ms | timeout 5s")
        XCTAssertEqual(r.status, 1)
        XCTAssertFalse(r.err.contains("skipped"), r.err)
        XCTAssertTrue(r.err.contains("after 3 attempts in "), r.err)
        XCTAssertEqual(vow("sim --fail 1.0 --seed 3 x | retry 2 | catch pick attempts").out, "3\n")
    }

    /// `each` leaves the message as the user wrote it; the element is a field of its own.
    func test_eachKeepsTheMessage() {
        XCTAssertEqual(vow("echo [1] | each reject stop | catch pick '[message, element]' | to-json").out, #"["stop",1]"# + "\n")
        let r = vow("echo [1, 2] | each (then reject stop)")
        XCTAssertTrue(r.err.hasPrefix("error[user]: stop\n"), r.err)
        XCTAssertTrue(r.err.contains("= in: element 1 of each"), r.err)
    }

    /// A rejected `let` that nothing reads is reported at the end and fails the script.
    func test_anUnobservedRejectionFailsTheScript() {
        let r = vow("let p = reject late\necho done")
        XCTAssertEqual(r.out, "done\n")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("unhandled rejection: the promise of `let p` (<test>:1) rejected and nothing waited for it"), r.err)
        let seen = vow("let p = reject late\n$p | catch echo handled")
        XCTAssertEqual(seen.status, 0, seen.err)
        XCTAssertEqual(seen.err, "")
    }

    /// The response's status, timings and headers, read with `response`.
    func test_theResponseAsData() {
        let r = vow("fetch $base/user.json | response | pick '[status, url == `\"\(base)/user.json\"`, firstByte <= elapsed, size]' | to-json")
        XCTAssertEqual(r.out, "[200,true,true,46]\n", r.err)  // the 46 bytes of user.json
    }

    /// `--json @PATH` sends the JSON in a file; a file that is not JSON is an error naming it.
    func test_jsonReadsAFile() throws {
        let path = NSTemporaryDirectory() + "vow-body-\(UUID().uuidString).json"
        try #"{"a": [1, 2]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(vow("post $base/echo --json @\(path) | json | pick bodyText").out, #"{"a":[1,2]}"# + "\n")
        try "not json".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertTrue(vow("post $base/echo --json @\(path)").err.contains("the file is not JSON"))
    }

    /// `--verbose` shows the Content-Length the client adds.
    func test_verboseShowsWhatWasSent() {
        let r = vow("post $base/echo --json {a: 1} --verbose")
        XCTAssertTrue(r.err.contains("> Content-Length: 7"), r.err)
    }

    /// A binary body printed to a pipe is its bytes, as `curl -o -` writes them.
    func test_aBinaryBodyGoesToAPipeAsBytes() throws {
        let vowBytes = try output(REPLTests.binary, ["-c", "fetch \(base)/invalid-utf8"])
        let curlBytes = try output("/usr/bin/env", ["curl", "-s", "\(base)/invalid-utf8"])
        XCTAssertFalse(vowBytes.isEmpty)
        XCTAssertEqual(vowBytes, curlBytes)
    }

    /// `:quit` in a script is a syntax error found before anything runs.
    func test_replOnlyMetaCommandsAreSyntaxErrorsInAScript() {
        let r = vow("echo 1\n:quit\necho 2")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.out, "")
        XCTAssertTrue(r.err.contains(":quit works in the REPL only"), r.err)
        XCTAssertTrue(vow(":nope").err.contains("unknown meta-command :nope"))
    }

    /// The emitted twin reads `$1` from its command line, as vow does.
    func test_theTwinReadsItsArguments() throws {
        let twin = Runner.emitJavaScript(#"echo "hi $1 and $2""#, name: "t").output
        let path = NSTemporaryDirectory() + "vow-twin-\(UUID().uuidString).js"
        try twin.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try runCommand("node", [path, "Ada", "Bob"]).out, "hi Ada and Bob\n")
    }

    /// `:vars` shows each variable on one line, a long value shortened with its size.
    func test_varsShortensLongValues() {
        var options = SessionOptions()
        options.variables = [:]
        let session = Session(output: OutputSink { _ in }, diagnostics: OutputSink { _ in }, options: options)
        defer { session.http.shutdown() }
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
        XCTAssertEqual(runner.run("let big = run seq 5000 | lines\n$big | len", name: "<test>"), 0)
        let vars = session.onExecutor { session.variableSummaries() }
        let line = try? XCTUnwrap(vars.first { $0.name == "big" }).summary
        XCTAssertLessThan(line?.count ?? 1000, 160, line ?? "")
        XCTAssertTrue(line?.hasSuffix("(5000 items)") ?? false, line ?? "")
    }

    /// Standard output of `program` run with `arguments`.
    func output(_ program: String, _ arguments: [String]) throws -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Array(data)
    }
}
