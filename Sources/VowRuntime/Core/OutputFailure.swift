import Foundation

/// A write to standard output or standard error that failed: the first failure is kept, the run
/// stops after the statement it happened in, and vow ends with status 1 and says which stream
/// failed and why (`error[io]: cannot write to standard output: No space left on device`), as jq
/// does. A closed pipe (EPIPE, `vow … | head -1`) is not a failure: the reader has all it
/// wanted, and vow stays quiet, as it always has.
public enum OutputFailure {
    /// The first failure: the file descriptor and its `errno`.
    private static let first = Locked<(fd: Int32, code: Int32)?>(nil)

    /// Descriptors 1 and 2 that were closed when vow started (`>&-`): reserved with /dev/null so
    /// that no file vow opens takes their number, and every write to them is a failure (EBADF).
    private static let closedAtStart = Locked<Set<Int32>>([])

    /// Records that a write to `fd` failed with `code`; EPIPE, and descriptors other than 1 and
    /// 2, are not recorded.
    static func record(fd: Int32, code: Int32) {
        guard fd == 1 || fd == 2, code != EPIPE else { return }
        first.withLock { if $0 == nil { $0 = (fd, code) } }
    }

    /// Whether writes to `fd` are to fail because it was closed when vow started.
    static func wasClosed(_ fd: Int32) -> Bool {
        closedAtStart.withLock { $0.contains(fd) }
    }

    /// Whether a write to standard output or standard error has failed.
    public static var happened: Bool { first.withLock { $0 != nil } }

    /// The failure in words: `cannot write to standard output: No space left on device`.
    public static var message: String? {
        guard let f = first.withLock({ $0 }) else { return nil }
        let stream = f.fd == 1 ? "standard output" : "standard error"
        return "cannot write to \(stream): \(String(cString: strerror(f.code)))"
    }

    /// Call first thing: descriptors 1 and 2, when closed, are taken by /dev/null and marked, so
    /// that writing to them fails as writing to a closed descriptor does (EBADF).
    public static func reserveClosedStreams() {
        for fd: Int32 in [1, 2] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", O_WRONLY)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
            closedAtStart.withLock { _ = $0.insert(fd) }
        }
    }

    /// The status vow exits with: `status`, or 1 when it was 0 and a write failed, after saying
    /// which (on standard error, if that still works). Standard output is flushed first.
    public static func finalStatus(_ status: Int32) -> Int32 {
        StandardOutputBuffer.shared.flush()
        guard let message else { return status }
        StandardOutputBuffer.writeAll(Array("error[io]: \(message)\n".utf8), to: 2)
        return status == 0 ? 1 : status
    }
}
