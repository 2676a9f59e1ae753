import VowPromises
import VowValue

/// `iterate STAGE…`: repeat while non-null (pagination).
struct IterateStage: StageDefinition {
    static let name = "iterate"
    /// In the JavaScript twin: no stand-in: the twin of a loop that feeds each result back in as the next input is not written yet, so the twin throws `vow.missing("iterate")`.
    static let twin = StageTwin.none
    static let settlement: String? = "settles when its inputs do"
    static let group = StageGroup.control
    static let synopsis = "iterate STAGE… [--max N]"
    static let summary = "Runs STAGE on the input, then on its result, and so on while it yields non-null; fulfils with every result."
    static let help = """
        Pagination: STAGE gets the input, then its own previous result, until it yields null (or
        --max results, default 1000). Fulfils with the list of non-null results in order.
        When STAGE is a group, a null between its stages also ends the iteration (the rest of
        the group is skipped, as `?.` skips in JavaScript), so `iterate (pick next | then fetch
        | json)` stops on the page whose next is null instead of fetching nothing. For paged
        HTTP APIs, `paginate` does the whole walk.
        """
    static let max = Flag.integer("max", help: "stop after N results (default 1000)")
    static let flags = [max.spec]
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("echo 1 | iterate (pick '@' | then echo null) | to-json", "[]"),
        StageExample("echo 1 | iterate (then echo 2) --max 3 | to-json", "[2,2,2]"),
        StageExample("echo {n: 1, next: {n: 2, next: null}} | iterate (pick next | then pick '{n: n, next: next}') | to-json", #"[{"n":2,"next":null}]"#),
        StageExample("echo {next: {next: null}} | iterate (pick next | then pick next | then echo reached) | to-json", "[]"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let ex = call.executor
        return call.chain { input in
            let max = try call.integer(Self.max, default: 1000, minimum: 0, input: input)
            guard let inner = call.innerStagePromise(nullEnds: true) else { throw call.error(.type, "missing STAGE") }
            let (p, r) = Promise<Value>.pending(name: "iterate", on: ex)
            // Only the step in flight is cancelled with `iterate`; finished steps are not kept.
            let current = Locked<Promise<Value>?>(nil)
            r.onCancel { current.withLock { $0 }?.cancel() }
            // The values so far, appended to in place: a copy a step would make the loop quadratic.
            let acc = Collected()
            @Sendable func step(_ v: Value) {
                if r.isSettled { return }  // cancelled: start no further step
                if acc.items.count >= max { r.fulfill(.list(acc.items)); return }
                let next = inner(v)
                current.withLock { $0 = next }
                if r.isSettled { next.cancel() }  // cancelled while the step started
                next.whenSettled(on: ex) { res in
                    switch res {
                    case .success(let n):
                        if n.isNull {
                            r.fulfill(.list(acc.items))
                        } else {
                            acc.items.append(n)
                            step(n)
                        }
                    // A null between the group's stages: nothing more to work on, the end.
                    case .failure(let e) where Evaluator.isNothingToWorkOn(e): r.fulfill(.list(acc.items))
                    case .failure(let e): r.reject(e)
                    }
                }
            }
            step(input)
            return .promise(p)
        }
    }
}

/// The values an `iterate` has made so far.
///
/// Sendable: `items` is touched only on the session executor, where every step settles
/// (`whenSettled(on: ex)`) and the first step starts.
private final class Collected: @unchecked Sendable {
    var items: [Value] = []
}
