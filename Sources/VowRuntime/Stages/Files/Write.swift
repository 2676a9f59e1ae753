import Foundation
import Synchronization
import VowPromises
import VowSyntax
import VowValue

/// `write PATH`: writes the input, passes it on.
struct WriteStage: ValueStage {
    static let name = "write"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("write")
    static let group = StageGroup.files
    /// A program prints nothing more of what went to the file, as a shell's `>` does.
    static let inPrograms = ProgramPrinting.nothing
    static let synopsis = "write PATH [--append]"
    static let summary = "Writes the input to PATH (text raw, other values as JSON) and passes it on."
    static let help = "Writes the input to PATH, replacing it: a string as is with a final line break added when it has none (as a shell's echo > writes it), bytes as is, any other value as pretty JSON with a final newline. Fulfils with the input. A stream is written one line per item as the items arrive (text as is, other values as one-line JSON); it fulfils with the number of lines once the stream ends. The text goes to a temporary file beside PATH, renamed over it when complete, so PATH is never half-written (a failed write leaves the old file and names the reason); a device or FIFO (/dev/stderr, a named pipe) is written through instead. With --append the text is added to the end of PATH (created when missing), as shell's >> does: a value as it is written (a string as is, other values as one-line JSON, each with a final line break), a stream line by line as the items arrive."
    static let append = Flag.switch("append", help: "add to the end of PATH instead of replacing it; a stream's lines as they arrive")
    static let flags = [append.spec]
    /// A stream is written a line per item as it arrives.
    static func takesStream(_ positional: ArgumentList) -> Bool { true }
    static let examples = [
        StageExample("echo hi | write /tmp/vow-example.txt | then read /tmp/vow-example.txt | to-json", #""hi\n""#),
        StageExample(#"echo "one\n" | write /tmp/vow-example.log | then echo two | write /tmp/vow-example.log --append | then read /tmp/vow-example.log | lines | to-json"#, #"["one","two"]"#),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let path = try args.string(0, "PATH")
        let append = args[Self.append]
        if let stream = input.stream { return .promise(try Self.write(stream, to: path, append: append, on: call.session.executor)) }
        var bytes: [UInt8]
        switch input {
        case .string(let s):
            // Text ends with a line break, as a shell's `echo … >` writes it: `run` gives its
            // output without one, and `run cmd | write f` keeps the file a file of lines.
            bytes = Array(s.utf8)
            if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
        case .bytes(let b): bytes = b
        case .response(let r): bytes = r.body
        default: bytes = Array(((append ? JSONWriter.compact(input) : JSONWriter.pretty(input)) + "\n").utf8)
        }
        // Appended text ends its line, so that the next append starts a line of its own.
        if append, bytes.last != 0x0A { bytes.append(0x0A) }
        let file = try FileWriter(path, append: append)
        do {
            try file.write(bytes)
            try file.commit()
        } catch {
            file.abandon()
            throw error
        }
        return .value(input)
    }

    /// Writes a stream's items to `path` as they arrive, one line each; fulfils with the count.
    static func write(_ stream: ValueStream, to path: String, append: Bool = false, on ex: any PromiseExecutor) throws -> Promise<Value> {
        let writer: FileWriter
        do {
            writer = try FileWriter(path, append: append)
        } catch {
            stream.cancel()
            throw error
        }
        let count = Locked(0)
        return stream.forEach(on: ex) { item in
            let line: String
            switch item {
            case .string(let s): line = s
            case .bytes(let b): line = String(decoding: b, as: UTF8.self)
            default: line = JSONWriter.compact(item)
            }
            do {
                try writer.write(Array((line + "\n").utf8))
                count.withLock { $0 += 1 }
                return Promise.resolve((), on: ex)
            } catch {
                writer.abandon()
                return Promise.reject(error, on: ex)
            }
        }.then(on: ex) { _ -> Value in
            try writer.commit()
            return .int(count.withLock { $0 })
        }.transformedAtOnce { r in
            // A stream that ended with an error, or was cancelled, leaves the old file as it was.
            if case .failure = r { writer.abandon() }
            return r
        }
    }
}
