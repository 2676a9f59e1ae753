import Foundation
import VowPromises
import VowValue

/// The lines of a file, of standard input or of a process's output, as a stream: read in 64 KiB
/// pieces on a thread of their own as the consumer takes them, so that a file of any size runs
/// in bounded memory and a process's lines arrive as it prints them.
enum LineStream {
    /// The longest line taken (64 MiB): a file or a process's output with no line break ends
    /// the stream with an error instead of growing without bound.
    static let maxLine = 64 << 20

    /// A stream of the lines of `fd`, read on a thread of its own; `closing` says whether the
    /// thread closes `fd` at the end. `ended` runs after the last line and gives the error that
    /// ends the stream, if any (a process's exit status).
    static func start(
        fd: Int32, label: String, closing: Bool, maxLine: Int = LineStream.maxLine, ended: @escaping @Sendable () -> (any Error)? = { nil }
    ) -> ValueStream {
        let stream = ValueStream(label: label)
        let thread = Thread {
            // The start of a line that the last piece read did not end.
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            var failure: (any Error)? = nil
            reading: while !stream.isCancelled {
                let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = VowError(.io, "cannot read \(label): \(String(cString: strerror(errno)))")
                    break
                }
                if n == 0 { break }
                let lines = chunk.withUnsafeBufferPointer { split(UnsafeBufferPointer(rebasing: $0[0..<n]), after: &pending) }
                if !lines.isEmpty, !stream.push(lines) { break reading }
                if pending.count > maxLine {
                    failure = VowError(.io, "a line of \(label) is over the limit of \(maxLine) bytes", details: ["limit": .int(maxLine)])
                    pending = []
                    break
                }
            }
            if !stream.isCancelled {
                if failure == nil, !pending.isEmpty { _ = stream.push([line(pending[...])]) }
                if closing { close(fd) }
                stream.finish(failure ?? ended())
            } else if closing {
                close(fd)
            }
        }
        thread.name = "vow.lines"
        thread.start()
        return stream
    }

    /// The lines that `piece` ends, `pending` (the start of a line an earlier piece left) before
    /// the first; what follows the last line break is left in `pending`. Line breaks are found
    /// with `memchr`, and a line within the piece is made from it without a copy.
    static func split(_ piece: UnsafeBufferPointer<UInt8>, after pending: inout [UInt8]) -> [Value] {
        guard let base = piece.baseAddress else { return [] }
        var lines: [Value] = []
        var from = 0
        while from < piece.count, let found = memchr(base + from, 0x0A, piece.count - from) {
            let nl = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            if pending.isEmpty {
                lines.append(line(UnsafeBufferPointer(rebasing: piece[from..<nl])))
            } else {
                pending.append(contentsOf: piece[from..<nl])
                lines.append(line(pending[...]))
                pending.removeAll(keepingCapacity: true)
            }
            from = nl + 1
        }
        pending.append(contentsOf: piece[from...])
        return lines
    }

    /// One line without its line break (and a carriage return before it): text, or bytes when
    /// it is not UTF-8.
    static func line(_ bytes: ArraySlice<UInt8>) -> Value {
        bytes.withUnsafeBufferPointer { line($0) }
    }

    /// `line` of bytes in memory.
    static func line(_ bytes: UnsafeBufferPointer<UInt8>) -> Value {
        let body = bytes.last == 0x0D ? UnsafeBufferPointer(rebasing: bytes.dropLast()) : bytes
        if let s = String(validating: body, as: UTF8.self) { return .string(s) }
        return .bytes(Array(body))
    }

    /// The lines `argv` prints on its standard output, as it prints them; its standard error is
    /// kept for the error a non-zero exit ends the stream with. Cancelling the stream stops the
    /// process's whole group (`ChildProcess.terminate`).
    static func process(_ argv: [String], stdin stdinBytes: [UInt8]) throws -> ValueStream {
        let child = try ChildProcess.spawn(argv)
        let stderr = Locked([UInt8]())
        let stderrRead = DispatchSemaphore(value: 0)
        // Standard input and error are served on a thread of their own; the lines are read below.
        ProcessIO.serve(name: "vow.process", input: stdinBytes, stdin: child.stdin, stdout: nil, stderr: child.stderr) { _, e in
            stderr.withLock { $0 = e }
            stderrRead.signal()
        }
        let fd = dup(child.stdout.fileDescriptor)
        try? child.stdout.close()
        let stream = start(fd: fd, label: "lines of \(argv[0])", closing: true) {
            stderrRead.wait()
            let ended = child.waitForExit()
            if ended == .exited(0) { return nil }
            return processFailure(child, ended, stdout: nil, stderr: String(decoding: stderr.withLock { $0 }, as: UTF8.self))
        }
        // The reader ends without asking `ended` when the stream was cancelled: the child is
        // reaped here instead.
        stream.onCancel {
            child.terminate()
            Thread.detachNewThread { child.waitForExit() }
        }
        return stream
    }
}
