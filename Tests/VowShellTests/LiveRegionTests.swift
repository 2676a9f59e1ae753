import Foundation
import TestSupport
import XCTest

@testable import VowValue

/// What is live on the terminal (the spinner, `each --progress`, download bars) is drawn in one
/// region of its own, erased before any other output and at the end: checked on the screen of a
/// real terminal emulator (tmux), as a person would see it.
final class LiveRegionTests: ServerTestCase {
    /// The tmux server of this test class's own (`-L`), never a person's.
    let socket = "vow-live-\(getpid())"

    /// Runs `tmux -L SOCKET ARGS` (10 s at most); its standard output when `capture`. A command
    /// that may start the server is spawned directly, its standard streams on /dev/null: the
    /// server it forks would inherit whatever Foundation's `Process` watches the child by (and a
    /// captured pipe), and the wait for it would never end.
    @discardableResult
    func tmux(_ arguments: [String], capture: Bool = false) throws -> String {
        let argv = ["timeout", "10", "tmux", "-L", socket] + arguments
        if capture { return try runCommand(argv[0], Array(argv.dropFirst())).out }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, argv[0], &actions, nil, cArgs, cEnv) == 0 else { throw POSIXError(.ECHILD) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return ""
    }

    func test_theSpinnerProgressAndVerboseOutputNeverOverwriteEachOther() throws {
        guard (try? runCommand("tmux", ["-V"]).status) == 0 else { throw XCTSkip("tmux is not installed") }
        let session = "vow-live-\(UInt32.random(in: 0...UInt32.max))"
        let history = NSTemporaryDirectory() + "vow-history-\(UUID().uuidString)"
        defer {
            _ = try? tmux(["kill-server"])
            try? FileManager.default.removeItem(atPath: history)
        }
        try tmux(["new-session", "-d", "-s", session, "-x", "60", "-y", "50", "env VOW_HISTORY=\(history) TERM=xterm \(REPLTests.binary)"])
        func screen() throws -> [String] { try tmux(["capture-pane", "-p", "-S", "-", "-t", session], capture: true).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
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
