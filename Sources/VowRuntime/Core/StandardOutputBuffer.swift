import Dispatch
import Foundation
import VowValue

/// Standard output when it is not a terminal (a pipe, a file): text is gathered and written in
/// large pieces instead of one `write` per result, as node does with a pipe. It is written out
/// when 64 KiB have gathered, 5 ms after the first unwritten text at the latest, before anything
/// goes to standard error (so that the two keep their order on one pipe), and before vow exits.
/// On a terminal every piece is written at once.
public final class StandardOutputBuffer: Sendable {
    /// The buffer of standard output (file descriptor 1).
    public static let shared = StandardOutputBuffer(fd: 1)

    private let fd: Int32
    private let state = Locked((bytes: [UInt8](), flushScheduled: false))
    /// Held by the one thread writing out: what is taken from `state` is written before anything
    /// taken after it, and a `flush` returns only once what was gathered before it is written,
    /// by itself or by a write already under way (the flush before exit used to find the buffer
    /// emptied by the timed flush still writing it, and the process ended with the output lost).
    private let writing = Locked(())
    /// Called inside the write of each batch (tests hold a write there).
    private let beforeWrite: (@Sendable () -> Void)?
    private static let limit = 64 << 10
    private static let flusher = DispatchQueue(label: "vow.stdout")

    init(fd: Int32, beforeWrite: (@Sendable () -> Void)? = nil) {
        self.fd = fd
        self.beforeWrite = beforeWrite
    }

    /// Adds `text`; writes out what has gathered when it reaches the limit.
    func append(_ text: String) { append(bytes: text.utf8) }

    /// Adds `bytes` (a binary body); writes out what has gathered when it reaches the limit.
    func append<Bytes: Sequence<UInt8>>(bytes: Bytes) {
        let (full, schedule) = state.withLock { s -> (Bool, Bool) in
            s.bytes.append(contentsOf: bytes)
            if s.bytes.count >= Self.limit { return (true, false) }
            if s.flushScheduled { return (false, false) }
            s.flushScheduled = true
            return (false, true)
        }
        if full { flush() }
        if schedule { Self.flusher.asyncAfter(deadline: .now() + .milliseconds(5)) { self.flush() } }
    }

    /// Adds a large piece (a part of a printed value): what has gathered is written out first,
    /// then a piece of at least the limit straight from where it lies, without being copied.
    func append(piece: UnsafeBufferPointer<UInt8>) {
        guard piece.count >= Self.limit else { return append(bytes: piece) }
        writing.withLock { _ in
            writeGathered()
            beforeWrite?()
            Self.writeAll(piece, to: fd)
        }
    }

    /// Writes out everything gathered so far; returns once it is written.
    public func flush() {
        writing.withLock { _ in writeGathered() }
    }

    /// Takes what has gathered and writes it; called holding `writing`.
    private func writeGathered() {
        let pending = state.withLock { s -> [UInt8] in
            s.flushScheduled = false
            defer { s.bytes.removeAll(keepingCapacity: true) }
            return s.bytes
        }
        if pending.isEmpty { return }
        beforeWrite?()
        Self.writeAll(pending, to: fd)
    }

    /// Writes all of `bytes` to `fd` (`writeAll(_:to:)` of a buffer).
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBufferPointer { writeAll($0, to: fd) }
    }

    /// Writes all of `buf` to `fd`, stopping at an error; a failed write to standard output or
    /// error is recorded (`OutputFailure`), and one that would block waits until it can go on.
    static func writeAll(_ buf: UnsafeBufferPointer<UInt8>, to fd: Int32) {
        if buf.isEmpty { return }
        if OutputFailure.wasClosed(fd) {
            OutputFailure.record(fd: fd, code: EBADF)
            return
        }
        // What is live on the terminal (spinner, progress) is erased first and drawn again after.
        LiveRegion.shared.around(fd: fd, endsLine: buf.last == 0x0A) { writeThrough(buf, to: fd) }
    }

    /// `writeAll` without the live region.
    private static func writeThrough(_ buf: UnsafeBufferPointer<UInt8>, to fd: Int32) {
        var off = 0
        while off < buf.count {
            let n = Foundation.write(fd, buf.baseAddress! + off, buf.count - off)
            if n > 0 {
                off += n
                continue
            }
            let code = n < 0 ? errno : EIO
            if code == EINTR { continue }
            if code == EAGAIN {
                // A descriptor in non-blocking mode (shared with a parent that set it so).
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, -1)
                continue
            }
            OutputFailure.record(fd: fd, code: code)
            break
        }
    }
}
