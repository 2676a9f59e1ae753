import Foundation
import XCTest

@testable import VowRuntime

/// `diff` and `watch`, rule by rule, each beside its twin under node.
final class WatchTests: XCTestCase {
    func test_diffListsChangesDeeplyInOrder() throws {
        let r = try assertTwinAgrees(#"diff {a: 1, b: {c: [1, 2, 3]}, "odd key": 1} {a: 1, b: {c: [1, 5]}, "odd key": 2, d: null} | to-json"#)
        XCTAssertEqual(
            r.out,
            #"[{"path":"b.c[1]","change":"changed","from":2,"to":5},{"path":"b.c[2]","change":"removed","from":3},{"path":"\"odd key\"","change":"changed","from":1,"to":2},{"path":"d","change":"added","to":null}]"#
                + "\n")
        // The path it gives is one pick reads.
        XCTAssertEqual(try assertTwinAgrees(#"let d = diff {a: {b: [1]}} {a: {b: [2]}} | pick '[0].path'"# + "\necho {a: {b: [7]}} | pick $d").out, "7\n")
        // With one argument, the input is compared with it; a type change is a change.
        XCTAssertEqual(try assertTwinAgrees("echo {a: [1]} | diff {a: {x: 1}} | pick '[0].change'").out, "changed\n")
        XCTAssertEqual(try assertTwinAgrees("echo [1, 2] | diff [1, 2] | len").out, "0\n")
    }

    func test_watchPrintsTheFirstValueThenWhatChanged() throws {
        let dir = NSTemporaryDirectory() + "vow-watch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/state.json"
        try #"{"status": "pending", "done": 0}"#.write(toFile: file, atomically: true, encoding: .utf8)
        // The file changes twice while watch polls it every 50ms; it stops when status is done.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.4) {
            try? #"{"status": "running", "done": 3}"#.write(toFile: file, atomically: true, encoding: .utf8)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.4) {
                try? #"{"status": "done", "done": 5, "note": "ok"}"#.write(toFile: file, atomically: true, encoding: .utf8)
            }
        }
        let r = runVow("watch 50ms (read \(file) | json) --until \"status == 'done'\" --for 10s | pick done")
        XCTAssertEqual(
            r.out,
            "{\n  \"status\": \"pending\",\n  \"done\": 0\n}\n~ status: \"pending\" → \"running\"\n~ done: 0 → 3\n~ status: \"running\" → \"done\"\n~ done: 3 → 5\n+ note: \"ok\"\n5\n",
            r.err)
    }

    func test_watchStopsByCountOrTimeAndAFailingRunEndsIt() throws {
        XCTAssertEqual(try assertTwinAgrees("range 1 3 | watch 10ms (len) --count 3 | then format \"last {}\"").out, "3\nlast 3\n")
        let began = Date()
        XCTAssertEqual(runVow("watch 100ms (echo same) --for 500ms").out, "same\n")
        let took = Date().timeIntervalSince(began)
        XCTAssertGreaterThanOrEqual(took, 0.35)
        XCTAssertLessThan(took, 5)
        let failing = try assertTwinAgrees("watch 10ms (reject down) --count 3 | catch pick message")
        XCTAssertEqual(failing.out, "down\n")
        XCTAssertTrue(runVow("watch 1s2 (echo 1)").err.contains("watch: EVERY must be a duration like 250ms or 2s, got \"1s2\""))
        XCTAssertTrue(runVow("watch 1s echo 1").err.contains("watch: expected how often and a group to run"))
    }

    /// Ctrl-C stops a watch that has no end of its own: its timer and the process are gone.
    func test_ctrlCStopsAWatch() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: REPLTests.binary)
        p.arguments = ["-c", "watch 50ms (echo tick)"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self), "tick\n")
        Thread.sleep(forTimeInterval: 0.2)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
    }
}
