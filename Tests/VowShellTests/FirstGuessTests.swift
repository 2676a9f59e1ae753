import Foundation
import TestSupport
import XCTest

@testable import VowRuntime
@testable import VowShell

/// A newcomer's first guesses, written as curl, jq, bash or JavaScript would take them, give
/// the right answer or an error that names the vow form; never a wrong answer with status 0.
/// Each twin is run by node and agrees.
final class FirstGuessTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "vow-first-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try #"[{"name": "ada", "age": 36}, {"name": "bob", "age": 25}]"#.write(toFile: dir + "/users.json", atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Text that holds JSON (a file, stdin) is searched as JSON by `pick` and `where`, as a
    /// response is; other text that a search finds nothing in is an error, not null.
    func test_pickAndWhereReadJSONText() throws {
        XCTAssertEqual(try assertTwinAgrees("read \(dir)/users.json | pick '[0].name'").out, "ada\n")
        XCTAssertEqual(try assertTwinAgrees("read \(dir)/users.json | where 'age > `30`' | pick '[*].name' | to-json").out, #"["ada"]"# + "\n")
        XCTAssertEqual(try assertTwinAgrees(#"echo ['{"n": 1}', '{"n": 5}', 'not json'] | where 'n > `2`' | to-json"#).out, #"["{\"n\": 5}"]"# + "\n")
        let text = try assertTwinAgrees("echo 'hello world' | pick name")
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.err.contains(#"pick: 'name' finds nothing in text: the input is text, not JSON (it starts "hello world"); `| json` reads JSON text"#), text.err)
        XCTAssertEqual(try assertTwinAgrees("echo hello | pick 'length(@)'").out, "5\n", "a string is still searched as one")
        let whereText = try assertTwinAgrees("echo 'a b' | where a")
        XCTAssertEqual(whereText.status, 1)
        XCTAssertTrue(whereText.err.contains("where: expected a list or a stream, got text"), whereText.err)
        let piped = try runWithInput(REPLTests.binary, ["-c", "stdin | pick a"], input: #"{"a": 7}"#)
        XCTAssertEqual(piped.out, "7\n", piped.err)
    }

    /// `--json` given quoted JSON text sends one JSON string, as it says; a warning shows the
    /// unquoted form that sends the object.
    func test_quotedJSONGivenToJsonIsWarnedOf() throws {
        let r = runVow(#"post http://127.0.0.1:9/x --json '{"name":"ada"}' --curl"#)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains(#"warning: post: --json was given text that holds a JSON object, and sends it as one JSON string; to send the object, write it unquoted: --json {"name":"ada"}"#), r.err)
        XCTAssertTrue(r.out.contains(#"--data-binary '"{\"name\":\"ada\"}"'"#), r.out)
        let record = runVow("post http://127.0.0.1:9/x --json {name: ada} --curl")
        XCTAssertEqual(record.err, "")
        XCTAssertTrue(record.out.contains(#"--data-binary '{"name":"ada"}'"#), record.out)
        XCTAssertEqual(runVow("post http://127.0.0.1:9/x --json 'plain text' --curl").err, "", "text that is not JSON is no mistake")
        let twin = try runTwinOfBinary(#"post http://127.0.0.1:9/x --json '[1]' | catch echo"#)
        XCTAssertTrue(twin.err.contains("warning: post: --json was given text that holds a JSON list, and sends it as one JSON string; to send the list, write it unquoted: --json [1]"), twin.err)
    }

    /// A script's arguments are checked before its first statement runs: a missing one prints
    /// the usage line (status 2) and nothing has acted; an `arg` whose variable is never read
    /// is checked the same. node runs the twin with the same outcome.
    func test_argumentsAreCheckedBeforeAnythingRuns() throws {
        let made = dir + "/made"
        let script = dir + "/deploy.vow"
        try "run touch \(made)\nlet host = arg 1 HOST\nlet port = arg 2 PORT --default 8080\nprint \"to $host:$port\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        let r = try runWithInput(REPLTests.binary, [script], input: "")
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.err, "usage: deploy.vow HOST [PORT]\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: made), "a statement ran before the arguments were checked")
        let given = try runWithInput(REPLTests.binary, [script, "example.org"], input: "")
        XCTAssertEqual(given.out, "to example.org:8080\n", given.err)
        try FileManager.default.removeItem(atPath: made)
        let js = dir + "/deploy.js"
        _ = try runWithInput(REPLTests.binary, ["--emit-js-to", js, script], input: "")
        let node = try runWithInput("/usr/bin/env", ["node", js], input: "")
        XCTAssertEqual(node.status, 2)
        XCTAssertEqual(node.err, "usage: deploy.vow HOST [PORT]\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: made), "the twin ran a statement before the check")
        try "let name = arg 1 NAME\necho hi\n".write(toFile: dir + "/unused.vow", atomically: true, encoding: .utf8)
        let unused = try runWithInput(REPLTests.binary, [dir + "/unused.vow"], input: "")
        XCTAssertEqual(unused.status, 2)
        XCTAssertEqual(unused.err, "usage: unused.vow NAME\n")
    }

    /// jq's habits (a leading dot, a bare number, an unquoted `[*].name`) get the JMESPath form
    /// in the error.
    func test_jqHabitsNameTheJMESPathForm() {
        let cases = [
            ("pick '.[0]'", "write '[0]'"), ("pick '.users[0].name'", "write 'users[0].name'"),
            ("pick '.[] | .name'", "write '[*].name'"), ("pick 'age > 2.5'", "a bare number is a whole number: write one with a fraction in backticks"),
            ("pick [*].name", "quote the expression: pick '[*].name'"),
            ("where age >= 30", "quote the expression: where 'age >= `30`'"),
        ]
        for (given, expected) in cases {
            let r = runVow("echo [{name: ada, age: 36}] | \(given)")
            XCTAssertNotEqual(r.status, 0, given)
            XCTAssertTrue(r.err.contains(expected), "\(given): \(r.err)")
        }
        // A whole number needs no backticks (vow's extension of JMESPath), in vow and its twin.
        XCTAssertEqual(try assertTwinAgrees("echo [{name: ada, age: 36}, {name: bo, age: 3}] | where 'age > 30' | pick '[*].name' | to-json").out, "[\"ada\"]\n")
        XCTAssertEqual(try assertTwinAgrees("echo {a: 4} | pick 'a > 3'").out, "true\n")
    }

    /// A program prints what was asked for: not `write`'s value, not the null of an effect;
    /// `run` gives its output without the final line breaks, as `$(…)` does; `write` ends text
    /// with one. `pick` and `echo` still print null: it was asked for.
    func test_aProgramPrintsWhatWasAskedFor() throws {
        let file = dir + "/out.json"
        let source = "print start\nrun echo built\necho {a: 1} | write \(file)\ndelay 10ms\necho {a: 1} | pick missing\nlet sha = run printf 'abc\\n\\n'\necho \"v-$sha\"\nrun echo built | write \(dir)/built.txt\nprint end"
        XCTAssertEqual(try assertTwinAgrees(source).out, "start\nbuilt\nnull\nv-abc\nend\n")
        XCTAssertEqual(try String(contentsOfFile: dir + "/built.txt", encoding: .utf8), "built\n")
        XCTAssertEqual(try assertTwinAgrees("echo null").out, "null\n")
        let shell = try assertTwinAgrees("run 'ls /etc | wc -l'")
        XCTAssertEqual(shell.status, 1)
        XCTAssertTrue(shell.err.contains("run takes a program and its arguments, never through a shell: run ls /etc, or for a command line run sh -c 'ls /etc | wc -l'"), shell.err)
    }

    /// In the REPL, `help`, `exit` and `quit` mean what they say, and a program on PATH typed
    /// as a stage says to `run` it.
    func test_theREPLTakesAShellUsersWords() throws {
        let t = try PseudoTerminal(REPLTests.binary, [], environment: ["VOW_HISTORY": dir + "/history"])
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        Thread.sleep(forTimeInterval: 0.1)
        t.type("help\n")
        XCTAssertTrue(t.waitFor("vow: pipelines of promises"), t.plainOutput)
        t.type("ls /tmp\n")
        XCTAssertTrue(t.waitFor("unknown stage 'ls' (ls is a program: run ls …)"), t.plainOutput)
        t.type("exit\n")
        XCTAssertEqual(t.waitExit(), 0, t.plainOutput)
        let q = try PseudoTerminal(REPLTests.binary, [], environment: ["VOW_HISTORY": dir + "/history"])
        XCTAssertTrue(q.waitFor("vow> "), q.plainOutput)
        Thread.sleep(forTimeInterval: 0.1)
        q.type("quit\n")
        XCTAssertEqual(q.waitExit(), 0, q.plainOutput)
    }

    /// The views of one statement number its promises from p1, whatever the session made
    /// before (`:step` after `:load`); `--turns` shows no job notices.
    func test_teachingViewsStartFromP1() throws {
        let session = Session(diagnostics: OutputSink({ _ in }))
        defer { session.http.shutdown() }
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
        defer { runner.disableTracing() }
        _ = runner.enableTracing()
        _ = runner.run(try String(contentsOfFile: projectRoot.appendingPathComponent("examples/lessons/01-chaining.vow").path, encoding: .utf8), name: "01")
        let stepped = TurnView.render(runner.runShowingTurns("echo 1 | then format \"{}!\"", name: "<step>").turns, colors: false)
        XCTAssertTrue(stepped.contains("p1 fulfils with 1"), stepped)
        XCTAssertTrue(stepped.contains("p2 fulfils with \"1!\""), stepped)
        XCTAssertTrue(stepped.hasPrefix("promises\n  p1  echo 1\n  p2  then format \"{}!\"\n"), stepped)
        XCTAssertFalse(stepped.contains("p3"), stepped)
        let turns = try runWithInput(REPLTests.binary, ["--turns", projectRoot.appendingPathComponent("examples/lessons/13-jobs-and-let.vow").path], input: "")
        XCTAssertTrue(turns.out.hasPrefix("promises\n  p1 "), turns.out)
        XCTAssertTrue(turns.out.contains("\n\nstart  start: the statements begin"), turns.out)
        XCTAssertFalse(turns.err.contains("] started") || turns.err.contains("] fulfilled"), turns.err)
    }

    /// `$env.NAME` in a word is the variable (as `${env.NAME}` is), not the whole environment
    /// followed by `.NAME`; a variable that is text keeps its dot (`$f.txt`).
    func test_dottedFieldsOfARecordVariableInAWord() throws {
        setenv("VOW_FIRST_GUESS_API", "http://127.0.0.1:9", 1)
        defer { unsetenv("VOW_FIRST_GUESS_API") }
        XCTAssertEqual(try assertTwinAgrees("echo $env.VOW_FIRST_GUESS_API/users/2").out, "http://127.0.0.1:9/users/2\n")
        XCTAssertEqual(try assertTwinAgrees("let f = echo name\necho \"$f.txt\"").out, "name.txt\n")
        XCTAssertEqual(try assertTwinAgrees("let u = {a: {b: 2}}\necho x$u.a.b.c/y").out, "x2.c/y\n")
        let unknown = runVow("echo $HOME")
        XCTAssertTrue(unknown.err.contains("unknown variable $HOME (the environment is $env: $env.HOME"), unknown.err)
    }

    /// `run`'s words are its program's argv as written (numbers, durations, flags it does not
    /// declare), and text it is given ends its last line, as a shell's pipe gives it.
    func test_runTakesItsWordsAsWritten() throws {
        XCTAssertEqual(try assertTwinAgrees("run echo 007 1.50 10ms true null").out, "007 1.50 10ms true null\n")
        XCTAssertEqual(try assertTwinAgrees("run echo a --oneline -1 --x=y").out, "a --oneline -1 --x=y\n")
        XCTAssertEqual(try assertTwinAgrees("run printf 'b\\na\\nc\\n' | run wc -l").out, "3\n")
        XCTAssertEqual(try assertTwinAgrees("echo abc | run wc -c").out, "4\n", "as `echo abc | wc -c`")
        XCTAssertEqual(try assertTwinAgrees("echo {zip: 01234, n: 10} | to-json").out, #"{"zip":"01234","n":10}"# + "\n")
    }

    /// A status made from data (`catch exit "{status}"`) is a status.
    func test_exitTakesAStatusFromText() throws {
        let r = try assertTwinAgrees("run sh -c 'exit 3' | catch exit \"{status}\" 'check failed'")
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(r.err, "check failed\n")
    }

    /// An expression that does not parse is refused before anything runs (status 2), and a
    /// comparison with a double-quoted name (a field in JMESPath) is warned of.
    func test_expressionsAreCheckedBeforeAnythingRuns() throws {
        let made = dir + "/touched"
        let r = runVow("run touch \(made) | pick .name")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("error[syntax]: pick: unexpected '.'"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: made), "the statement ran before its expression was checked")
        let warned = runVow(#"echo [{city: Oslo}] | where 'city == "Oslo"' | to-json"#)
        XCTAssertEqual(warned.out, "[]\n")
        XCTAssertTrue(warned.err.contains(#"warning: where: in JMESPath "Oslo" is the field named Oslo, not text; text is 'Oslo'"#), warned.err)
        XCTAssertEqual(runVow("echo [{city: Oslo}] | where \"city == 'Oslo'\" | to-json").err, "")
        // jq's `to_entries[]` habit: `items(@)[]` flattens the pairs into keys and values, mixed.
        let flat = runVow("echo {a: 1, b: 2} | pick 'items(@)[]' | to-json")
        XCTAssertEqual(flat.out, #"["a",1,"b",2]"# + "\n")
        XCTAssertTrue(flat.err.contains("warning: pick: items(@)[] flattens the [key, value] pairs into one list of keys and values, mixed; items(@)[*] goes over the pairs"), flat.err)
        XCTAssertEqual(runVow("echo {a: 1, b: 2} | pick 'items(@)[*][0]' | to-json").err, "")
    }

    /// `--curl` writes `--output FILE` and `--continue` as curl's `--output` and `--continue-at -`.
    func test_curlKeepsTheDownload() {
        let r = runVow("fetch http://127.0.0.1:9/f.bin --output '\(dir)/f.bin' --continue --curl")
        XCTAssertTrue(r.out.contains("--output \(dir)/f.bin --continue-at -"), r.out)
    }

    /// A word after `--stream` that is none of its choices, with no place left for it, names
    /// the choices (it was "fetch takes one argument, given 2").
    func test_aWrongStreamKindNamesTheChoices() {
        let r = runVow("fetch http://127.0.0.1:9/x --stream bogus")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("fetch: --stream takes sse, lines or text (or nothing), got 'bogus'"), r.err)
        XCTAssertEqual(runVow("fetch http://127.0.0.1:9/x --stream text --curl").status, 0)
    }
}
