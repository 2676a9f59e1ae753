import Foundation
import Synchronization
import VowPromises
import VowValue

/// Runs `argv` (looked up on PATH, never through a shell) with `stdin`; fulfils with its standard
/// output, or rejects with kind `process` keeping status, stdout and stderr. Cancelling kills it.
func runProcess(_ argv: [String], stdin stdinBytes: [UInt8], name: String, on ex: any PromiseExecutor) -> Promise<String> {
    let (p, r) = Promise<String>.pending(name: name, on: ex)
    let proc: Process, out: Pipe, err: Pipe, inp: Pipe
    do { (proc, out, err, inp) = try startProcess(argv) } catch {
        r.reject(error)
        return p
    }
    // SIGKILL: the child inherits the signal mask of the thread that started it, where SIGTERM
    // may be blocked.
    let pid = proc.processIdentifier
    r.onCancel { if proc.isRunning { kill(pid, SIGKILL) } }
    WorkInFlight.track(p)
    let argv0 = argv[0]
    ProcessIO.serve(
        name: "vow.process", input: stdinBytes, stdin: inp.fileHandleForWriting, stdout: out.fileHandleForReading,
        stderr: err.fileHandleForReading
    ) { o, e in
        proc.waitUntilExit()
        let stdout = String(decoding: o, as: UTF8.self)
        let stderr = String(decoding: e, as: UTF8.self)
        // The outcome arrives as a task, as a child process's exit does in JavaScript's event loop.
        if proc.terminationStatus == 0 && proc.terminationReason == .exit {
            ex.enqueueTask { r.fulfill(stdout) }
        } else {
            var d = Record()
            d["status"] = .int(Int(proc.terminationStatus))
            d["stdout"] = .string(stdout)
            d["stderr"] = .string(stderr)
            let tail = stderr.isEmpty ? "" : ": " + stderr.trimmingCharacters(in: .whitespacesAndNewlines).prefix(500)
            let e = VowError(.process, "\(argv0) exited with status \(proc.terminationStatus)\(tail)", details: d)
            ex.enqueueTask { r.reject(e) }
        }
    }
    return p
}

/// Starts `argv` (looked up on PATH, never through a shell) with pipes for its standard output,
/// error and input; a `process` error when it cannot start.
func startProcess(_ argv: [String]) throws(VowError) -> (Process, stdout: Pipe, stderr: Pipe, stdin: Pipe) {
    // A process that exits without reading all its input must not kill vow with SIGPIPE.
    ignoreBrokenPipes
    let proc = Process()
    proc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    proc.arguments = ["--"] + argv
    let out = Pipe(), err = Pipe(), inp = Pipe()
    proc.standardOutput = out
    proc.standardError = err
    proc.standardInput = inp
    do { try proc.run() } catch {
        throw VowError(.process, "cannot start \(argv[0]): \(error.localizedDescription)")
    }
    return (proc, out, err, inp)
}

/// Ignores SIGPIPE once, process-wide: writes to a closed pipe fail with EPIPE instead.
let ignoreBrokenPipes: Void = {
    signal(SIGPIPE, SIG_IGN)
}()

/// Carries a non-Sendable value to one other thread that alone uses it.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
