import Foundation
import VowValue

/// `each … --progress`: a line of the terminal's live region (`LiveRegion`), redrawn at most ten
/// times a second, saying how many elements are done of how many, how many failed, the rate and
/// the time left; taken away at the end.
/// Drawn only when stderr is a terminal (never into a pipe or a file). Automatic in a script on a
/// terminal for more than 20 elements once they have run for a second. Used on the session's
/// executor only.
///
/// Sendable: its `var`s are touched only on the session executor, from `EachRunner`'s callbacks,
/// one at a time; the other fields never change.
final class EachProgress: @unchecked Sendable {
    let total: Int
    /// Drawn only after a second (the automatic kind), or at once (`--progress`).
    let automatic: Bool
    private let began = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var done = 0
    private var failed = 0
    private var line: LiveRegion.Line?

    /// A progress line for `total` elements, or nil when none is to be drawn: `asked` is
    /// `--progress`; otherwise only for more than 20 elements when the session draws progress
    /// by itself (a script on a terminal).
    static func make(total: Int, asked: Bool, session: Session) -> EachProgress? {
        guard LiveRegion.shared.isEnabled, asked || (session.autoProgress && total > 20) else { return nil }
        return EachProgress(total: total, automatic: !asked)
    }

    private init(total: Int, automatic: Bool) {
        self.total = total
        self.automatic = automatic
    }

    /// One element ended, fulfilled or not.
    func finished(ok: Bool) {
        done += 1
        if !ok { failed += 1 }
        let now = ContinuousClock.now
        if automatic && now - began < .seconds(1) { return }
        if let lastDraw, now - lastDraw < .milliseconds(100) { return }
        lastDraw = now
        let elapsed = max(0.001, (now - began).inSeconds)
        let rate = Double(done) / elapsed
        var line = "each: \(done)/\(total) done"
        if failed > 0 { line += ", \(failed) failed" }
        line += String(format: ", %.1f/s", rate)
        if rate > 0, done < total {
            line += ", " + TimeText.clock(Double(total - done) / rate) + " left"
        }
        if self.line == nil { self.line = LiveRegion.shared.add() }
        if let shown = self.line { LiveRegion.shared.set(shown, line) }
    }

    /// The run ended: the line is taken away.
    func end() {
        if let line { LiveRegion.shared.remove(line) }
        line = nil
    }
}
