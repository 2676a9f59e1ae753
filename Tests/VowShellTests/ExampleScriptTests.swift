import Foundation
import TestSupport
import XCTest

/// The everyday chores of examples/scripts/, each run as a user runs it (the vow binary, with
/// arguments and standard input) against the fixture server where it needs one.
final class ExampleScriptTests: ServerTestCase {
    func script(_ name: String) -> String { projectRoot.appendingPathComponent("examples/scripts/\(name)").path }

    /// Runs a script with `arguments` and `input`; stdout, stderr and the exit status.
    func run(_ name: String, _ arguments: [String] = [], input: String = "") throws -> (out: String, err: String, status: Int32) {
        try runWithInput(REPLTests.binary, [script(name)] + arguments, input: input)
    }

    func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vow-chore-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    func test_pollAJob() throws {
        let r = try run("poll-job.vow", ["\(base)/job?key=chore&after=600"])
        XCTAssertEqual(r.out, "done\n", r.err)
    }

    /// A job watched until it is done, by vow and by the node version beside it: each prints
    /// the first record whole, then a line a change (the status among them), then the status.
    func test_watchAJob() throws {
        for (program, arguments) in [(REPLTests.binary, [script("watch-job.vow")]), ("/usr/bin/env", ["node", script("watch-job.mjs")])] {
            let r = try runWithInput(program, arguments + ["\(base)/job?key=watch-\(program.hasSuffix("env") ? "node" : "vow")&after=500"], input: "")
            XCTAssertTrue(r.out.hasPrefix("{\n  \"id\": \"watch-"), r.out + r.err)
            XCTAssertTrue(r.out.contains("~ status: \"running\" → \"done\"\n"), r.out)
            XCTAssertTrue(r.out.contains("~ polls: 1 → 2\n"), r.out)
            XCTAssertTrue(r.out.hasSuffix("done\n"), r.out)
        }
    }

    func test_downloadMany() throws {
        let dir = try temporaryDirectory()
        let r = try run("download-many.vow", [base, dir + "/out"])
        XCTAssertEqual(r.out, "30 files in \(dir)/out\n", r.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/out").count, 30)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: dir + "/out/file-7.bin")[.size] as? Int, 2000)
        XCTAssertEqual(r.err, "", "no progress line into a pipe")
    }

    func test_deployWithABranch() throws {
        let prod = try run("deploy-branch.vow", ["prod"])
        XCTAssertEqual(prod.out, "prod\n")
        XCTAssertEqual(prod.err, "deploying to production\n")
        XCTAssertEqual(try run("deploy-branch.vow", ["dev"]).out, "staging\n")
    }

    func test_validateArguments() throws {
        let none = try run("validate-args.vow")
        XCTAssertEqual(none.status, 2)
        XCTAssertEqual(none.err, "usage: validate-args.vow NAME [TIMES]\n")
        XCTAssertEqual(none.out, "")
        XCTAssertEqual(try run("validate-args.vow", ["Ada"]).out, "hello Ada\n")
        XCTAssertTrue(try run("validate-args.vow", ["a", "b", "c"]).err.contains("error[assert]: too many arguments"))
    }

    func test_confirmADestructiveStep() throws {
        let dir = try temporaryDirectory()
        let kept = try run("confirm-delete.vow", [dir], input: "no\n")
        XCTAssertEqual(kept.status, 1)
        XCTAssertTrue(kept.err.contains("not confirmed: nothing deleted"), kept.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir))
        XCTAssertEqual(try run("confirm-delete.vow", [dir], input: "yes\n").out, "deleted \(dir)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
        // With --yes (anywhere among the arguments) it asks nothing.
        let again = try temporaryDirectory()
        XCTAssertEqual(try run("confirm-delete.vow", ["--yes", again], input: "").out, "deleted \(again)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: again))
        XCTAssertEqual(try run("confirm-delete.vow", ["--help"]).out, "usage: confirm-delete.vow DIR [--yes]\n")
    }

    /// The count is kept as it goes (`reduce --as`) and said by a `defer`, as the bash version
    /// beside it says it from its `trap … EXIT`: both print the same.
    func test_tailAndReact() throws {
        let dir = try temporaryDirectory()
        try "start\nERROR disk full\nok\nERROR again\n".write(toFile: dir + "/app.log", atomically: true, encoding: .utf8)
        let r = try run("tail-and-react.vow", [dir + "/app.log"])
        XCTAssertEqual(r.out, "2 errors\n")
        XCTAssertEqual(r.err, "alert: ERROR disk full\nalert: ERROR again\n")
        let bash = try runWithInput("/bin/bash", [script("tail-and-react.sh"), dir + "/app.log"], input: "")
        XCTAssertEqual(bash.out, r.out)
        XCTAssertEqual(bash.err, r.err)
    }

    /// Rows pushed under a rate limit, by vow and by the node version beside it, against a
    /// server that keeps each request's arrival time: the same output, and neither goes over
    /// the limit in any second.
    func test_pushRowsUnderARateLimit() throws {
        let server = try ClockServer.start()
        defer { server.stop() }
        let base = server.base
        let dir = try temporaryDirectory()
        try (0..<30).map { #"{"id": \#($0)}"# }.joined(separator: "\n").appending("\n").write(toFile: dir + "/rows.ndjson", atomically: true, encoding: .utf8)
        func arrivals(since start: Int) throws -> [Double] {
            let times = try runWithInput("/usr/bin/env", ["curl", "-s", base + "/times"], input: "").out
            return Array(try XCTUnwrap(JSONSerialization.jsonObject(with: Data(times.utf8)) as? [Double]).dropFirst(start))
        }
        func busiestSecond(_ times: [Double]) -> Int {
            let t = times.sorted()
            var most = 0, lo = 0
            for hi in t.indices {
                while t[hi] - t[lo] >= 1 { lo += 1 }
                most = max(most, hi - lo + 1)
            }
            return most
        }
        let vow = try run("push-rows.vow", [dir + "/rows.ndjson", base + "/items", "--rate", "15/s"])
        XCTAssertEqual(vow.out, "30 rows posted\n", vow.err)
        XCTAssertLessThanOrEqual(busiestSecond(try arrivals(since: 0)), 15)
        let node = try runWithInput("/usr/bin/env", ["node", script("push-rows.mjs"), dir + "/rows.ndjson", base + "/items", "--rate", "15/s"], input: "")
        XCTAssertEqual(node.out, vow.out, node.err)
        XCTAssertEqual(try arrivals(since: 30).count, 30)
    }

    func test_cleanUpOnInterrupt() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: REPLTests.binary)
        p.arguments = [script("cleanup-on-interrupt.vow")]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        let tmp = try XCTUnwrap(line.split(separator: " ").dropFirst(2).first.map(String.init), line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/work"), line)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp), "the scratch directory is left: \(tmp)")
    }
}
