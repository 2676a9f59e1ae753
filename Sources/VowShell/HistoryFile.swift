import Foundation
import VowValue

/// The REPL's history file, shared by every REPL that uses it, in libedit's format
/// (`_HiStOrY_V2_`, then an entry a line, spaces and other special bytes written `\040`), so that
/// libedit reads it as well. Several REPLs at once lose nothing: each appends what it adds, a
/// line at a time under a lock (`flock`), as bash does with `histappend`, instead of writing its
/// whole history over the others'. Trimming to `limit` entries writes a temporary file and
/// renames it over the old one, so the file is never cut mid-entry; a write that fails (a full
/// disk) is said once, and the REPL goes on.
struct HistoryFile {
    /// Where it is.
    let path: String
    /// The most entries it keeps.
    let limit: Int
    static let header = "_HiStOrY_V2_"

    /// The entries in the file, oldest first (none when it cannot be read).
    func load() -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: true)
        return lines.enumerated().compactMap { i, line in
            if i == 0, line.elementsEqual(Self.header.utf8) { return nil }
            return Self.decode(Array(line))
        }
    }

    /// Appends `entry`; nil, or the reason it could not be written.
    func append(_ entry: String) -> String? {
        withLock { fd in
            var info = stat()
            var text = ""
            if fstat(fd, &info) == 0, info.st_size == 0 { text = Self.header + "\n" }
            text += Self.encode(entry) + "\n"
            let code = Array(text.utf8).withUnsafeBytes { FileWriter.writeAll($0, to: fd) }
            return code == 0 ? nil : Self.reason(code)
        }
    }

    /// Keeps the last `limit` entries when there are more (a temporary file renamed over the
    /// file); nil, or the reason it could not be done.
    func trim() -> String? {
        withLock { _ in
            let entries = load()
            guard entries.count > limit else { return nil }
            let kept = ([Self.header] + entries.suffix(limit).map(Self.encode)).joined(separator: "\n") + "\n"
            do throws(VowError) {
                let file = try FileWriter(path, permissions: 0o600)
                do throws(VowError) {
                    try file.write(Array(kept.utf8))
                    try file.commit()
                } catch {
                    file.abandon()
                    throw error
                }
                return nil
            } catch {
                return Self.reason(error.details["errno"]?.intValue.map(Int32.init) ?? EIO)
            }
        }
    }

    /// Runs `body` with the file open to append to (created with mode 0600), under its lock.
    /// A regular file is made private (0600); anything else (`VOW_HISTORY=/dev/null`) is left as
    /// it is.
    private func withLock(_ body: (Int32) -> String?) -> String? {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return Self.reason(errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG { fchmod(fd, 0o600) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        return body(fd)
    }

    /// The system's reason for `code`, in lower case (`no space left on device`).
    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// An entry as libedit writes it: bytes below `!`, DEL and `\` as `\` and three octal digits
    /// (`\040` for a space), every other byte as it is.
    static func encode(_ entry: String) -> String {
        var out: [UInt8] = []
        for b in entry.utf8 {
            if b <= 0x20 || b == 0x7F || b == 0x5C {
                out += Array(("\\" + String(b, radix: 8).leftPadded(to: 3)).utf8)
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A line of the file as an entry: `\ooo` octal escapes, `\\`, and libedit's `\^X`
    /// (control) and `\M-x` (meta) forms undone.
    static func decode(_ line: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        func octal(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x37 }
        while i < line.count {
            let b = line[i]
            guard b == 0x5C, i + 1 < line.count else {
                out.append(b)
                i += 1
                continue
            }
            let next = line[i + 1]
            if i + 3 < line.count, octal(next), octal(line[i + 2]), octal(line[i + 3]) {
                out.append((next - 0x30) << 6 | (line[i + 2] - 0x30) << 3 | (line[i + 3] - 0x30))
                i += 4
            } else if next == 0x5E, i + 2 < line.count {
                out.append(line[i + 2] == 0x3F ? 0x7F : line[i + 2] & 0x1F)
                i += 3
            } else if next == 0x4D, i + 3 < line.count, line[i + 2] == 0x2D {
                out.append(line[i + 3] | 0x80)
                i += 4
            } else {
                out.append(next)
                i += 2
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    /// The string with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
