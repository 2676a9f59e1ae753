import CStack
import Dispatch
import Foundation
import VowValue

/// A program vow started (`run`, `run --stream`, a `vow-NAME` stage), spawned the way a shell
/// starts a job: in a process group of its own, with an empty signal mask and every signal at its
/// default disposition (vow itself ignores SIGINT, SIGTERM and SIGPIPE and blocks signals on some
/// threads; a child must not inherit either).
///
/// Stopping it (`terminate`) signals the whole group, so that the grandchildren of `sh -c …` stop
/// too: SIGTERM, then SIGKILL after `grace` if anything of the group is still there. vow does not
/// exit while a child it started still runs (`endAll`).
///
/// Threading: every method may be called from any thread. `waitForExit` blocks; the group is
/// signalled only while the child is not reaped (its process ID, and so its group's, cannot be
/// reused before that), under the same lock as the reaping.
public final class ChildProcess: Sendable {
    /// How long a stopped child's group has between SIGTERM and SIGKILL.
    public static let grace: DispatchTimeInterval = .seconds(1)

    /// How a child ended.
    public enum Termination: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// In words: `exited with status 3`, `killed by SIGSEGV`.
        public var description: String {
            switch self {
            case .exited(let s): return "exited with status \(s)"
            case .signalled(let s): return "killed by \(ChildProcess.signalName(s))"
            }
        }

        /// The status a shell would give (`128 + N` for signal N).
        public var status: Int32 {
            switch self {
            case .exited(let s): return s
            case .signalled(let s): return 128 + s
            }
        }
    }

    /// The child's process ID, which is also its process group's ID.
    public let pid: pid_t
    /// The program's name as it was given, for errors.
    public let name: String
    /// vow's ends of the child's standard input, output and error (closed on exec in any other
    /// child).
    public let stdin: FileHandle, stdout: FileHandle, stderr: FileHandle

    private struct State {
        var reaped: Termination?
        var terminating = false
    }
    private let state = Locked(State())

    /// The children not reaped yet.
    private static let live = Locked([pid_t: ChildProcess]())

    private init(pid: pid_t, name: String, stdin: FileHandle, stdout: FileHandle, stderr: FileHandle) {
        self.pid = pid
        self.name = name
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
    }

    /// What an error adds for a program name that is a shell command line (`run "ls | wc -l"`):
    /// `run` takes a program and its arguments, and `sh -c` runs a command line.
    static func shellHint(_ program: String) -> String {
        guard program.contains(where: { " |;&<>$`*".contains($0) }) else { return "" }
        // The words before the first thing only a shell reads: the program and its arguments.
        let words = program.prefix { !"|;&<>$`*".contains($0) }.split(separator: " ").joined(separator: " ")
        let plain = words.isEmpty ? "" : "run \(words), or "
        return "; run takes a program and its arguments, never through a shell: \(plain)for a command line run sh -c '\(program)'"
    }

    /// Starts `argv` (looked up on PATH, never through a shell) with pipes for its standard
    /// input, output and error; a `process` error naming the program when it cannot start.
    public static func spawn(_ argv: [String]) throws(VowError) -> ChildProcess {
        guard let program = argv.first, !program.isEmpty else { throw VowError(.process, "cannot start a program with no name") }
        ignoreBrokenPipes
        // Pipes closed on exec: another child started meanwhile by another thread inherits none.
        var fds: [[Int32]] = []
        for _ in 0..<3 {
            var p: [Int32] = [-1, -1]
            guard vow_pipe_cloexec(&p) == 0 else {
                let reason = String(cString: strerror(errno))
                for q in fds { close(q[0]); close(q[1]) }
                throw VowError(.process, "cannot start \(program): \(reason)")
            }
            fds.append(p)
        }
        let (inp, out, err) = (fds[0], fds[1], fds[2])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inp[0], 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup(FileName.system($0)) } + [nil]
        defer { for a in cArgs { free(a) } }
        let started = posix_spawnp(&pid, program, &actions, &attributes, cArgs, vow_environment())
        close(inp[0])
        close(out[1])
        close(err[1])
        guard started == 0 else {
            close(inp[1])
            close(out[0])
            close(err[0])
            let reason = started == ENOENT
                ? (program.contains("/") ? "no such file" : "no such program on PATH")
                : String(cString: strerror(started))
            throw VowError(.process, "cannot start \(program): \(reason)\(shellHint(program))")
        }
        let child = ChildProcess(
            pid: pid, name: program, stdin: FileHandle(fileDescriptor: inp[1], closeOnDealloc: true),
            stdout: FileHandle(fileDescriptor: out[0], closeOnDealloc: true), stderr: FileHandle(fileDescriptor: err[0], closeOnDealloc: true))
        live.withLock { $0[pid] = child }
        return child
    }

    /// Waits until the child has exited and reaps it (once; later calls give the same answer).
    @discardableResult
    public func waitForExit() -> Termination {
        if let done = state.withLock({ $0.reaped }) { return done }
        // Waits without reaping, so that the group may still be signalled until the lock below.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let ended = state.withLock { s -> Termination in
            if let done = s.reaped { return done }
            var status: Int32 = 0
            var r: pid_t
            repeat { r = waitpid(pid, &status, 0) } while r < 0 && errno == EINTR
            // WIFSIGNALED / WEXITSTATUS, which Swift does not import as functions.
            let signal = status & 0x7f
            let t: Termination = r < 0 ? .exited(-1) : (signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal))
            s.reaped = t
            return t
        }
        _ = Self.live.withLock { $0.removeValue(forKey: pid) }
        return ended
    }

    /// Stops the child and its whole process group: SIGTERM now, SIGKILL after `grace` to
    /// whatever of the group is left. Nothing happens once the child has been reaped.
    public func terminate() {
        let first = state.withLock { s -> Bool in
            guard s.reaped == nil, !s.terminating else { return false }
            s.terminating = true
            signalGroup(SIGTERM)
            // A stopped job (SIGSTOP) cannot act on SIGTERM until it is continued.
            signalGroup(SIGCONT)
            return true
        }
        guard first else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.grace) { [self] in
            state.withLock { s in
                if s.reaped == nil { signalGroup(SIGKILL) }
            }
        }
    }

    /// Sends `signal` to the child's group (the child alone if the group is gone); call it under
    /// the state's lock, with the child not reaped.
    private func signalGroup(_ signal: Int32) {
        if kill(-pid, signal) != 0 { kill(pid, signal) }
    }

    /// Stops every child still running (as `terminate`) and waits until each has been reaped:
    /// vow calls it before it exits, so that nothing it started outlives it.
    public static func endAll() {
        let children = live.withLock { Array($0.values) }
        for c in children { c.terminate() }
        for c in children { c.waitForExit() }
    }

    /// `SIGSEGV` for 11; `signal N` for a number with no name here.
    public static func signalName(_ n: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT",
            SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2",
            SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
        ]
        return names[n] ?? "signal \(n)"
    }
}

/// Ignores SIGPIPE once, process-wide: writes to a closed pipe fail with EPIPE instead. (A child
/// starts with SIGPIPE at its default again: `ChildProcess.spawn`.)
let ignoreBrokenPipes: Void = {
    signal(SIGPIPE, SIG_IGN)
}()
