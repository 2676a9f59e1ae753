#if canImport(Glibc)
import Glibc
#endif

extension VowError {
    /// The `io` error for failing to `verb` (read, write) `path` with the system's error `code`:
    /// the reason in words (`no such file or directory`, `no space left on device`), the path and
    /// errno in its details.
    public static func file(_ verb: String, _ path: String, _ code: Int32) -> VowError {
        let reason: String
        switch code {
        case ENOENT: reason = "no such file or directory"
        case EACCES, EPERM: reason = "permission denied"
        case EISDIR: reason = "is a directory"
        case ENOTDIR: reason = "a part of the path is not a directory"
        case ENOSPC: reason = "no space left on device"
        case ELOOP: reason = "is a symbolic link, which is not followed"
        default: reason = String(cString: strerror(code)).lowercased()
        }
        // The path on one line: a newline in a name (`a\nb`) is shown as `\n`, never a line break.
        return VowError(.io, "cannot \(verb) \(TerminalText.visibleLine(path)): \(reason)", details: ["path": .string(path), "errno": .int(Int(code))])
    }
}
