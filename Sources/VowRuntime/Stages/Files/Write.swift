import Foundation
import Synchronization
import VowPromises
import VowValue

/// `write PATH`: writes the input, passes it on.
struct WriteStage: ValueStage {
    static let name = "write"
    static let group = StageGroup.files
    static let synopsis = "write PATH"
    static let summary = "Writes the input to PATH (text raw, other values as JSON) and passes it on."
    static let help = "Writes the input to PATH, replacing it: a string as is, bytes as is, any other value as pretty JSON with a final newline. Fulfils with the input."
    static let examples = [StageExample("echo hi | write /tmp/vow-example.txt | then read /tmp/vow-example.txt", "hi")]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        let path = try args.string(0, "PATH")
        let bytes: [UInt8]
        switch input {
        case .string(let s): bytes = Array(s.utf8)
        case .bytes(let b): bytes = b
        case .response(let r): bytes = r.body
        default: bytes = Array((JSONWriter.pretty(input) + "\n").utf8)
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw VowError(.io, "cannot write \(path)")
        }
        return .value(input)
    }
}
