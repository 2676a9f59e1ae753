import VowPromises
import VowSyntax
import VowValue

/// `len`: length of a list, record, string or bytes.
struct LenStage: ValueStage {
    static let name = "len"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("len")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "len"
    static let summary = "The number of elements, keys, characters or bytes of its input."
    static let help = "Fulfils with the length of the input: elements of a list, keys of a record, characters of a string, bytes of bytes or of a response body. A stream's items are counted as they arrive, none kept, and it fulfils with the count when the stream ends."
    static let examples = [
        StageExample("echo [1, 2, 3] | len", "3"),
        StageExample("echo héllo | len", "5"),
        StageExample("echo 5 | len", "error[type]: len: expected a list, record, string or bytes, got number", fails: true),
    ]

    /// A stream is counted as it goes, keeping none of its items.
    static func takesStream(_ positional: ArgumentList) -> Bool { true }

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        if let stream = input.stream {
            let ex = call.session.executor
            let count = Locked(0)
            // The turns of collecting the stream and measuring the list (one hop each), without the list.
            // One settled promise says "done at once" for every item (one an item was as many
            // promises, and in the REPL as many events kept for its timeline).
            let done = Promise<Void>.resolve((), on: ex)
            return .promise(stream.forEach(on: ex) { _ in
                count.withLock { $0 += 1 }
                return done
            }.then(on: ex) { _ in Value.int(count.withLock { $0 }) }.then(on: ex) { $0 })
        }
        switch input {
        case .list(let l): return .value(.int(l.count))
        case .opaque(let counted as CountedResults): return .value(.int(counted.count))
        case .record(let r): return .value(.int(r.count))
        case .string(let s): return .value(.int(s.count))
        case .bytes(let b): return .value(.int(b.count))
        case .response(let r): return .value(.int(r.body.count))
        default: throw call.error(.type, "expected a list, record, string or bytes, got \(input.typeName)")
        }
    }
}
