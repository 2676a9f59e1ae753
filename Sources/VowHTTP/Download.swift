import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import VowValue

/// `--output FILE`: the body streamed to disk as it arrives, under `FILE.part` until complete,
/// then renamed to FILE. A failed or cancelled download leaves FILE untouched and keeps what
/// arrived in `FILE.part`, which `--continue` resumes with a Range request. The response's
/// validator (a strong ETag, else Last-Modified) is kept beside it in `FILE.part.validator`, and
/// a resumed request sends it as `If-Range`, so that a file that changed meanwhile is fetched
/// whole again instead of spliced. One download at a time owns `FILE.part` (a lock on
/// `FILE.part.lock`): another that finds it taken fails and touches nothing.
public struct Download: Sendable {
    /// Where the body goes.
    public let path: String
    /// Resume `path.part` (or a partial `path`) instead of starting over.
    public let resume: Bool
    /// Whether a progress bar is drawn (in the terminal's live region).
    let progress: Bool

    /// A download to `path`, resumed from `path.part` with `resume`, drawing a progress bar
    /// when `progress` (and standard error is a terminal).
    public init(path: String, resume: Bool, progress: Bool) {
        self.path = path
        self.resume = resume
        self.progress = progress
    }

    /// The file being written.
    var partPath: String { path + ".part" }
    /// Where the validator of what `partPath` holds is kept.
    var validatorPath: String { partPath + ".validator" }
    /// The lock that makes one download the owner of `partPath`.
    var lockPath: String { partPath + ".lock" }

    /// The same download, started over instead of resumed.
    var fromTheStart: Download { Download(path: path, resume: false, progress: progress) }

    /// Whether the download goes to a regular file (or a name that does not exist yet), rather
    /// than being written through a device or FIFO.
    var toFile: Bool {
        var info = stat()
        return stat(path, &info) != 0 || info.st_mode & S_IFMT == S_IFREG
    }

    /// Takes the lock of `partPath` for this download (a descriptor to give to `unlock`), or
    /// fails naming the file when another download holds it; nil when writing through a device.
    func lock() throws -> Int32? {
        guard toFile else { return nil }
        let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VowError.file("write", lockPath, errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw VowError(
                .io, "another download to \(path) is in progress (it holds \(partPath)); nothing was touched",
                details: ["path": .string(path)])
        }
        return fd
    }

    /// Lets the lock go, removing its file.
    func unlock(_ fd: Int32?) {
        guard let fd else { return }
        unlink(lockPath)
        close(fd)
    }

    /// The validator kept for what `partPath` holds: `If-Range`'s value.
    func storedValidator() -> String? {
        guard let text = try? String(contentsOfFile: validatorPath, encoding: .utf8) else { return nil }
        let v = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return v.isEmpty ? nil : v
    }

    /// The validator `headers` give for If-Range: a strong ETag, else Last-Modified.
    static func validator(_ headers: HTTPHeaders) -> String? {
        if let etag = headers.first(name: "ETag"), !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        return headers.first(name: "Last-Modified")
    }

    /// The bytes already on disk when resuming (moving a partial FILE to FILE.part first), else 0.
    func bytesOnDisk() throws -> Int {
        guard resume else { return 0 }
        let fm = FileManager.default
        if !fm.fileExists(atPath: partPath), fm.fileExists(atPath: path) {
            guard rename(path, partPath) == 0 else { throw ioError("cannot move \(path) to \(partPath)") }
        }
        return (try? fm.attributesOfItem(atPath: partPath)[.size] as? Int) ?? 0
    }

    /// Writes `response`'s body (a 200, or a 206 to a Range request starting at `offset`) and
    /// returns the record the stage fulfils with.
    func write(_ response: HTTPClientResponse, url: String, offset: Int, maxSize: Int, spec: HTTPRequestSpec) async throws -> Value {
        let status = Int(response.status.code)
        let headers = response.headers.map { (name: $0.name, value: $0.value) }
        var appendFrom = 0
        if status == 206 {
            // The server resumed: its range must start where the file ends.
            let range = response.headers.first(name: "Content-Range") ?? ""
            let start = range.split(separator: " ").dropFirst().first?.split(separator: "-").first.flatMap { Int($0) }
            guard start == offset else {
                throw HTTPFailure.rangeMismatch(range: range, offset: offset).vowError(for: spec)
            }
            appendFrom = offset
        } else if status == 416, offset > 0 {
            // Nothing left to send: the file on disk is already whole (when the sizes agree).
            let total = (response.headers.first(name: "Content-Range") ?? "").split(separator: "/").last.flatMap { Int($0) }
            guard total == offset else {
                throw HTTPFailure.rangeRefused.vowError(for: spec)
            }
            try finish()
            return result(bytes: offset, status: status, url: url, headers: headers)
        }
        // A device or FIFO named by --output is written through; a file goes to FILE.part, never
        // through a symbolic link planted there.
        var info = stat()
        let throughDevice = appendFrom == 0 && stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG && info.st_mode & S_IFMT != S_IFDIR
        let destination = throughDevice ? path : partPath
        let fd = throughDevice
            ? open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            : open(partPath, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (appendFrom > 0 ? O_APPEND : O_TRUNC), 0o644)
        guard fd >= 0 else { throw VowError.file("write", destination, errno) }
        defer { close(fd) }
        if !throughDevice {
            // What the part file holds is known by its validator from now on (none: not resumable safely).
            if let v = Self.validator(response.headers) {
                try? (v + "\n").write(toFile: validatorPath, atomically: true, encoding: .utf8)
            } else if appendFrom == 0 {
                unlink(validatorPath)
            }
        }
        // A content-coded body is saved decoded, as curl --compressed saves it: the transport
        // undoes one gzip or deflate layer, `BodyDecoder` the rest (br, a second layer). Its
        // Content-Length counts the coded bytes, which the transport checks; what is written is
        // held to --max-size, or to 64 MiB when none was given (a small coded body can decode to
        // gigabytes).
        let encodings = response.headers["Content-Encoding"]
        let coded = !BodyDecoder.codings(of: encodings).isEmpty
        let codings = try BodyDecoder.remaining(encodings, request: spec)
        let limit = coded ? spec.maxDecodedSize : maxSize
        let decoder = codings.isEmpty ? nil : try BodyDecoder(codings, limit: limit, request: spec)
        let announced = coded ? nil : response.headers.first(name: "Content-Length").flatMap(Int.init)
        var written = appendFrom
        let bar = progress ? ProgressBar(label: (path as NSString).lastPathComponent, total: announced.map { $0 + appendFrom }, start: appendFrom) : nil
        func save(_ bytes: UnsafeRawBufferPointer) throws {
            if written + bytes.count > limit { throw HTTPFailure.tooBig(limit: limit, size: nil, status: nil).vowError(for: spec) }
            let code = FileWriter.writeAll(bytes, to: fd)
            if code != 0 { throw VowError.file("write", destination, code) }
            written += bytes.count
        }
        do {
            for try await chunk in response.body {
                if let decoder {
                    let plain = try decoder.decode(Array(chunk.readableBytesView))
                    try plain.withUnsafeBytes { try save($0) }
                } else {
                    try chunk.withUnsafeReadableBytes { try save($0) }
                }
                bar?.update(written)
            }
            try decoder?.finish()
        } catch {
            // A coded body cannot be resumed by a byte range of what was decoded from it.
            if coded && !throughDevice { unlink(partPath) }
            throw error
        }
        bar?.finish()
        if let announced, written - appendFrom != announced {
            throw HTTPFailure.shortBody(received: written - appendFrom, announced: announced).vowError(for: spec)
        }
        if !throughDevice { try finish() }
        return result(bytes: written, status: status, url: url, headers: headers)
    }

    /// Renames the finished part file to its name.
    func finish() throws {
        guard rename(partPath, path) == 0 else { throw ioError("cannot rename \(partPath) to \(path)") }
        unlink(validatorPath)
    }

    /// The failure of a download, saying where what arrived was kept.
    func failed(_ error: any Error) -> any Error {
        guard var e = error as? VowError, FileManager.default.fileExists(atPath: partPath) else { return error }
        e.message += " (what arrived is in \(partPath); --continue resumes it)"
        return e
    }

    func result(bytes: Int, status: Int, url: String, headers: [(name: String, value: String)]) -> Value {
        var r = Record()
        r["path"] = .string(path)
        r["bytes"] = .int(bytes)
        r["status"] = .int(status)
        r["url"] = .string(redactURL(url))
        var h = Record()
        for (name, value) in headers where !isSecretHeader(name) { h[name.lowercased()] = .string(value) }
        r["headers"] = .record(h)
        return .record(r)
    }

    func ioError(_ message: String) -> VowError {
        VowError(.io, "\(message): \(String(cString: strerror(errno)))")
    }
}

/// A one-line progress bar (a line of the terminal's live region): bytes, rate, time left;
/// redrawn at most ten times a second, taken away when done or abandoned.
///
/// Sendable: one download's `write` makes it and alone uses it, one call at a time (`lastDraw` is
/// its only `var`); `LiveRegion` locks the lines it shares.
final class ProgressBar: @unchecked Sendable {
    let total: Int?
    let start: Int
    let began = ContinuousClock.now
    var lastDraw = ContinuousClock.now - .seconds(1)

    let line: LiveRegion.Line?
    /// The file's name, first on the line (several downloads draw a line each).
    let label: String

    init(label: String, total: Int?, start: Int) {
        self.label = label
        self.total = total
        self.start = start
        line = LiveRegion.shared.add()
    }

    deinit { finish() }

    func update(_ bytes: Int) {
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        let elapsed = max(0.001, (now - began).inSeconds)
        let rate = Double(bytes - start) / elapsed
        var line = label + "  " + Self.size(bytes)
        if let total {
            let percent = total > 0 ? min(100, bytes * 100 / total) : 100
            let width = 20, filled = width * percent / 100
            line = label + "  [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] \(percent)%  "
                + Self.size(bytes) + " / " + Self.size(total)
            if rate > 0 { line += "  " + Self.size(Int(rate)) + "/s  " + TimeText.clock(Double(total - bytes) / rate) + " left" }
        } else if rate > 0 {
            line += "  " + Self.size(Int(rate)) + "/s"
        }
        if let shown = self.line { LiveRegion.shared.set(shown, line) }
    }

    func finish() {
        if let line { LiveRegion.shared.remove(line) }
    }

    /// `812 B`, `1.4 MB`, `2.1 GB`.
    static func size(_ n: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var v = Double(n), i = 0
        while v >= 1000, i < units.count - 1 {
            v /= 1000
            i += 1
        }
        return i == 0 ? "\(n) B" : String(format: "%.1f %@", v, units[i])
    }
}
