import Foundation
import TestSupport
import XCTest

@testable import VowRuntime

/// Trust at the boundary with processes: a cancelled `run` stops its whole process tree (a
/// timeout, a combinator that no longer needs it, Ctrl-C, SIGINT or SIGTERM to a script), and a
/// child starts with the signal state a shell gives it. Every check reads the process table
/// (`pgrep -f`, which sees live processes only), never a timing.
final class ProcessBoundaryTests: BoundaryTestCase {
    func test_aRunThatTimesOutIsStoppedBeforeTheNextStatement() throws {
        let m = marker()
        let r = try vowC("run sleep \(m) | timeout 300ms | catch echo caught\n" + goneCheck(m))
        XCTAssertEqual(r.out.split(separator: "\n"), ["caught", "gone"], r.err)
        XCTAssertEqual(r.status, 0, r.err)
        try assertGone("sleep \(m)")
    }

    func test_allStopsTheOtherProcessesWhenOneFails() throws {
        let m = marker()
        let r = try vowC("all [run sh -c 'sleep 0.3; exit 3', run sleep \(m)] | catch echo failed-fast\n" + goneCheck(m))
        XCTAssertEqual(r.out.split(separator: "\n"), ["failed-fast", "gone"], r.err)
    }

    func test_aGrandchildUnderShIsStoppedToo() throws {
        let m = marker()
        let r = try vowC("run sh -c 'sleep \(m); echo done' | timeout 300ms | catch echo caught\n" + goneCheck(m))
        XCTAssertEqual(r.out.split(separator: "\n"), ["caught", "gone"], r.err)
    }

    /// SIGINT and SIGTERM to a script stop what it runs, `sh` and its `sleep` alike; a child that
    /// ignores SIGTERM is killed after the grace.
    func test_signalsToAScriptStopItsProcesses() throws {
        for (signal, status, program) in [
            (SIGINT, Int32(130), "sh -c 'sleep MARK; echo done'"), (SIGTERM, Int32(143), "sh -c 'sleep MARK; echo done'"),
            (SIGTERM, Int32(143), "sh -c 'trap \"\" TERM; sleep MARK; echo done'"),
        ] {
            let m = marker()
            let p = try startVow("run " + program.replacingOccurrences(of: "MARK", with: m))
            // The sleep itself (vow's and sh's command lines name it too).
            XCTAssertTrue(try waitStarted("^sleep \(m)"), "the child never started")
            kill(p.processIdentifier, signal)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, status, program)
            // vow does not exit while a process it started runs: nothing is left at its exit.
            XCTAssertEqual(try live("sleep \(m)"), "", "\(program) outlived vow")
            XCTAssertEqual(try live(m), "", "\(program) outlived vow")
        }
    }

    /// A signal sent at any moment of vow's start is heard: it ends vow with the shell's status
    /// and nothing vow started is left, never lost with the script running on to its end.
    func test_aSignalTheMomentVowStartsIsNotLost() throws {
        // One attempt every 0.1 ms of the first 15: the moment between setting a signal aside and
        // listening for it, where one used to be lost, lasts a few microseconds.
        for attempt in 0..<150 {
            let signal = attempt % 2 == 0 ? SIGTERM : SIGINT
            let m = marker()
            let p = try startVow("run sh -c 'sleep \(m); echo done'")
            // From at once to 15 ms later: before main(), while vow sets itself up, as it runs.
            let start = DispatchTime.now().uptimeNanoseconds
            while DispatchTime.now().uptimeNanoseconds - start < UInt64(attempt) * 100_000 {}
            kill(p.processIdentifier, signal)
            let exited = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { p.waitUntilExit(); exited.signal() }
            guard exited.wait(timeout: .now() + 10) == .success else {
                XCTFail("signal \(signal) \(Double(attempt) / 10) ms after the start was lost: vow still runs")
                p.terminate()
                try? assertGone(m)
                continue
            }
            let expected = 128 + signal
            let heard = (p.terminationReason == .exit && p.terminationStatus == expected)
                || (p.terminationReason == .uncaughtSignal && p.terminationStatus == signal)
            XCTAssertTrue(heard, "signal \(signal) \(Double(attempt) / 10) ms after the start: \(p.terminationReason) \(p.terminationStatus)")
            XCTAssertEqual(try live(m), "", "sleep \(m) outlived vow")
        }
    }

    /// SIGTERM ends the REPL as Ctrl-D does, with status 143: the running program is stopped.
    func test_sigtermEndsTheREPLAndStopsItsProcess() throws {
        let history = NSTemporaryDirectory() + "vow-history-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: history) }
        let t = try PseudoTerminal(REPLTests.binary, [], environment: ["VOW_HISTORY": history])
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        let m = marker()
        t.type("run sh -c 'sleep \(m)'\r")
        XCTAssertTrue(try waitStarted("^sleep \(m)"), t.plainOutput)
        kill(t.pid, SIGTERM)
        XCTAssertEqual(t.waitExit(), 143, t.plainOutput)
        XCTAssertEqual(try live(m), "", "sleep \(m) outlived the REPL")
    }

    /// Ctrl-C in the REPL cancels `run` and its process is gone; vow leaves no zombie behind.
    func test_ctrlCInTheREPLStopsTheProcess() throws {
        let history = NSTemporaryDirectory() + "vow-history-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: history) }
        let t = try PseudoTerminal(REPLTests.binary, [], environment: ["VOW_HISTORY": history])
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        Thread.sleep(forTimeInterval: 0.1)
        for _ in 0..<3 {
            let m = marker()
            t.clear()
            t.type("run sh -c 'sleep \(m)'\r")
            XCTAssertTrue(try waitStarted("sleep \(m)"), t.plainOutput)
            t.type("\u{3}")
            XCTAssertTrue(t.waitFor("cancelled"), t.plainOutput)
            try assertGone("sleep \(m)")
            // The child was reaped: no zombie child of vow.
            var zombies = ""
            for _ in 0..<100 {
                zombies = try runCommand("ps", ["-o", "stat=,pid=", "--ppid", "\(t.pid)"]).out
                if !zombies.contains("Z") { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            XCTAssertFalse(zombies.contains("Z"), zombies)
        }
        t.type("\u{4}")
        XCTAssertNotNil(t.waitExit())
    }

    /// A child starts with an empty signal mask and the default dispositions, as from a shell.
    func test_aChildStartsWithTheSignalStateOfAShell() throws {
        let r = try vowC("run grep -E 'SigBlk|SigIgn' /proc/self/status")
        let fields = Dictionary(
            uniqueKeysWithValues: r.out.split(separator: "\n").compactMap { line -> (String, UInt64)? in
                let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, let v = UInt64(parts[1], radix: 16) else { return nil }
                return (parts[0], v)
            })
        XCTAssertEqual(fields["SigBlk"], 0, r.out)
        // HUP, INT, QUIT, PIPE, TERM (bits N-1) are not ignored.
        let shellSignals: UInt64 = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 12) | (1 << 14)
        XCTAssertEqual((fields["SigIgn"] ?? .max) & shellSignals, 0, r.out)
        // A pipeline inside the child ends as in a shell: `head` closes, `seq` dies of SIGPIPE.
        let piped = try vowC("run sh -c 'seq 1 10000000 | head -1'")
        XCTAssertEqual(piped.out.trimmingCharacters(in: .newlines), "1")
        XCTAssertEqual(piped.err, "")
        XCTAssertEqual(piped.status, 0)
    }

    /// A program killed by a signal says so, with the shell's status (128 + N).
    func test_aProgramKilledByASignalSaysSo() throws {
        let r = try vowC("run sh -c 'kill -SEGV $$' | catch pick '[message, status, signal]' | to-json")
        XCTAssertEqual(r.out, "[\"sh killed by SIGSEGV\",139,\"SIGSEGV\"]\n", r.err)
        let missing = try vowC("run no-such-program-here")
        XCTAssertTrue(missing.err.contains("cannot start no-such-program-here: no such program on PATH"), missing.err)
    }
}
