import Foundation
import Synchronization
import VowPromises
import VowValue

/// Runs `argv` (looked up on PATH, never through a shell) with `stdin`; fulfils with its standard
/// output, or rejects with kind `process` keeping status, stdout and stderr. Cancelling stops its
/// whole process group (`ChildProcess.terminate`). A program that succeeds with something on its
/// standard error has it passed to `stderr` when one is given (a `vow-NAME` stage's messages).
func runProcess(
    _ argv: [String], stdin stdinBytes: [UInt8], name: String, on ex: any PromiseExecutor,
    stderr warnings: (@Sendable (String) -> Void)? = nil
) -> Promise<String> {
    let (p, r) = Promise<String>.pending(name: name, on: ex)
    let child: ChildProcess
    do { child = try ChildProcess.spawn(argv) } catch {
        r.reject(error)
        return p
    }
    r.onCancel { child.terminate() }
    WorkInFlight.track(p)
    ProcessIO.serve(
        name: "vow.process", input: stdinBytes, stdin: child.stdin, stdout: child.stdout, stderr: child.stderr
    ) { o, e in
        let ended = child.waitForExit()
        let stdout = String(decoding: o, as: UTF8.self)
        let stderr = String(decoding: e, as: UTF8.self)
        // The outcome arrives as a task, as a child process's exit does in JavaScript's event loop.
        if ended == .exited(0) {
            if let warnings, !stderr.isEmpty { warnings(stderr) }
            ex.enqueueTask { r.fulfill(stdout) }
        } else {
            let e = processFailure(child, ended, stdout: stdout, stderr: stderr)
            ex.enqueueTask { r.reject(e) }
        }
    }
    return p
}

/// The `process` error of a program that did not succeed: `sh exited with status 3: …` or `vow-x
/// killed by SIGSEGV`, keeping `status` (128 + N for signal N, as a shell gives), `signal` when
/// one ended it, `stdout` (when it was read) and `stderr`.
func processFailure(_ child: ChildProcess, _ ended: ChildProcess.Termination, stdout: String?, stderr: String) -> VowError {
    var d = Record()
    d["status"] = .int(Int(ended.status))
    if case .signalled(let s) = ended { d["signal"] = .string(ChildProcess.signalName(s)) }
    if let stdout { d["stdout"] = .string(stdout) }
    d["stderr"] = .string(stderr)
    let tail = stderr.isEmpty ? "" : ": " + stderr.trimmingCharacters(in: .whitespacesAndNewlines).prefix(500)
    return VowError(.process, "\(child.name) \(ended.description)\(tail)", details: d)
}

/// Carries a non-Sendable value to one other thread that alone uses it.
///
/// Sendable: only as safe as its use: the value must go to one thread and be used there alone from
/// then on. The compiler cannot check that, so each use must.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
