#if canImport(Glibc)
    import Glibc
#endif

/// What is live on the terminal (the spinner, the progress bars of downloads, `each --progress`)
/// drawn in one region of its own at the bottom of standard error, one line per live task, as
/// cargo and pnpm draw theirs: every other write to the terminal (a result, `print`, `--verbose`,
/// an error) erases the region first and draws it again below what it wrote, and a task that ends
/// takes its line away. Nothing is drawn when standard error is not a terminal or `TERM` is
/// `dumb`; lines are cut to the terminal's width, read at each drawing (so a resize is followed).
///
/// Threading: every method may be called from any thread; drawing and the writes it surrounds
/// happen under one lock, so they never interleave.
public final class LiveRegion: Sendable {
    /// The region on standard error.
    public static let shared = LiveRegion(fd: 2)

    /// One task's line in the region.
    public struct Line: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct State {
        var lines: [(id: Int, text: String)] = []
        var next = 0
        /// Lines on screen now; the cursor is at the end of the last.
        var drawn = 0
        /// The last write left the cursor inside a line (`print --no-newline`): nothing is drawn
        /// until a write ends that line, so the region never splits it.
        var midLine = false
        /// Nothing is drawn (the REPL's prompt is on screen).
        var paused = false
    }
    private let state = Locked(State())
    private let fd: Int32
    /// Whether anything is drawn at all.
    public let isEnabled: Bool
    /// Whether standard output is the same kind of terminal (its writes erase the region too).
    private let outputIsTerminal: Bool

    init(fd: Int32) {
        self.fd = fd
        let term = getenv("TERM").map { String(cString: $0) }
        isEnabled = isatty(fd) == 1 && term != "dumb"
        outputIsTerminal = isatty(1) == 1
    }

    /// A new line at the bottom of the region showing `text` (an empty text shows nothing yet);
    /// nil when nothing is drawn here.
    public func add(_ text: String = "") -> Line? {
        guard isEnabled else { return nil }
        return state.withLock { s in
            s.next += 1
            s.lines.append((s.next, text))
            if !text.isEmpty { redraw(&s) }
            return Line(id: s.next)
        }
    }

    /// Shows `text` on `line` (an empty text hides the line).
    public func set(_ line: Line, _ text: String) {
        state.withLock { s in
            guard let i = s.lines.firstIndex(where: { $0.id == line.id }), s.lines[i].text != text else { return }
            s.lines[i].text = text
            redraw(&s)
        }
    }

    /// Takes `line` away.
    public func remove(_ line: Line) {
        state.withLock { s in
            guard let i = s.lines.firstIndex(where: { $0.id == line.id }) else { return }
            s.lines.remove(at: i)
            redraw(&s)
        }
    }

    /// Takes every line away and draws nothing more until `resume` (a statement has ended: what
    /// it left live, a cancelled `each`'s progress or a background download's bar, is not drawn
    /// over the REPL's prompt).
    public func removeAllAndPause() {
        state.withLock { s in
            erase(&s)
            s.lines = []
            s.paused = true
        }
    }

    /// Draws again after `removeAllAndPause` (a statement starts).
    public func resume() {
        state.withLock { s in
            s.paused = false
            draw(&s)
        }
    }

    /// Runs `write`, which writes to descriptor `target` text ending a line or not (`endsLine`),
    /// with the region erased before it and drawn again after it.
    public func around(fd target: Int32, endsLine: Bool, _ write: () -> Void) {
        guard isEnabled, target == fd || (target == 1 && outputIsTerminal) else { return write() }
        state.withLock { s in
            erase(&s)
            write()
            s.midLine = !endsLine
            draw(&s)
        }
    }

    private func redraw(_ s: inout State) {
        erase(&s)
        draw(&s)
    }

    /// Erases the lines drawn, leaving the cursor at the start of the first.
    private func erase(_ s: inout State) {
        guard s.drawn > 0 else { return }
        raw("\r\u{1B}[2K" + String(repeating: "\u{1B}[1A\u{1B}[2K", count: s.drawn - 1))
        s.drawn = 0
    }

    /// Draws the lines that show something, each cut to the terminal's width.
    private func draw(_ s: inout State) {
        guard !s.midLine, !s.paused else { return }
        let shown = s.lines.filter { !$0.text.isEmpty }
        guard !shown.isEmpty else { return }
        // Room is left after the last line for the terminal's own echo of `^C`, which must not
        // wrap to a line the erasing would not reach.
        let width = max(10, columns() - 3)
        raw(shown.map { DisplayWidth.truncate(TerminalText.visibleLine($0.text), to: width) }.joined(separator: "\n"))
        s.drawn = shown.count
    }

    /// The terminal's width now (80 when it cannot tell).
    private func columns() -> Int {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Writes `text` to the terminal as it is (a failure is not vow's output's to report).
    private func raw(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { FileWriter.writeAll($0, to: fd) }
    }
}
