import Foundation
import TestSupport
import XCTest

@testable import VowValue

/// What is live on the terminal (the spinner, `each --progress`, download bars) is drawn in one
/// region of its own, erased before any other output and at the end: checked on the screen of a
/// real terminal emulator (tmux), as a person would see it.
final class LiveRegionTests: ServerTestCase {
    /// Runs `tmux ARGS`; its standard output.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try runCommand("tmux", arguments).out
    }

    func test_theSpinnerProgressAndVerboseOutputNeverOverwriteEachOther() throws {
        guard (try? runCommand("tmux", ["-V"]).status) == 0 else { throw XCTSkip("tmux is not installed") }
        let session = "vow-live-\(UInt32.random(in: 0...UInt32.max))"
        let history = NSTemporaryDirectory() + "vow-history-\(UUID().uuidString)"
        defer {
            _ = try? tmux(["kill-session", "-t", session])
            try? FileManager.default.removeItem(atPath: history)
        }
        try tmux(["new-session", "-d", "-s", session, "-x", "60", "-y", "50", "env VOW_HISTORY=\(history) TERM=xterm \(REPLTests.binary)"])
        func screen() throws -> [String] { try tmux(["capture-pane", "-p", "-S", "-", "-t", session]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        /// Waits (10 s at most) for a line of the screen that `matches`.
        func waitFor(_ matches: (String) -> Bool) throws -> Bool {
            for _ in 0..<200 {
                if try screen().contains(where: matches) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
        let bare: (String) -> Bool = { $0.trimmingCharacters(in: .whitespaces) == "vow>" }
        XCTAssertTrue(try waitFor(bare))
        let source = "echo [1, 2, 3, 4, 5, 6] | each (delay 300ms | then fetch \"\(base)/echo?n={}\" --verbose | status) --limit 2 --progress | len"
        try tmux(["send-keys", "-t", session, "-l", source])
        try tmux(["send-keys", "-t", session, "Enter"])
        // While it runs, the live lines are at the bottom and cut to the width.
        let started = try waitFor { $0.hasPrefix("each: ") }
        let during = try screen()
        XCTAssertTrue(started, during.joined(separator: "\n"))
        for line in during { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 60, line) }
        let ended = try waitFor(bare)
        let shown = try screen()
        XCTAssertTrue(ended, shown.joined(separator: "\n"))
        let text = shown.joined(separator: "\n")
        // Every request line is whole, on a line of its own.
        for n in 1...6 { XCTAssertTrue(shown.contains("> GET /echo?n=\(n) HTTP/1.1"), text) }
        // Nothing live is left on the screen, and nothing live was glued to other output.
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        for line in shown {
            XCTAssertFalse(line.hasPrefix("each: "), text)
            XCTAssertFalse(frames.contains { line.contains($0) }, text)
        }
        // The result follows the exchanges, once.
        XCTAssertEqual(shown.filter { $0 == "6" }.count, 1, text)
        try tmux(["send-keys", "-t", session, "C-d"])
    }

    /// `TERM=dumb`: no escape sequence at all, neither colours nor the live region's; the same
    /// script on an xterm gets both.
    func test_aDumbTerminalGetsNoEscapeSequences() throws {
        let source = "echo [1, 2, 3, 4] | each (delay 400ms | then echo {n: 1}) --limit 1 --progress | pick '[0]'"
        for (term, escapes) in [("dumb", false), ("xterm", true)] {
            let t = try PseudoTerminal(REPLTests.binary, ["-c", source], environment: ["TERM": term])
            XCTAssertEqual(t.waitExit(), 0)
            XCTAssertEqual(t.output.contains("\u{1B}["), escapes, "TERM=\(term): \(t.output.debugDescription)")
            XCTAssertTrue(PseudoTerminal.strip(t.output).contains("\"n\": 1"), t.output)
        }
    }
}
