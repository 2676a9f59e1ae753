import Foundation
import VowValue

/// Reading the files a user names: scripts, `:load`, and the `read` stage.
public enum Files {
    /// The bytes of the file at `path`, or an `io` error that says why it cannot be read:
    /// `no such file or directory`, `permission denied`, `is a directory`, or the system's reason.
    public static func read(_ path: String) throws(VowError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw cannotRead(path, errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { throw cannotRead(path, EISDIR) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw cannotRead(path, errno)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// A file's contents: its text when it is valid UTF-8, else its bytes. A regular file is
    /// read straight into the string's storage, so a large file is in memory once, not twice.
    public static func contents(_ path: String) throws(VowError) -> Value {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw cannotRead(path, errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return try slowContents(path) }
        let size = Int(info.st_size)
        var failure: Int32 = 0
        var changed = false
        var binary: [UInt8]? = nil
        let text = String(unsafeUninitializedCapacity: size) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            var n = 0
            while n < size {
                let r = Foundation.read(fd, base + n, size - n)
                if r < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return 0
                }
                if r == 0 { break }
                n += r
            }
            var probe: UInt8 = 0
            // A file that is shorter or longer than it said (it is being written): read it again
            // the ordinary way.
            if n != size || Foundation.read(fd, &probe, 1) != 0 {
                changed = true
                return 0
            }
            let read = UnsafeBufferPointer(start: base, count: n)
            guard UTF8Check.isValid(read) else {
                binary = Array(read)
                return 0
            }
            return n
        }
        if failure != 0 { throw cannotRead(path, failure) }
        if changed { return try slowContents(path) }
        if let binary { return .bytes(binary) }
        return .string(text)
    }

    private static func slowContents(_ path: String) throws(VowError) -> Value {
        let bytes = try read(path)
        if let s = String(validating: bytes, as: UTF8.self) { return .string(s) }
        return .bytes(bytes)
    }

    /// A program's text from the file at `path` (a first line starting with `#!` becomes a
    /// comment); an `io` error when it cannot be read, a `syntax` error when it is not UTF-8.
    public static func program(_ path: String) throws(VowError) -> String {
        let bytes = try read(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw VowError(.syntax, "\(path) is not UTF-8 text; nothing ran")
        }
        return text.hasPrefix("#!") ? "#" + text : text
    }

    private static func cannotRead(_ path: String, _ code: Int32) -> VowError {
        let reason: String
        switch code {
        case ENOENT: reason = "no such file or directory"
        case EACCES, EPERM: reason = "permission denied"
        case EISDIR: reason = "is a directory"
        case ENOTDIR: reason = "a part of the path is not a directory"
        default: reason = String(cString: strerror(code)).lowercased()
        }
        return VowError(.io, "cannot read \(path): \(reason)")
    }
}
