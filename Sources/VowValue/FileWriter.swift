#if canImport(Glibc)
import Glibc
#endif

/// Writing a file the user named (`write`, `--output` onto a device) so that it is never
/// half-written under its own name and nothing planted beside it is followed:
///
/// - a regular file, or a name that does not exist yet, is written to a temporary file created
///   exclusively in the same directory (`.NAME.vow-XXXXXX`, never an existing file or link) and
///   renamed over the name when complete; the old file keeps its permissions; a symbolic link
///   named is followed to the file it names, which is replaced;
/// - anything else that exists (a device such as `/dev/null` or `/dev/full`, a FIFO, a socket)
///   is written through, as shell redirection and curl do, and never replaced;
/// - appending writes to the file itself, as `>>` does;
/// - a failed write leaves the old file as it was, removes the temporary file, and says why
///   (`no space left on device`).
///
/// Sendable: `fd` changes only in init and under `lock` (writing, committing and abandoning take
/// it), so a writer abandoned from another thread (a cancellation that comes from a signal)
/// waits for a write in progress and never closes the descriptor under it.
public final class FileWriter: @unchecked Sendable {
    /// The name the user gave.
    public let path: String
    /// Where the temporary file is, or nil when writing through.
    private let temporary: String?
    /// The file that the temporary file replaces when committed.
    private let target: String
    private var fd: Int32
    /// Guards `fd` once the writer is made.
    private let lock = Locked(())

    /// Opens `path` for writing: a temporary file beside it, or the file itself when it is not a
    /// regular file. With `append`, the file itself is opened to append to (created when missing),
    /// as shell's `>>` does: what it held is never at risk, so no temporary file is needed.
    /// `permissions`, when given, are the new file's whatever the old one's were (a private file:
    /// a session, the history).
    public init(_ path: String, append: Bool = false, permissions: mode_t? = nil) throws(VowError) {
        self.path = path
        var info = stat()
        let exists = stat(FileName.system(path), &info) == 0
        if exists, info.st_mode & S_IFMT == S_IFDIR { throw VowError.file("write", path, EISDIR) }
        if append || (exists && info.st_mode & S_IFMT != S_IFREG) {
            let fd = open(FileName.system(path), O_WRONLY | O_CLOEXEC | O_NOCTTY | (append ? O_APPEND | O_CREAT : 0), 0o666)
            guard fd >= 0 else { throw VowError.file("write", path, errno) }
            self.fd = fd
            self.temporary = nil
            self.target = path
            if append { try startOnNewLine() }
            return
        }
        // A symbolic link is followed to the file it names, which is the one replaced.
        var target = path
        var link = stat()
        if lstat(FileName.system(path), &link) == 0, link.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(FileName.system(path), nil) {
            target = FileName.decode(cString: resolved)
            free(resolved)
        }
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        let pattern: String = (directory.isEmpty ? "/" : directory + "/") + "." + name + ".vow-XXXXXX"
        var template = FileName.system(pattern)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw VowError.file("write", path, errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { FileName.decode(cString: $0.baseAddress!) }
        // The new file gets the old one's permissions, or those a new file would get.
        if let permissions {
            _ = fchmod(fd, permissions)
        } else if exists {
            _ = fchmod(fd, info.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            _ = fchmod(fd, 0o666 & ~mask)
        }
        self.fd = fd
        self.temporary = temporary
        self.target = target
    }

    /// Appending to a regular file whose last line has no line break (`echo one | write f`,
    /// then `write --append f`): the break is written first, so that what is appended starts a
    /// line of its own, as `echo one > f; echo two >> f` gives two lines.
    private func startOnNewLine() throws(VowError) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return }
        // Read through a descriptor of its own: the one appended to is write-only.
        let reader = open(FileName.system(path), O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard reader >= 0 else { return }
        defer { close(reader) }
        var last: UInt8 = 0
        guard pread(reader, &last, 1, info.st_size - 1) == 1, last != 0x0A else { return }
        try write([0x0A])
    }

    /// True when the file is written through (a device, a FIFO) rather than replaced.
    public var writesThrough: Bool { temporary == nil }

    /// Writes all of `bytes`; a failure names the reason.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(VowError) {
        let code = lock.withLock { _ in Self.writeAll(bytes, to: fd) }
        if code != 0 { throw VowError.file("write", path, code) }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws(VowError) {
        let code = lock.withLock { _ in bytes.withUnsafeBytes { Self.writeAll($0, to: fd) } }
        if code != 0 { throw VowError.file("write", path, code) }
    }

    /// Writes all of `bytes` to `fd`, again after an interruption; 0, or the system's error.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        return 0
    }

    /// Ends the writing: the temporary file is closed and renamed over the name. On failure the
    /// old file is left as it was and the temporary file removed.
    public func commit() throws(VowError) {
        try lock.withLock { _ throws(VowError) in try commitHoldingLock() }
    }

    /// `commit`, with `lock` held.
    private func commitHoldingLock() throws(VowError) {
        guard fd >= 0 else { return }
        let closed = close(fd)
        let closeError = errno
        fd = -1
        guard let temporary else {
            if closed != 0 { throw VowError.file("write", path, closeError) }
            return
        }
        guard closed == 0 else {
            unlink(FileName.system(temporary))
            throw VowError.file("write", path, closeError)
        }
        guard rename(FileName.system(temporary), FileName.system(target)) == 0 else {
            let code = errno
            unlink(FileName.system(temporary))
            throw VowError.file("write", path, code)
        }
    }

    /// Gives up: the temporary file is removed, the old file left as it was.
    public func abandon() {
        lock.withLock { _ in abandonHoldingLock() }
    }

    /// `abandon`, with `lock` held.
    private func abandonHoldingLock() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        if let temporary { unlink(FileName.system(temporary)) }
    }

    deinit { abandon() }
}
