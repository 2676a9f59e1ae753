import VowPromises
import VowValue

/// `range FROM TO [--step N] [--stream]`: the whole numbers from FROM to TO, both included.
struct RangeStage: ValueStage {
    static let name = "range"
    /// In the JavaScript twin (docs/javascript-twin.md): an array, or with `--stream` an async
    /// generator.
    static let twin = StageTwin.handlerTakingFlags("range")
    static let group = StageGroup.values
    /// Two numbers: a third word is a mistake, never dropped.
    static let positionalLimit: Int? = 2
    static let synopsis = "range FROM TO [--step N] [--stream]"
    static let summary = "The whole numbers from FROM to TO, both included (as seq counts)."
    static let help = """
        Fulfils with the list of whole numbers from FROM to TO, both included, counting by N
        (--step, 1 by default; a negative step counts down, and FROM past TO gives an empty
        list), as `seq FROM N TO` counts: test data and loops without `run seq`. A list is held
        whole, and one of more than 10,000,000 numbers is refused; with --stream the numbers are a
        stream made as they are consumed, so `range 1 1000000000 --stream | take 3` makes three.
        """
    static let step = Flag.integer("step", help: "count by N (default 1; negative counts down)")
    static let stream = Flag.switch("stream", help: "a stream of the numbers, made as they are consumed (any length)")
    static let flags = [step.spec, stream.spec]
    /// The longest list `range` makes whole.
    static let listLimit = 10_000_000
    static let examples = [
        StageExample("range 1 5 | to-json", "[1,2,3,4,5]"),
        StageExample("range 10 1 --step -3 | to-json", "[10,7,4,1]"),
        StageExample("range 1 1000000000 --stream | take 3 | to-json", "[1,2,3]"),
        StageExample("range 5 1 | to-json", "[]"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let from = try args.integer(args[0] ?? .null, "FROM")
        let to = try args.integer(args[1] ?? .null, "TO")
        let step = try args.value(Self.step) ?? 1
        guard step != 0 else { throw call.error(.type, "--step must not be 0", flag: "step") }
        let count = Self.count(from: from, to: to, step: step)
        if args[Self.stream] {
            let stream = ValueStream(label: "numbers from \(from) to \(to)")
            Counter(from: from, step: step, count: count, into: stream).produce()
            return .value(.opaque(stream))
        }
        guard count <= Self.listLimit else {
            throw call.error(.type, "\(count) numbers are more than a list holds (\(Self.listLimit)); --stream makes them as they are consumed")
        }
        return .value(.list((0..<count).map { .int(from + $0 * step) }))
    }

    /// How many numbers `from`, `from + step`, … reach without passing `to`.
    static func count(from: Int, to: Int, step: Int) -> Int {
        if step > 0 { return to < from ? 0 : (to - from) / step + 1 }
        return to > from ? 0 : (from - to) / -step + 1
    }

    /// Offers the numbers to a stream a chunk at a time, the next chunk when there is room.
    ///
    /// Sendable: `next` and `left` are touched only by `produce`, which runs again only from the
    /// `resume` of the offer before it (at once while the stream has room, or later on the
    /// consumer's side), after it has updated them: never two at a time. The stream hands `resume`
    /// over under its lock; `step` and `stream` never change.
    final class Counter: @unchecked Sendable {
        private var next: Int
        private var left: Int
        private let step: Int
        private let stream: ValueStream

        init(from: Int, step: Int, count: Int, into stream: ValueStream) {
            self.next = from
            self.left = count
            self.step = step
            self.stream = stream
        }

        /// Offers the next chunk, or ends the stream when none is left.
        func produce() {
            guard left > 0 else {
                stream.finish()
                return
            }
            let n = min(left, 64)
            let chunk = (0..<n).map { Value.int(next + $0 * step) }
            next += n * step
            left -= n
            stream.offer(chunk) { [self] in produce() }
        }
    }
}
