import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell

/// Scripts that behave like programs: everything after a script's path is the script's, `exit`
/// reads its status however it is written, `range` makes numbers, and a table shows null as an
/// empty cell.
final class ScriptProgramTests: XCTestCase {
    func script(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "vow-program-\(UUID().uuidString).vow"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// `vow a.vow x --json --yes`: the flags after the path are the script's, in `$args`, and
    /// vow's own `--json` before it is still vow's; through a `#!` line too.
    func test_everythingAfterTheScriptsPathIsTheScripts() throws {
        let path = try script("#!/usr/bin/env vow\necho $args | to-json\n")
        let after = try runWithInput(REPLTests.binary, [path, "x", "--json", "--yes"], input: "")
        XCTAssertEqual(after.status, 0, after.err)
        XCTAssertEqual(after.out, #"["x","--json","--yes"]"# + "\n")
        let before = try runWithInput(REPLTests.binary, ["--json", path, "x"], input: "")
        XCTAssertEqual(before.out, #""[\"x\"]""# + "\n", "--json before the path is vow's")
        chmod(path, 0o755)
        let bin = URL(fileURLWithPath: REPLTests.binary).deletingLastPathComponent().path
        let shebang = try runWithInput("/usr/bin/env", ["PATH=\(bin):/usr/bin:/bin", path, "--yes"], input: "")
        XCTAssertEqual(shebang.out, #"["--yes"]"# + "\n", shebang.err)
    }

    /// The first word of `exit` is its status: a number, text that is one (`"{status}"`), and
    /// anything else an error, never the message.
    func test_exitReadsItsStatusHoweverItIsWritten() throws {
        let path = try script("echo {status: 4} | exit \"{status}\" \"m\"\n")
        let r = try runWithInput(REPLTests.binary, [path], input: "")
        XCTAssertEqual(r.status, 4)
        XCTAssertEqual(r.err, "m\n")
        let oops = runVow("exit oops")
        XCTAssertEqual(oops.status, 1)
        XCTAssertTrue(oops.err.contains("exit: STATUS must be a whole number from 0 to 255, got \"oops\""), oops.err)
    }

    /// `range` counts as `seq` does, down with a negative step, and as a stream made as it is
    /// consumed; node's twin agrees.
    func test_rangeCountsAsSeqDoes() throws {
        for (source, expected) in [
            ("range 1 5 | to-json", "[1,2,3,4,5]"), ("range 10 1 --step -3 | to-json", "[10,7,4,1]"),
            ("range 5 1 | to-json", "[]"), ("range 1 1000000000 --stream | take 3 | to-json", "[1,2,3]"),
            ("range 1 100000 --stream | len", "100000"), ("range 0 10 --step 5 | to-json", "[0,5,10]"),
        ] {
            XCTAssertEqual(runVow(source).out, expected + "\n", source)
            let twin = try runTwinOfBinary(source)
            XCTAssertEqual(twin.out, expected + "\n", "twin of \(source): \(twin.err)")
        }
        let seq = try runCommand("seq", ["1", "3", "10"])
        let counted = seq.out.split(separator: "\n").joined(separator: ",")
        XCTAssertEqual(runVow("range 1 10 --step 3 | to-json").out, "[\(counted)]\n", "as seq 1 3 10 counts")
        XCTAssertTrue(runVow("range 1 100000000").err.contains("--stream makes them as they are consumed"))
        XCTAssertTrue(runVow("range 1 5 --step 0").err.contains("--step must not be 0"))
    }

    /// A null cell is empty, as a missing key is.
    func test_aNullCellIsEmpty() {
        XCTAssertEqual(runVow("echo [{a: 1, b: null}, {a: 2, b: x}] | table").out, "a  b\n─  ─\n1\n2  x\n")
    }

    /// A variable whose `let` has settled is a value wherever a value goes, flags included
    /// (`each … --limit $n`); one still pending is waited for. node's twin agrees.
    func test_aSettledVariableSetsAFlag() throws {
        let path = try script("let n = arg 1 N --default 2\nrange 1 4 | each (then format \"x{}\") --limit $n | to-json\n")
        let r = try runWithInput(REPLTests.binary, [path], input: "")
        XCTAssertEqual(r.out, #"["x1","x2","x3","x4"]"# + "\n", r.err)
        let twin = try runTwinOfBinary(path, isPath: true)
        XCTAssertEqual(twin.out, r.out, twin.err)
        let pending = runVow("let d = delay 50ms 2\nrange 1 4 | each (then format \"x{}\") --limit $d | to-json")
        XCTAssertEqual(pending.out, r.out, pending.err)
    }

    /// `reject $_` in a `catch` raises the error again with its kind and fields (a `network`
    /// error stays one), as `throw err` does; node's twin agrees.
    func test_rejectingAnErrorRecordKeepsItsKind() throws {
        let source = "fetch http://127.0.0.1:1/x | catch (if \"kind == 'timeout'\" (echo late) else (reject $_)) | catch pick '[kind, message]' | to-json"
        let r = runVow(source)
        XCTAssertEqual(r.out, #"["network","connection refused 127.0.0.1:1 — GET http://127.0.0.1:1/x"]"# + "\n", r.err)
        let kinds = "delay 50ms | timeout 10ms | catch (reject $_) | catch pick kind"
        XCTAssertEqual(runVow(kinds).out, "timeout\n")
        let twin = try runTwinOfBinary(kinds)
        XCTAssertEqual(twin.out, "timeout\n", twin.err)
        XCTAssertEqual(runVow("reject {message: x, code: 3} | catch pick '[kind, code]' | to-json").out, #"["user",3]"# + "\n", "a record without a kind is the user's")
    }

    /// `arg N` counts the words that are not flags, so a flag before an argument does not take
    /// its place; after `--` every word counts. node's twin counts the same.
    func test_argCountsTheWordsThatAreNotFlags() throws {
        let path = try script("let target = arg 1 TARGET\nprint \"to $target\"\n")
        XCTAssertEqual(try runWithInput(REPLTests.binary, [path, "--dry-run", "prod"], input: "").out, "to prod\n")
        XCTAssertEqual(try runWithInput(REPLTests.binary, [path, "--", "--odd"], input: "").out, "to --odd\n")
        let missing = try runWithInput(REPLTests.binary, [path, "--dry-run"], input: "")
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.err.hasSuffix("TARGET\n"), missing.err)
        let js = NSTemporaryDirectory() + "vow-program-\(UUID().uuidString).js"
        defer { try? FileManager.default.removeItem(atPath: js); try? FileManager.default.removeItem(atPath: (js as NSString).deletingLastPathComponent + "/vow-twin-prelude.js") }
        _ = try runWithInput(REPLTests.binary, ["--emit-js-to", js, path], input: "")
        XCTAssertEqual(try runWithInput("/usr/bin/env", ["node", js, "--dry-run", "prod"], input: "").out, "to prod\n")
        XCTAssertEqual(try runWithInput("/usr/bin/env", ["node", js, "--dry-run"], input: "").status, 2)
    }

    /// A script declares its own flags: a switch, a valued one with a default, in any place
    /// among the arguments; `--help` prints the usage line; a flag it does not declare, or one
    /// without its value, is a usage error (status 2) before anything runs. node's twin agrees
    /// on every case.
    func test_aScriptDeclaresItsFlags() throws {
        let made = NSTemporaryDirectory() + "vow-flag-made-\(UUID().uuidString)"
        let path = try script("""
            run touch \(made)
            let dir = arg 1 DIR
            let yes = flag --yes
            let limit = flag --limit N --default 4
            echo {dir: $dir, yes: $yes, limit: $limit} | to-json

            """)
        let name = (path as NSString).lastPathComponent
        let js = NSTemporaryDirectory() + "vow-flag-\(UUID().uuidString).js"
        defer { try? FileManager.default.removeItem(atPath: js); try? FileManager.default.removeItem(atPath: (js as NSString).deletingLastPathComponent + "/vow-twin-prelude.js") }
        _ = try runWithInput(REPLTests.binary, ["--emit-js-to", js, path], input: "")
        let usage = "usage: \(name) DIR [--yes] [--limit N]"
        for (words, out, err, status): ([String], String, String, Int32) in [
            (["/d"], #"{"dir":"/d","yes":false,"limit":4}"# + "\n", "", 0),
            (["--yes", "/d", "--limit", "8"], #"{"dir":"/d","yes":true,"limit":"8"}"# + "\n", "", 0),
            (["/d", "--limit=9", "--yes"], #"{"dir":"/d","yes":true,"limit":"9"}"# + "\n", "", 0),
            (["--help"], usage + "\n", "", 0),
            (["/d", "--bogus"], "", usage + "\nunknown flag --bogus\n", 2),
            (["/d", "--limit"], "", usage + "\n--limit needs a value (N)\n", 2),
            ([], "", usage + "\n", 2),
        ] {
            try? FileManager.default.removeItem(atPath: made)
            let r = try runWithInput(REPLTests.binary, [path] + words, input: "")
            XCTAssertEqual(r.out, out, "\(words)")
            XCTAssertEqual(r.err, err, "\(words)")
            XCTAssertEqual(r.status, status, "\(words)")
            if status != 0 || words == ["--help"] {
                XCTAssertFalse(FileManager.default.fileExists(atPath: made), "\(words): a statement ran before the check")
            }
            let node = try runWithInput("/usr/bin/env", ["node", js] + words, input: "")
            XCTAssertEqual(node.out, out, "twin \(words)")
            XCTAssertEqual(node.status, status, "twin \(words): \(node.err)")
        }
    }

    /// A flag may name a `let` that has not settled yet: the stage waits for it, as the twin
    /// does (`each --limit $n`, `watch --count $c`); a stage that reads its arguments when the
    /// statement starts (`timeout`, `retry`, `until`) still says it cannot.
    func test_aFlagWaitsForAPendingLet() throws {
        XCTAssertEqual(try assertTwinAgrees("let n = delay 50ms 2\necho [1, 2, 3] | each (format \"n{}\") --limit $n | to-json").out, #"["n1","n2","n3"]"# + "\n")
        XCTAssertEqual(try assertTwinAgrees("let c = delay 50ms 2\nwatch 10ms (echo same) --count $c").out, "same\n")
        let early = runVow("let t = delay 100ms 1s\ndelay 10ms x | timeout $t")
        XCTAssertTrue(early.err.contains("timeout: DURATION must be a plain value ($t has not settled yet"), early.err)
    }
}
