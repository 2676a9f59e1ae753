import Dispatch
import Foundation
import Synchronization
import VowPromises
import VowRuntime
import VowSyntax
import VowValue
import VowHTTP

extension Runner {
    /// Runs the clean-up that `defer` registered, last first, within `cleanupGrace` seconds in
    /// all; a Ctrl-C skips the rest. A clean-up that fails says so on stderr. The REPL calls it
    /// when it ends; a script, when its statements and jobs are done or it was interrupted.
    public func runDeferred() {
        let steps = session.onExecutor { self.session.takeDeferred() }
        guard !steps.isEmpty else { return }
        cleaning.store(true, ordering: .relaxed)
        defer { cleaning.store(false, ordering: .relaxed) }
        let deadline = DispatchTime.now() + Self.cleanupGrace
        let ex = session.executor
        for step in steps {
            if skipCleanup.load(ordering: .relaxed) { break }
            let finished = DispatchSemaphore(value: 0)
            ex.enqueue { [self] in
                let p = step()
                cleanup.withLock { $0 = p }
                p.whenSettled(on: ex, bookkeeping: true) { [self] r in
                    if case .failure(let e) = r, toVowError(e).kind != .cancelled {
                        clearSpinner { errorSink(renderer.error(toVowError(e))) }
                    }
                    finished.signal()
                }
            }
            if finished.wait(timeout: deadline) == .timedOut {
                cleanup.withLock { $0 }?.cancel(reason: "cancelled: the clean-up took longer than \(Int(Self.cleanupGrace))s")
                errorSink("defer: the clean-up took longer than \(Int(Self.cleanupGrace))s; the rest is skipped")
                break
            }
        }
        cleanup.withLock { $0 = nil }
    }

    /// JavaScript mode: like node, a script does not end while a timer it started is pending, a
    /// request or process it started is running, or a handler is still to run (what `all`, `race` and `timeout` no longer wait for runs on
    /// and prints). Ctrl-C ends the wait.
    func waitUntilQuiescent() {
        while !interrupted.load(ordering: .relaxed) {
            if session.executor.waitUntilQuiescent(timeout: .milliseconds(50)) {
                if WorkInFlight.pending == 0 {
                    // A request may have settled between the two checks: quiet twice is quiet.
                    if session.executor.waitUntilQuiescent(timeout: .milliseconds(50)) && WorkInFlight.pending == 0 { return }
                } else {
                    usleep(1_000)
                }
            }
        }
    }
}
