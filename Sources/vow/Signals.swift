import Dispatch
import Foundation
import Synchronization

/// How vow hears SIGINT and SIGTERM.
///
/// Both are blocked from the first line of `main()`, before any thread exists, so every thread
/// made later inherits the mask: a signal that arrives before its dispatch source is registered
/// waits, pending, for the source's `signalfd` instead of being lost (it was ignored while the
/// source registered) or killing vow half-way. Until a runner takes the signals over, one ends
/// vow at once with the shell's status (130, 143), as the default action would. A program vow
/// starts gets an empty mask (`ChildProcess`).
enum Signals {
    /// What a signal does once a runner (or the REPL) has taken it over.
    private static let handlers = Mutex<(interrupt: (@Sendable () -> Void)?, terminate: (@Sendable () -> Void)?)>((nil, nil))
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Blocks SIGINT and SIGTERM in the calling thread; call it before any thread is started.
    static func hold() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Listens for both signals; until `take` is called, either ends vow with its status.
    static func listen() {
        for signal in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler {
                let taken = handlers.withLock { signal == SIGINT ? $0.interrupt : $0.terminate }
                guard let taken else { _exit(128 + signal) }
                taken()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// From now on, SIGINT calls `interrupt` (Ctrl-C cancels the running statement instead of
    /// ending vow) and SIGTERM `terminate` (for a script: the statement cancelled, `defer`'s
    /// clean-up run, status 143).
    static func take(interrupt: @escaping @Sendable () -> Void, terminate: @escaping @Sendable () -> Void) {
        handlers.withLock { $0 = (interrupt, terminate) }
    }
}
