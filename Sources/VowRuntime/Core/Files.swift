import Foundation
import VowValue

/// Reading the files a user names: scripts, `:load`, and the `read` stage.
public enum Files {
    /// The bytes of the file at `path`, or an `io` error that says why it cannot be read:
    /// `no such file or directory`, `permission denied`, `is a directory`, or the system's reason.
    /// A regular file is read straight into an array of its size.
    public static func read(_ path: String, limit: Int = .max) throws(VowError) -> [UInt8] {
        let fd = open(FileName.system(path), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw cannotRead(path, errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return try chunks(fd, path, limit: limit) }
        if info.st_mode & S_IFMT == S_IFDIR { throw cannotRead(path, EISDIR) }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return try chunks(fd, path, limit: limit) }
        if Int(info.st_size) > limit { throw tooBig(path, size: Int(info.st_size), limit: limit) }
        let size = Int(info.st_size)
        var outcome = Fill.changed
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            outcome = buffer.baseAddress.map { fill(fd, $0, size) } ?? .changed
            count = outcome == .whole ? size : 0
        }
        switch outcome {
        case .whole: return bytes
        case .failed(let code): throw cannotRead(path, code)
        case .changed: return try chunks(fd, path, limit: limit)
        }
    }

    /// An open descriptor of the file at `path` (not a directory), or the `io` error `read` gives.
    public static func openForReading(_ path: String) throws(VowError) -> Int32 {
        let fd = open(FileName.system(path), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw cannotRead(path, errno) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw cannotRead(path, EISDIR)
        }
        return fd
    }

    /// A file's contents: its text when it is valid UTF-8, else its bytes. A regular file is
    /// read straight into the string's storage, so a large file is in memory once, not twice.
    public static func contents(_ path: String, limit: Int = .max) throws(VowError) -> Value {
        let fd = open(FileName.system(path), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw cannotRead(path, errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return text(try chunks(fd, path, limit: limit)) }
        if info.st_mode & S_IFMT == S_IFDIR { throw cannotRead(path, EISDIR) }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return text(try chunks(fd, path, limit: limit)) }
        if Int(info.st_size) > limit { throw tooBig(path, size: Int(info.st_size), limit: limit) }
        let size = Int(info.st_size)
        var outcome = Fill.changed
        var binary: [UInt8]? = nil
        let text = String(unsafeUninitializedCapacity: size) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            outcome = fill(fd, base, size)
            guard outcome == .whole else { return 0 }
            let read = UnsafeBufferPointer(start: base, count: size)
            guard UTF8Check.isValid(read) else {
                binary = Array(read)
                return 0
            }
            return size
        }
        switch outcome {
        case .whole: return binary.map { .bytes($0) } ?? .string(text)
        case .failed(let code): throw cannotRead(path, code)
        case .changed: return Self.text(try chunks(fd, path, limit: limit))
        }
    }

    /// Text when `bytes` are UTF-8, else bytes.
    static func text(_ bytes: [UInt8]) -> Value {
        if let s = String(validating: bytes, as: UTF8.self) { return .string(s) }
        return .bytes(bytes)
    }

    /// How reading a regular file of a known size went.
    private enum Fill: Equatable {
        /// All of it, and nothing more.
        case whole
        /// It was shorter or longer than its size said (it is being written).
        case changed
        /// The system's error.
        case failed(Int32)
    }

    /// Reads exactly `size` bytes of `fd` into `base`.
    private static func fill(_ fd: Int32, _ base: UnsafeMutablePointer<UInt8>, _ size: Int) -> Fill {
        HugePages.prefer(base, size)
        var n = 0
        while n < size {
            let r = Foundation.read(fd, base + n, size - n)
            if r < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            if r == 0 { return .changed }
            n += r
        }
        var probe: UInt8 = 0
        return Foundation.read(fd, &probe, 1) == 0 ? .whole : .changed
    }

    /// The whole of `fd` from its start, read in chunks (pipes, devices, files being written).
    private static func chunks(_ fd: Int32, _ path: String, limit: Int) throws(VowError) -> [UInt8] {
        _ = lseek(fd, 0, SEEK_SET)  // fails harmlessly on a pipe, which has not been read
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw cannotRead(path, errno)
            }
            if n == 0 { return bytes }
            if bytes.count + n > limit { throw tooBig(path, size: nil, limit: limit) }
            bytes.append(contentsOf: chunk[0..<n])
        }
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

    private static func cannotRead(_ path: String, _ code: Int32) -> VowError { VowError.file("read", path, code) }

    /// `read`'s error for a file over its limit (`--max-size`), naming the way to read it anyway.
    private static func tooBig(_ path: String, size: Int?, limit: Int) -> VowError {
        let what = size.map { "is \($0) bytes" } ?? "holds more"
        var details = Record()
        details["limit"] = .int(limit)
        if let size { details["size"] = .int(size) }
        return VowError(
            .io, "\(path) \(what), over the limit of \(limit) bytes (--max-size); --stream reads it line by line in bounded memory",
            details: details)
    }
}
