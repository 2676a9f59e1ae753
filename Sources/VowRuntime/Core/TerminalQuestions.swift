import Foundation
import VowPromises
import VowValue

/// The answers to `ask`, `confirm` and `choose`: one line of standard input each, in the order the
/// questions were asked, read on a thread of its own. On a terminal the question goes to stderr
/// first and the line is typed there (with echo off for a secret); piped, each question reads the
/// next line, so `printf 'Ada\nblue\n' | vow script.vow` answers two questions.
final class TerminalQuestions: Sendable {
    /// One question waiting for its line.
    private struct Pending: Sendable {
        let prompt: String
        let secret: Bool
        let answer: @Sendable (String?) -> Void
    }

    private let queue = DispatchQueue(label: "vow.questions")
    private let buffer = Locked([UInt8]())
    private let ended = Locked(false)

    /// The questions are asked of standard input.
    init() {}

    /// Asks `prompt`; `answer` gets the line typed (without its line break), or nil when
    /// standard input has ended.
    func ask(_ prompt: String, secret: Bool, answer: @escaping @Sendable (String?) -> Void) {
        let pending = Pending(prompt: prompt, secret: secret, answer: answer)
        queue.async { self.serve(pending) }
    }

    private func serve(_ q: Pending) {
        let terminal = isatty(0) == 1
        if terminal {
            OutputSink.writeError(q.prompt)
        }
        var saved = termios()
        let hide = terminal && q.secret && tcgetattr(0, &saved) == 0
        if hide {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &quiet)
        }
        let line = readLine()
        if hide {
            tcsetattr(0, TCSANOW, &saved)
            OutputSink.writeError("\n")
        }
        q.answer(line)
    }

    /// The next line of standard input, or nil at its end.
    private func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let nl = buffer.withLock({ $0.firstIndex(of: 0x0A) }) {
                let bytes = buffer.withLock { b -> [UInt8] in
                    defer { b.removeFirst(nl + 1) }
                    return Array(b[..<nl])
                }
                let body = bytes.last == 0x0D ? Array(bytes.dropLast()) : bytes
                return String(decoding: body, as: UTF8.self)
            }
            if ended.withLock({ $0 }) {
                let rest = buffer.withLock { b -> [UInt8] in defer { b = [] }; return b }
                return rest.isEmpty ? nil : String(decoding: rest, as: UTF8.self)
            }
            let n = chunk.withUnsafeMutableBytes { Foundation.read(0, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                ended.withLock { $0 = true }
            } else {
                buffer.withLock { $0 += chunk[0..<n] }
            }
        }
    }
}
