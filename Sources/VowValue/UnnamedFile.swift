#if canImport(Glibc)
    import Glibc
#endif

/// A new file written whole before it has a name: made without one in its directory
/// (`O_TMPFILE`), written, then linked under its name, which fails if a file has that name.
/// One entry of the directory is made, where a temporary file renamed makes one, removes it and
/// makes another (and the file system journals all three): the HTTP cache writes an entry for
/// every response of a fan-out, and the rename was a third of the time each took.
public enum UnnamedFile {
    /// `O_TMPFILE` on Linux (`__O_TMPFILE | O_DIRECTORY`), a macro Swift does not import.
    static let tmpfile: Int32 = 0o20_200_000

    /// Writes `bytes` to a new file `name` in `directory`, with `permissions`; true when it is
    /// there, whole. False when it could not be made so (a file has that name, the file system
    /// has no unnamed files, `/proc` is not mounted, a write failed): nothing is left behind, and
    /// the caller writes the file another way.
    public static func create(_ name: String, in directory: String, bytes: [UInt8], permissions: mode_t) -> Bool {
        let fd = open(FileName.system(directory), tmpfile | O_WRONLY | O_CLOEXEC, permissions)
        guard fd >= 0 else { return false }
        // Closing a file with no name removes it.
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { FileWriter.writeAll($0, to: fd) }
        guard written == 0 else { return false }
        return linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, FileName.system(directory + "/" + name), AT_SYMLINK_FOLLOW) == 0
    }
}
