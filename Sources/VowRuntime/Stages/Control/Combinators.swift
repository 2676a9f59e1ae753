import VowPromises
import VowValue

/// The promises a combinator waits on: the elements of a list or record literal argument
/// (their promises, not their values), or the elements of its input list or record.
func combinatorInputs(_ call: StageCall, _ input: Value, stage: String) throws -> (keys: [String]?, promises: [Promise<Value>]) {
    let ex = call.executor
    if let arg = call.positional.first {
        switch arg.kind {
        case .list(let ps):
            return (nil, ps.enumerated().map { i, p in call.runPipeline(p, input: input, context: ["element \(i + 1) of \(stage)"]) })
        case .record(let fields):
            return (fields.map(\.key), fields.map { call.runPipeline($0.value, input: input, context: ["field \($0.key) of \(stage)"]) })
        default:
            let v = try Evaluator(session: call.session).plainArgument(
                arg, input: input, scope: call.scope, site: call.site, problem: "\(stage): expects a list or record literal, or a list as input")
            return try combinatorInputs(fromValue: v, stage: stage, ex: ex)
        }
    }
    return try combinatorInputs(fromValue: input, stage: stage, ex: ex)
}

func combinatorInputs(fromValue v: Value, stage: String, ex: any PromiseExecutor) throws -> (keys: [String]?, promises: [Promise<Value>]) {
    func promise(_ v: Value) -> Promise<Value> {
        if case .opaque(let o) = v, let h = o as? PromiseHandle { return h.promise }
        return .resolve(v, on: ex)
    }
    switch v {
    case .list(let l): return (nil, l.map(promise))
    case .record(let r): return (r.keys, r.values.map(promise))
    default: throw VowError(.type, "\(stage): expects a list or a record, got \(v.typeName)")
    }
}

/// A promise carried as a value.
public struct PromiseHandle: OpaqueValue {
    /// The promise.
    public let promise: Promise<Value>
    /// `promise`.
    public var typeName: String { "promise" }
    /// `<promise pending>`.
    public var displayText: String { promise.isPending ? "<promise pending>" : "<promise settled>" }
}

/// A combinator stage: all, race, any, settle.
protocol CombinatorStage: StageDefinition {
    /// Combines the element promises; `cancels` is false in JavaScript mode, where nothing is
    /// cancelled that JavaScript would let run on.
    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value>
}

extension CombinatorStage {
    static var group: StageGroup { .control }
    static var argumentStyle: ArgumentStyle { .raw }

    func apply(_ call: StageCall) throws -> Promise<Value> {
        call.chain { input, _ in
            let (keys, promises) = try combinatorInputs(call, input, stage: Self.name)
            return .promise(self.combine(keys, promises, call.executor, cancels: !call.session.javaScriptMode))
        }
    }
}

/// `all`: every value, fail-fast.
struct AllStage: CombinatorStage {
    static let name = "all"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let synopsis = "all [LIST | RECORD]"
    static let summary = "Waits for every element; fails fast on the first rejection and cancels the rest."
    static let help = """
        Runs the elements of the list or record literal at once and fulfils with their values, in
        the literal's order (a record gives a record with the same keys), once all have fulfilled.
        The first rejection rejects `all` and cancels the elements still pending (an extension over
        JavaScript's Promise.all, which lets them run on). `all []` fulfils with [].
        """
    static let examples = [
        StageExample("all {a: delay 50ms 1, b: delay 10ms 2} | to-json", "{\"a\":1,\"b\":2}"),
        StageExample("all [delay 20ms 1, echo 2] | to-json", "[1,2]"),
        StageExample("all [] | to-json", "[]"),
        StageExample("all [delay 1s a, reject no] | catch pick message", "no"),
    ]

    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value> {
        // The values are shaped in the turn the last one arrives, as Promise.all resolves.
        Promise.all(promises, on: ex, cancelsOthers: cancels).relay { r in
            r.map { values -> Value in
                guard let keys else { return .list(values) }
                return .record(Record(zip(keys, values).map { ($0, $1) }))
            }
        }
    }
}

/// `race`: the first to settle.
struct RaceStage: CombinatorStage {
    static let name = "race"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let synopsis = "race LIST"
    static let summary = "Settles as the first element settles (fulfilled or rejected) and cancels the rest."
    static let help = "Settles like the first element to settle, then cancels the others. `race []` stays pending forever, as in JavaScript."
    static let examples = [
        StageExample("race [delay 50ms slow, delay 10ms fast]", "fast"),
        StageExample("race [delay 50ms slow, delay 10ms 0 | then reject quick] | catch pick message", "quick"),
    ]

    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value> {
        Promise.race(promises, on: ex, cancelsOthers: cancels)
    }
}

/// `any`: the first to fulfil.
struct AnyStage: CombinatorStage {
    static let name = "any"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let synopsis = "any LIST"
    static let summary = "Fulfils with the first element to fulfil; if all reject, an aggregate error lists every reason."
    static let help = """
        Fulfils with the first element to fulfil and cancels the others. If every element rejects,
        rejects with an error of kind `aggregate` whose field `errors` lists every reason, in the
        list's order. `any []` rejects at once.
        """
    static let examples = [
        StageExample("any [reject x, delay 10ms ok]", "ok"),
        StageExample("any [reject x, reject y]", "error[aggregate]: all 2 promises rejected: x; y", fails: true),
    ]

    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value> {
        Promise.any(promises, on: ex, cancelsOthers: cancels)
    }
}

/// `settle`: every outcome.
struct SettleStage: CombinatorStage {
    static let name = "settle"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let synopsis = "settle [LIST | RECORD]"
    static let summary = "Waits for every element and never rejects: one {status, value|reason} per element."
    static let help = "JavaScript's Promise.allSettled: fulfils with `{status: \"fulfilled\", value}` or `{status: \"rejected\", reason}` per element, in order (keyed for a record)."
    static let examples = [
        StageExample("settle [echo 1, reject no] | pick '[*].status' | to-json", "[\"fulfilled\",\"rejected\"]"),
    ]

    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value> {
        Promise.settle(promises, on: ex).relay { r in
            r.map { outcomes -> Value in
                let records: [Value] = outcomes.map { r in
                    switch r {
                    case .success(let v): return ["status": "fulfilled", "value": v]
                    case .failure(let e): return ["status": "rejected", "reason": .record(toVowError(e).record)]
                    }
                }
                guard let keys else { return .list(records) }
                return .record(Record(zip(keys, records).map { ($0, $1) }))
            }
        }
    }
}

/// `each STAGE… [--limit N]`: maps a list.
struct EachStage: StageDefinition {
    static let name = "each"
    static let group = StageGroup.control
    static let synopsis = "each STAGE… [--limit N]"
    static let summary = "Runs STAGE on every element of the input list, at most N at once; results in input order."
    static let help = """
        Maps the input list through STAGE (a stage with its arguments, or a (group)), with at most N
        elements in flight (default 16). Results keep the input order. The first rejection rejects
        `each` (naming the element) and cancels the elements in flight.
        """
    static let flags = [FlagSpec("limit", value: "N", help: "how many elements run at once (default 16)")]
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("echo [1, 2, 3] | each (then format \"n{}\") --limit 2 | to-json", "[\"n1\",\"n2\",\"n3\"]"),
        StageExample("echo [3, 1] | each delay 10ms | to-json", "[3,1]"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let ex = call.executor
        return call.chain { input, _ in
            let limit = try call.integerFlag("limit", default: 16, minimum: 1, input: input)
            guard case .list(let items) = Pick.target(input) else {
                throw VowError(.type, "each: expected a list, got \(input.typeName)")
            }
            guard let inner = call.innerStagePromise(own: ["limit"]) else { throw VowError(.type, "each: missing STAGE") }
            if items.isEmpty { return .value(.list([])) }
            return .promise(EachRunner(items: items, limit: limit, inner: inner, ex: ex).start())
        }
    }
}

/// Runs `each` with a bounded number in flight. Touched only on the session executor.
final class EachRunner: @unchecked Sendable {
    let items: [Value]
    let limit: Int
    let inner: @Sendable (Value) -> Promise<Value>
    let ex: any PromiseExecutor
    var results: [Value?]
    var next = 0
    var done = 0
    var inFlight: [Int: Promise<Value>] = [:]
    let resolver: Resolver<Value>
    let promise: Promise<Value>

    init(items: [Value], limit: Int, inner: @escaping @Sendable (Value) -> Promise<Value>, ex: any PromiseExecutor) {
        self.items = items
        self.limit = limit
        self.inner = inner
        self.ex = ex
        self.results = Array(repeating: nil, count: items.count)
        (promise, resolver) = Promise<Value>.pending(name: "each", on: ex)
    }

    func start() -> Promise<Value> {
        resolver.onCancel { [self] in ex.enqueue { for p in self.inFlight.values { p.cancel() } } }
        for _ in 0..<min(limit, items.count) { launch() }
        return promise
    }

    private func launch() {
        guard next < items.count, !resolver.isSettled else { return }
        let i = next
        next += 1
        let p = inner(items[i])
        inFlight[i] = p
        p.whenSettled(on: ex) { [self] r in
            inFlight[i] = nil
            switch r {
            case .success(let v):
                results[i] = v
                done += 1
                if done == items.count {
                    resolver.fulfill(.list(results.map { $0! }))
                } else {
                    launch()
                }
            case .failure(let e):
                var ve = toVowError(e)
                if var o = ve.origin {
                    o.context.append("element \(i + 1) of each")
                    ve.origin = o
                } else {
                    ve.message += " (element \(i + 1) of each)"
                }
                if resolver.reject(ve) { for q in inFlight.values { q.cancel() } }
            }
        }
    }
}

/// `iterate STAGE…`: repeat while non-null (pagination).
struct IterateStage: StageDefinition {
    static let name = "iterate"
    static let group = StageGroup.control
    static let synopsis = "iterate STAGE… [--max N]"
    static let summary = "Runs STAGE on the input, then on its result, and so on while it yields non-null; fulfils with every result."
    static let help = """
        Pagination: STAGE gets the input, then its own previous result, until it yields null (or
        --max results, default 1000). Fulfils with the list of non-null results in order.
        """
    static let flags = [FlagSpec("max", value: "N", help: "stop after N results (default 1000)")]
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("echo 1 | iterate (pick '@' | then echo null) | to-json", "[]"),
        StageExample("echo 1 | iterate (then echo 2) --max 3 | to-json", "[2,2,2]"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let ex = call.executor
        return call.chain { input, _ in
            let max = try call.integerFlag("max", default: 1000, minimum: 0, input: input)
            guard let inner = call.innerStagePromise(own: ["max"]) else { throw VowError(.type, "iterate: missing STAGE") }
            let (p, r) = Promise<Value>.pending(name: "iterate", on: ex)
            // Only the step in flight is cancelled with `iterate`; finished steps are not kept.
            let current = Locked<Promise<Value>?>(nil)
            r.onCancel { current.withLock { $0 }?.cancel() }
            @Sendable func step(_ v: Value, _ acc: [Value]) {
                if r.isSettled { return }  // cancelled: start no further step
                if acc.count >= max { r.fulfill(.list(acc)); return }
                let next = inner(v)
                current.withLock { $0 = next }
                if r.isSettled { next.cancel() }  // cancelled while the step started
                next.whenSettled(on: ex) { res in
                    switch res {
                    case .success(let n): if n.isNull { r.fulfill(.list(acc)) } else { step(n, acc + [n]) }
                    case .failure(let e): r.reject(e)
                    }
                }
            }
            step(input, [])
            return .promise(p)
        }
    }
}
