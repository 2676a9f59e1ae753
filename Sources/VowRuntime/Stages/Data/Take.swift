import VowPromises
import VowSyntax
import VowValue

/// `take N`: the first N items of a stream (then the stream stops), or of a list.
struct TakeStage: ValueStage {
    static let name = "take"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("take")
    static let group = StageGroup.data
    static let synopsis = "take N"
    static let summary = "The first N items of a stream or a list; a stream stops once it has given them."
    static let help = """
        Fulfils with a list of the first N items. On a stream it fulfils as soon as the Nth item
        arrives (or the stream ends) and then stops the stream: the file is closed, the process
        ended, the request aborted. On a list it keeps the first N elements.
        """
    /// A stream is taken from as it arrives.
    static func takesStream(_ positional: ArgumentList) -> Bool { true }
    static let examples = [
        StageExample("echo [1, 2, 3, 4] | take 2 | to-json", "[1,2]"),
        StageExample("run seq 1 1000000 --stream | take 3 | to-json", "[\"1\",\"2\",\"3\"]"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        guard let count = args[0] else { throw call.error(.type, "missing N") }
        let n = try args.integer(count, "N")
        guard n >= 0 else { throw call.error(.type, "N must be 0 or more, got \(n)", argument: 0) }
        if case .list(let items) = input { return .value(.list(Array(items.prefix(n)))) }
        guard let stream = input.stream else { throw call.error(.type, "expected a stream or a list, got \(input.typeName)") }
        if n == 0 {
            stream.cancel()
            return .value(.list([]))
        }
        let ex = call.session.executor
        let taken = Locked([Value]())
        // Once the Nth item is in, the stream is stopped: the source ends, and so does forEach.
        // One settled promise says "done at once" for every item.
        let done = Promise<Void>.resolve((), on: ex)
        return .promise(stream.forEach(on: ex) { item in
            let count = taken.withLock { t -> Int in
                t.append(item)
                return t.count
            }
            if count >= n { stream.cancel() }
            return done
        }.then(on: ex) { _ in Value.list(taken.withLock { $0 }) })
    }
}
