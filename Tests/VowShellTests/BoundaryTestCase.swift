import Foundation
import XCTest

@testable import VowRuntime

/// What the tests of vow's boundary with processes and output share: the built binary run from a
/// shell, and the process table read with `pgrep -f`.
class BoundaryTestCase: XCTestCase {
    /// A `sleep` argument no other process has: `pgrep -f "sleep <marker>"` finds ours alone.
    func marker() -> String { "57.\(UInt32.random(in: 100_000...999_999))" }

    /// The live processes whose command line contains `pattern`.
    func live(_ pattern: String) throws -> String {
        try runCommand("pgrep", ["-f", pattern]).out
    }

    /// Waits (up to 10 s) until no live process matches `pattern`; fails naming what is left.
    func assertGone(_ pattern: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var left = ""
        for _ in 0..<200 {
            left = try live(pattern)
            if left.isEmpty { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("still running: \(pattern) (\(left))", file: file, line: line)
    }

    /// Waits (up to 10 s) until a live process matches `pattern`.
    func waitStarted(_ pattern: String) throws -> Bool {
        for _ in 0..<200 {
            if try !live(pattern).isEmpty { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// `bash -c SCRIPT` with `$VOW` set to the built binary (and `extra` in its environment);
    /// its output, errors and status.
    func shell(_ script: String, environment extra: [String: String] = [:]) throws -> (out: String, err: String, status: Int32) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script]
        var env = ProcessInfo.processInfo.environment
        env["VOW"] = REPLTests.binary
        for (k, v) in extra { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let e = VowRuntime.Locked(Data())
        let reader = Thread { e.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while e.withLock({ $0.isEmpty }) && reader.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        return (String(decoding: o, as: UTF8.self), String(decoding: e.withLock { $0 }, as: UTF8.self), p.terminationStatus)
    }

    /// A script's check, run by vow itself after the cancelling statement: polls the process
    /// table until `sleep MARKER` has gone (printing `gone`) or 5 s have passed (`alive`). The
    /// pattern's bracket keeps `pgrep` from finding the checking shell itself.
    func goneCheck(_ marker: String) -> String {
        "run sh -c 'for i in $(seq 1 100); do pgrep -f \"[s]leep \(marker)\" >/dev/null || { echo gone; exit 0; }; sleep 0.05; done; echo alive'"
    }

    /// vow running `source` as a script file (so that the process table shows no program text
    /// in vow's own command line), with `redirect` (e.g. `> /dev/full`).
    func vowC(_ source: String, _ redirect: String = "") throws -> (out: String, err: String, status: Int32) {
        let file = NSTemporaryDirectory() + "vow-boundary-\(UUID().uuidString).vow"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try shell("\"$VOW\" \"$SCRIPT\" \(redirect)", environment: ["SCRIPT": file])
    }
}
