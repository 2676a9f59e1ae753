import Foundation
import VowPromises
import VowValue

/// Where stage output (`print`) goes. Thread-safe.
public final class OutputSink: Sendable {
    private let lock = Locked(())
    private let write: @Sendable (String) -> Void
    private let writeBytes: (@Sendable ([UInt8]) -> Void)?
    /// Writes a piece of bytes in place, without an array made of it (standard output).
    private let writePiece: (@Sendable (UnsafeBufferPointer<UInt8>) -> Void)?
    private let guarded = Locked<(@Sendable (() -> Void) -> Void)?>(nil)
    /// Whether what is written here is reported to promise observers (`PromiseEvent.output`):
    /// the program's output is, diagnostics on standard error are not.
    private let reportsToObservers: Bool

    /// Standard output: written at once on a terminal, gathered into large writes otherwise
    /// (`StandardOutputBuffer`).
    public static let standardOutput: OutputSink = isatty(1) != 0
        ? OutputSink(
            { s in StandardOutputBuffer.writeAll(Array(s.utf8), to: 1) }, bytes: { b in StandardOutputBuffer.writeAll(b, to: 1) },
            piece: { b in StandardOutputBuffer.writeAll(b, to: 1) })
        : OutputSink(
            { s in StandardOutputBuffer.shared.append(s) }, bytes: { b in StandardOutputBuffer.shared.append(bytes: b) },
            piece: { b in StandardOutputBuffer.shared.append(piece: b) })

    /// Standard error, unbuffered per call; what standard output has gathered goes first.
    public static let standardError = OutputSink({ s in writeError(s) }, reportsToObservers: false)

    /// Writes `s` to standard error at once, after what standard output has gathered.
    public static func writeError(_ s: String) {
        StandardOutputBuffer.shared.flush()
        StandardOutputBuffer.writeAll(Array(s.utf8), to: 2)
    }

    /// An output that calls `write` for each piece of text, and `bytes` for binary data (when
    /// nil, bytes are written as text, invalid UTF-8 replaced).
    /// `reportsToObservers`: whether a promise observer (a trace, `--turns`) sees each piece.
    public init(
        _ write: @escaping @Sendable (String) -> Void, bytes: (@Sendable ([UInt8]) -> Void)? = nil, reportsToObservers: Bool = true
    ) {
        self.write = write
        self.writeBytes = bytes
        self.writePiece = nil
        self.reportsToObservers = reportsToObservers
    }

    /// Standard output's sink: `piece` writes the pieces of `emit(pieces:)` where they lie.
    private init(
        _ write: @escaping @Sendable (String) -> Void, bytes: @escaping @Sendable ([UInt8]) -> Void,
        piece: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        self.write = write
        self.writeBytes = bytes
        self.writePiece = piece
        self.reportsToObservers = true
    }

    private let muted = Locked(false)

    /// Drops what is written from now on (observers still see it) while `on`: `:step` records a
    /// run to show it turn by turn, its output inside the turns.
    public func mute(_ on: Bool) { muted.withLock { $0 = on } }

    /// Writes `text` as one piece.
    public func emit(_ text: String) {
        emit(text, recorded: true)
    }

    /// Writes `text` as one piece; promise observers are told of it only when `recorded` (what a
    /// meta-command such as `:timeline` shows is not the program's output, and is not recorded).
    public func emit(_ text: String, recorded: Bool) {
        if recorded, reportsToObservers, PromiseObservation.isActive { PromiseObservation.noteOutput(text) }
        if muted.withLock({ $0 }) { return }
        if let around = guarded.withLock({ $0 }) {
            around { lock.withLock { _ in write(text) } }
        } else {
            lock.withLock { _ in write(text) }
        }
    }

    /// Writes text made piece by piece by `produce` (which hands each piece to the function it is
    /// given) as `emit(_:)` would write it whole: the pieces go out as they come, so that a large
    /// value is never held whole as text. Under a promise observer that wants every promise, or
    /// for an output that takes text only, the pieces are gathered and written as one; one that
    /// spares large work (the REPL's) is told of the first `OutputSink.notedBytes` bytes only.
    public func emit(pieces produce: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) {
        guard let writeBytes, !(reportsToObservers && PromiseObservation.recordsEveryPromise) else {
            var all: [UInt8] = []
            produce { all.append(contentsOf: $0) }
            emit(String(decoding: all, as: UTF8.self))
            return
        }
        if muted.withLock({ $0 }) { return }
        let noted = reportsToObservers && PromiseObservation.isActive
        var seen: [UInt8] = []
        var total = 0
        withoutActuallyEscaping(produce) { produce in
            let body = {
                self.lock.withLock { _ in
                    let write: (UnsafeBufferPointer<UInt8>) -> Void = self.writePiece ?? { writeBytes(Array($0)) }
                    guard noted else { return produce(write) }
                    produce { piece in
                        total += piece.count
                        if seen.count < Self.notedBytes { seen.append(contentsOf: piece.prefix(Self.notedBytes - seen.count)) }
                        write(piece)
                    }
                }
            }
            if let around = guarded.withLock({ $0 }) { around(body) } else { body() }
        }
        if noted {
            let text = String(decoding: seen, as: UTF8.self)
            PromiseObservation.noteOutput(total > seen.count ? text + "… (\(total) bytes in all)" : text)
        }
    }

    /// How much of a large output written piece by piece an observer that spares large work is
    /// told of.
    static let notedBytes = 4096

    /// What every write runs inside from now on (the REPL erases its spinner line first, so that
    /// `print` never shares a line with it).
    public func guardWrites(with around: @escaping @Sendable (() -> Void) -> Void) {
        guarded.withLock { $0 = around }
    }

    /// Writes `bytes` as they are (a binary body sent to a pipe or a file).
    public func emit(bytes: [UInt8]) {
        lock.withLock { _ in
            if let writeBytes { writeBytes(bytes) } else { write(String(decoding: bytes, as: UTF8.self)) }
        }
    }
}
