import Dispatch
import Foundation
import Synchronization
import VowPromises
import VowRuntime
import VowSyntax
import VowValue
import VowHTTP

extension Runner {
    /// Draws the spinner (the stage being waited for, and for how long) in its line of the
    /// terminal's live region every 100 ms while a statement has been pending for more than
    /// 150 ms, until `done` is signalled; the line is taken away then.
    func drawSpinner(until done: DispatchSemaphore) {
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        var frame = 0
        while done.wait(timeout: .now() + 0.1) == .timedOut {
            guard let (_, run, since) = running.withLock({ $0 }), Date().timeIntervalSince(since) > 0.15 else { continue }
            let waitingFor = run.stages.first { $0.promise.isPending }?.text ?? "…"
            let shown = waitingFor.count > 60 ? String(waitingFor.prefix(59)) + "…" : waitingFor
            let line = "\(frames[frame % frames.count]) \(shown) \(String(format: "%.1fs", Date().timeIntervalSince(since)))"
            spinnerLine.withLock { drawn in
                // Checked under the lock: a result printed meanwhile has ended the wait.
                guard running.withLock({ $0 != nil }) else { return }
                if drawn == nil { drawn = LiveRegion.shared.add() }
                if let drawn { LiveRegion.shared.set(drawn, line) }
            }
            frame += 1
        }
        spinnerLine.withLock { drawn in
            if let drawn { LiveRegion.shared.remove(drawn) }
            drawn = nil
        }
    }

    /// Runs `body` (which prints) with the spinner hidden, if one is on screen; inside another
    /// `clearSpinner` on the same thread (a result whose printing goes through the guarded
    /// output), runs it as it is. With no spinner (a script, a pipe) the thread is not asked:
    /// only the guarded output of a spinner nests.
    @discardableResult
    func clearSpinner<R>(_ body: () -> R) -> R {
        guard spinner else { return spinnerLine.withLock { _ in body() } }
        if Thread.current.threadDictionary[Self.clearingKey] != nil { return body() }
        return spinnerLine.withLock { drawn in
            if let shown = drawn { LiveRegion.shared.set(shown, "") }
            Thread.current.threadDictionary[Self.clearingKey] = true
            defer { Thread.current.threadDictionary[Self.clearingKey] = nil }
            return body()
        }
    }

    static let clearingKey = "vow.clearSpinner"

    /// With the spinner on, everything written to standard output (`print`, `tap`) first erases
    /// the spinner line, as results do.
    func guardOutputAgainstSpinner() {
        session.output.guardWrites { [weak self] write in
            guard let self else { return write() }
            self.clearSpinner(write)
        }
    }
}
