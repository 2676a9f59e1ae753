import Foundation

/// The pipes of one child process, served on a thread of their own with `poll`: its standard
/// input written, its standard output and error read, all three at once, so that a process that
/// writes a lot before reading its input cannot deadlock against vow, and so that N processes
/// started together take N threads that wake when their process does. (Blocking reads on the
/// shared dispatch pool took three of its threads a process, and the pool adds threads slowly:
/// eight processes of one second each finished over five seconds.)
enum ProcessIO {
    /// Starts a thread that writes `input` to `stdin` (then closes it), reads `stdout` and
    /// `stderr` to their ends, and calls `done` with what they gave. With `stdout` nil, only
    /// standard error is read (the caller reads standard output itself).
    static func serve(
        name: String, input: [UInt8], stdin: FileHandle, stdout: FileHandle?, stderr: FileHandle,
        done: @escaping @Sendable (_ out: [UInt8], _ err: [UInt8]) -> Void
    ) {
        let handles = UncheckedBox((stdin: stdin, stdout: stdout, stderr: stderr))
        let thread = Thread {
            let h = handles.value
            let (out, err) = exchange(input: input, stdin: h.stdin, stdout: h.stdout, stderr: h.stderr)
            done(out, err)
        }
        thread.name = name
        thread.start()
    }

    /// The poll loop of `serve`, on the calling thread.
    static func exchange(input: [UInt8], stdin: FileHandle, stdout: FileHandle?, stderr: FileHandle) -> ([UInt8], [UInt8]) {
        var out: [UInt8] = [], err: [UInt8] = []
        var written = 0
        var stdinOpen = true
        if input.isEmpty {
            try? stdin.close()
            stdinOpen = false
        } else {
            let fd = stdin.fileDescriptor
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        var outOpen = stdout != nil, errOpen = true
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        /// Reads what `fd` has into `into`; false at its end (or on an error).
        func drain(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            return n < 0 && (errno == EINTR || errno == EAGAIN)
        }
        while outOpen || errOpen || stdinOpen {
            var fds: [pollfd] = []
            if outOpen, let stdout { fds.append(pollfd(fd: stdout.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            if errOpen { fds.append(pollfd(fd: stderr.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            if stdinOpen { fds.append(pollfd(fd: stdin.fileDescriptor, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for p in fds where p.revents != 0 {
                if outOpen, let stdout, p.fd == stdout.fileDescriptor {
                    outOpen = drain(p.fd, into: &out)
                } else if errOpen, p.fd == stderr.fileDescriptor {
                    errOpen = drain(p.fd, into: &err)
                } else if stdinOpen, p.fd == stdin.fileDescriptor {
                    // POLLERR / POLLHUP: the process closed its input; the rest is not wanted.
                    guard p.revents & Int16(POLLOUT) != 0 else {
                        try? stdin.close()
                        stdinOpen = false
                        continue
                    }
                    let n = input.withUnsafeBytes { Foundation.write(p.fd, $0.baseAddress! + written, $0.count - written) }
                    if n > 0 { written += n }
                    if written == input.count || (n < 0 && errno != EINTR && errno != EAGAIN) {
                        try? stdin.close()
                        stdinOpen = false
                    }
                }
            }
        }
        return (out, err)
    }
}
