import Foundation
import Synchronization
import VowPromises
import VowValue

/// `stdin`: standard input as text.
struct StdinStage: ValueStage {
    static let name = "stdin"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("stdin", streamsAtOnce: true)
    static let settlement: String? = "settles when standard input has been read to its end"
    static let group = StageGroup.files
    static let synopsis = "stdin"
    static let summary = "Reads all of standard input as text."
    static let help = "Fulfils with everything on standard input (text when valid UTF-8, else bytes); with --stream, a stream of its lines as they arrive."
    static let stream = Flag.switch("stream", help: "a stream of standard input's lines, as they arrive")
    static let flags = [stream.spec]
    static let examples: [StageExample] = []

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let ex = call.session.executor
        if args[Self.stream] {
            return .value(.opaque(LineStream.start(fd: dup(0), label: "lines of standard input", closing: true)))
        }
        return .promise(Promise<Value>(name: "stdin", on: ex, operation: {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            let b = [UInt8](data)
            return String(validating: b, as: UTF8.self).map(Value.string) ?? .bytes(b)
        }))
    }
}
