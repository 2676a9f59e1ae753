import Foundation
import Synchronization
import VowPromises
import VowValue

/// `read PATH`: a file's contents.
struct ReadStage: ValueStage, LooksAhead {
    static let name = "read"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("read")
    /// It looks at the stage after it (`LooksAhead`).
    static let looksAhead = true
    /// Without flags and followed by `json` without arguments, it hands the file's bytes on as
    /// they are (`StagePlan.feedsJSON`).
    static func lookAhead(_ plan: StagePlan, next: StagePlan) {
        guard plan.definition != nil, plan.flags.isEmpty,
            case .builtin(let nextDef, let positional) = next.kind, nextDef == JsonStage.self,
            positional.isEmpty, next.flags.isEmpty, !next.isHandler
        else { return }
        plan.feedsJSON = true
    }
    static let group = StageGroup.files
    static let synopsis = "read [PATH]"
    static let summary = "Reads a file: text when it is valid UTF-8, bytes otherwise; with --stream, its lines as they are read."
    static let stream = Flag.switch("stream", help: "a stream of the file's lines, read as they are consumed (bounded memory)")
    /// `--max-size BYTES`.
    static let maxSize = Flag.value("max-size", value: "BYTES", help: "the largest file read whole, e.g. 10MB or 2GiB (default 1GiB)")
    static let flags = [stream.spec, maxSize.spec]
    /// The largest file read whole without `--max-size`.
    static let defaultLimit = 1 << 30
    static let help = "Reads PATH (or the input as the path) and fulfils with its text, or its bytes when it is not UTF-8. A missing or unreadable file rejects with kind io. A file over --max-size (default 1 GiB) rejects with kind io before anything is read: --max-size raises the cap, --stream reads any size line by line in bounded memory (a stream is not capped)."
    static let examples = [
        StageExample("read /nonexistent/file", "error[io]: cannot read /nonexistent/file: no such file or directory", fails: true),
        StageExample(
            "echo hello | write /tmp/vow-example-cap.txt | then read /tmp/vow-example-cap.txt --max-size 3",
            "error[io]: /tmp/vow-example-cap.txt is 6 bytes, over the limit of 3 bytes (--max-size); --stream reads it line by line in bounded memory",
            fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let path = args.count > 0 ? try args.string(0, "PATH") : try args.asString(input, "PATH")
        if args[Self.stream] {
            return .value(.opaque(LineStream.start(fd: try Files.openForReading(path), label: "lines of \(path)", closing: true)))
        }
        let limit = try args.value(Self.maxSize).map { try byteCount($0, args: args) } ?? Self.defaultLimit
        if call.feedsJSON, !call.recordsEveryPromise {
            // A small file read under an observer that spares large work (the REPL's) is handed
            // on as text, as under any observer.
            let bytes = try Files.read(path, limit: limit)
            if call.records(items: bytes.count / 1024) { return .value(Files.text(bytes)) }
            return .value(.opaque(FileText(bytes: bytes)))
        }
        return .value(try Files.contents(path, limit: limit))
    }
}
