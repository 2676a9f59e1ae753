import Foundation
import XCTest

@testable import VowRuntime

/// Running state without a temporary file: `reduce` folds a list or a stream (its twin too),
/// `--as NAME` keeps the running value where a `defer` reads it when Ctrl-C ends the run, and
/// `tap` on a stream runs its handler on each item and passes the stream on.
final class RunningStateTests: XCTestCase {
    func test_reduceFoldsAsJavaScriptsReduceDoes() throws {
        XCTAssertEqual(try assertTwinAgrees("echo [1, 2, 3] | reduce 'acc + item' 10").out, "16\n")
        // Without INIT the first item starts the fold.
        XCTAssertEqual(try assertTwinAgrees("echo [4, 5] | reduce 'acc * item'").out, "20\n")
        XCTAssertEqual(try assertTwinAgrees("echo [{n: 2}, {n: 5}, {n: 3}] | reduce 'max([acc, item.n])' 0").out, "5\n")
        // A stream is folded as it arrives.
        XCTAssertEqual(try assertTwinAgrees("range 1 100000 --stream | reduce 'acc + item' 0").out, "5000050000\n")
        // An empty input with no INIT is an error, as in JavaScript.
        let empty = try assertTwinAgrees("echo [] | reduce 'acc + item'")
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.err.hasPrefix("error[type]: reduce: nothing to fold: the input is empty and no INIT is given"), empty.err)
        // The expression reads vow's variables, and is checked before anything runs.
        XCTAssertEqual(try assertTwinAgrees("let k = 100\necho [1, 2] | reduce 'acc + item + $k' 0").out, "203\n")
        let typo = runVow("print started\necho [1] | reduce 'acc +' 0")
        XCTAssertEqual(typo.status, 2)
        XCTAssertEqual(typo.out, "")
    }

    func test_theRunningValueIsAVariable() throws {
        let r = try assertTwinAgrees("range 1 4 | reduce 'acc + item' 0 --as total | quiet\nprint \"total $total\"")
        XCTAssertEqual(r.out, "total 10\n")
        let bad = runVow("echo [1] | reduce 'acc + item' 0 --as 9x")
        XCTAssertTrue(bad.err.contains("reduce: --as must be a variable name (letters, digits, _), got '9x'"), bad.err)
    }

    /// Ctrl-C in the middle of a fold: the `defer` prints how far it got (the items folded:
    /// every item printed, or all but the last when Ctrl-C came between its line and its fold),
    /// and the run ends with status 130. Checked on a real process, with a real SIGINT.
    func test_aDeferReadsTheRunningValueWhenCtrlCComes() throws {
        let dir = NSTemporaryDirectory() + "vow-running-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = dir + "/count.vow"
        try """
            defer (print "counted $n")
            range 1 1000000 --stream | tap (delay 2ms) | tap (print "went {}") | reduce 'acc + `1`' 0 --as n
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: REPLTests.binary)
        p.arguments = [script]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Wait for some items to go by, then interrupt.
        var seen = ""
        while !seen.contains("went 5\n") { seen += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self) }
        kill(p.processIdentifier, SIGINT)
        seen += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        let went = seen.split(separator: "\n").filter { $0.hasPrefix("went ") }.count
        // The fold of an item runs a job after its `went` line: Ctrl-C may come between the two,
        // and then the last item printed is not counted yet.
        XCTAssertTrue(seen.hasSuffix("counted \(went)\n") || seen.hasSuffix("counted \(went - 1)\n"), seen.suffix(200).description)
        XCTAssertGreaterThanOrEqual(went, 5)
    }

    /// `tap` on a stream: the handler on each item, every item passed on (it used to see the
    /// stream as one list and leave nothing after it).
    func test_tapOnAStreamPassesEveryItemOn() throws {
        XCTAssertEqual(try assertTwinAgrees(#"range 1 3 --stream | tap print "saw {}" | len"#).out, "saw 1\nsaw 2\nsaw 3\n3\n")
        XCTAssertEqual(try assertTwinAgrees("range 1 3 --stream | tap | to-json").out, "1\n2\n3\n[1,2,3]\n")
        let failing = try assertTwinAgrees(#"range 1 5 --stream | tap (if "@ == `3`" (reject boom) else (echo ok)) | len"#)
        XCTAssertEqual(failing.status, 1)
    }
}
