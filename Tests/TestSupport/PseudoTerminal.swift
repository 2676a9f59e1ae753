import CPTY
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program running on a real pseudo-terminal: the tests type into it and read its screen output.
public final class PseudoTerminal: @unchecked Sendable {
    /// The child's pid.
    public let pid: pid_t
    private let master: Int32
    private var buffer: [UInt8] = []
    private var exitStatus: Int32?

    /// Starts `path` with `arguments` on a new terminal of `rows`×`columns`, with `environment`
    /// added to this process's (TERM defaults to xterm).
    public init(_ path: String, _ arguments: [String] = [], environment: [String: String] = [:], rows: UInt16 = 40, columns: UInt16 = 120) throws {
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = env["TERM"] ?? "xterm"
        env["NO_COLOR"] = nil
        for (k, v) in environment { env[k] = v }
        let argv = [path] + arguments
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        var fd: Int32 = -1
        let pid = cArgs.withUnsafeMutableBufferPointer { a in
            cEnv.withUnsafeMutableBufferPointer { e in
                cpty_spawn(path, a.baseAddress!, e.baseAddress!, &fd, rows, columns)
            }
        }
        guard pid > 0 else { throw POSIXError(.ECHILD) }
        self.pid = pid
        self.master = fd
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    deinit {
        if exitStatus == nil { kill(pid, SIGKILL); _ = waitExit(timeout: 2) }
        close(master)
    }

    /// Types `text` (use "\r" for Enter, "\u{3}" for Ctrl-C, "\u{4}" for Ctrl-D, "\t" for Tab).
    public func type(_ text: String) {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let n = write(master, bytes, bytes.count)
            if n > 0 { bytes.removeFirst(n) } else { usleep(1000) }
        }
    }

    /// Everything the program has written so far (escape sequences included).
    public var output: String {
        pump()
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The output with ANSI escape sequences and carriage returns removed.
    public var plainOutput: String { Self.strip(output) }

    /// Forgets the output read so far.
    public func clear() {
        pump()
        buffer.removeAll()
    }

    private func pump() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(master, &chunk, chunk.count)
            if n > 0 { buffer += chunk[0..<n] } else { break }
        }
    }

    /// Waits until the plain output contains `text`; returns whether it did within `timeout`.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 10) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if plainOutput.contains(text) { return true }
            usleep(10_000)
        }
        return plainOutput.contains(text)
    }

    /// Waits for the program to exit; returns its exit status, or nil on timeout.
    public func waitExit(timeout: Double = 10) -> Int32? {
        if let exitStatus { return exitStatus }
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            pump()
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                exitStatus = code
                return code
            }
            usleep(10_000)
        }
        return nil
    }

    /// `s` without ANSI escape sequences and carriage returns.
    public static func strip(_ s: String) -> String {
        var out = ""
        var it = s.unicodeScalars.makeIterator()
        while let c = it.next() {
            if c == "\u{1B}" {
                guard let n = it.next() else { break }
                if n == "[" {
                    while let x = it.next(), !(0x40...0x7E).contains(x.value) {}
                } else if n == "]" {
                    while let x = it.next(), x != "\u{7}" {}
                }
                continue
            }
            if c == "\r" { continue }
            out.unicodeScalars.append(c)
        }
        return out
    }
}
