import Foundation
import VowPromises
import VowSyntax
import VowValue

/// `watch EVERY (PIPELINE) [--count N] [--for D] [--until COND]`: runs a pipeline again and
/// again, and prints what changed.
struct WatchStage: StageDefinition {
    static let name = "watch"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let settlement: String? = "fulfils with the last value when --count, --for or --until says so; rejects when a run does"
    static let group = StageGroup.control
    static let argumentStyle = ArgumentStyle.raw
    /// `--until COND` is JMESPath, checked before anything runs.
    static let expressionFlags: Set<String> = ["until"]
    /// It prints its first value and the changes itself: a statement ending with it prints
    /// nothing more.
    static let printsItsValue = true
    static let synopsis = "watch EVERY (PIPELINE) [--count N] [--for D] [--until COND]"
    static let summary = "Runs PIPELINE every EVERY and prints what changed since the last run, as `watch -d` shows it."
    static let help = """
        Runs PIPELINE on the input, prints its value, then runs it again every EVERY (2s, 500ms)
        and prints what changed since the run before, deeply, a line a change (`diff`'s list):
        `+ path: value` added, `- path: value` removed, `~ path: before → after` changed; a run
        that changed nothing prints nothing. It stops, fulfilling with the last value, after
        --count N runs, once --for D has passed, or when --until COND (JMESPath) holds on a run's
        value; with none of them, when Ctrl-C stops it. A run that rejects ends `watch` with its
        error (`catch` inside the group keeps it going: `watch 5s (fetch $url | json | catch
        pick message)`).
        """
    /// `--count N`.
    static let count = Flag.integer("count", help: "stop after N runs")
    /// `--for D`.
    static let forDuration = Flag.duration("for", help: "stop once D has passed")
    /// `--until COND`.
    static let until = Flag.text("until", value: "COND", help: "stop when COND (JMESPath) holds on a run's value")
    static let flags = [count.spec, forDuration.spec, until.spec]
    static let examples = [
        StageExample("range 1 3 | watch 10ms (pick '[?@ < `3`] | length(@)') --count 2", "2"),
        StageExample("watch 10ms (echo {n: 1}) --until 'n == `1`' | pick n", "{\n  \"n\": 1\n}\n1"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let ex = call.executor
        return call.chain { input in
            guard call.positional.count == 2, case .group(let pipeline) = call.positional[1].kind else {
                throw call.error(.syntax, "expected how often and a group to run: watch 2s (fetch $url | json)")
            }
            let args = StageArguments(positional: [], flags: [:], stage: call.name)
            let every = try args.pointing(at: call.positional[0].span.start..<call.positional[0].span.end) {
                try args.seconds(try call.plain(call.positional[0]), "EVERY")
            }
            let count = try call.plain(Self.count)
            if let count, count < 1 { throw call.error(.type, "--count must be at least 1", flag: "count") }
            let watcher = Watcher(
                pipeline: pipeline, input: input, every: every, count: count, seconds: try call.plain(Self.forDuration),
                until: try call.plain(Self.until), call: call, ex: ex)
            return .promise(watcher.start())
        }
    }
}

/// One `watch`: the runs, the timer between them, the last value.
///
/// Sendable: its `var`s are touched only on the session executor (every callback is
/// `whenSettled(on: ex)`, and the cancel handler hops to `ex`).
private final class Watcher: @unchecked Sendable {
    let pipeline: Pipeline
    let input: Value
    let every: Double
    let count: Int?
    let seconds: Double?
    let until: String?
    let call: StageCall
    let ex: any PromiseExecutor
    let began = ContinuousClock.now
    let promise: Promise<Value>
    let resolver: Resolver<Value>
    var runs = 0
    var last: Value?
    var current: Promise<Value>?

    init(pipeline: Pipeline, input: Value, every: Double, count: Int?, seconds: Double?, until: String?, call: StageCall, ex: any PromiseExecutor) {
        (self.pipeline, self.input, self.every, self.count, self.seconds, self.until, self.call, self.ex) =
            (pipeline, input, every, count, seconds, until, call, ex)
        (promise, resolver) = Promise<Value>.pending(name: "watch", on: ex)
    }

    func start() -> Promise<Value> {
        resolver.onCancel { [self] in ex.enqueue { self.current?.cancel() } }
        run()
        return promise
    }

    private func run() {
        guard !resolver.isSettled else { return }
        let p = call.runPipeline(pipeline, input: input, context: ["run \(runs + 1) of watch"])
        current = p
        p.whenSettled(on: ex) { [self] r in
            current = nil
            switch r {
            case .failure(let e): resolver.reject(e)
            case .success(let v):
                ran(v)
            }
        }
    }

    /// A run fulfilled with `v`: print it or its changes, then stop or wait for the next run.
    private func ran(_ v: Value) {
        guard !resolver.isSettled else { return }
        runs += 1
        let output = call.session.output
        if let last {
            let lines = DiffStage.changes(from: last, to: v).map { TerminalText.visibleLine($0.line) + "\n" }
            if !lines.isEmpty { output.emit(lines.joined()) }
        } else {
            output.emit(call.session.printed(v) + "\n")
        }
        last = v
        do {
            if let count, runs >= count { resolver.fulfill(v); return }
            if let until, try Pick.search(until, in: v).isTruthy { resolver.fulfill(v); return }
        } catch {
            resolver.reject(call.error(.pick, "--until: \(toVowError(error).message)", flag: "until")); return
        }
        let elapsed = (ContinuousClock.now - began)
        if let seconds, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18 + every > seconds {
            resolver.fulfill(v); return
        }
        let timer = Promise<Value>.delay(every, value: .null, name: "watch", on: ex)
        current = timer
        timer.whenSettled(on: ex) { [self] r in
            current = nil
            if case .success = r { run() }
        }
    }
}

extension WatchStage: TwinWriting {
    static let twinReference: String? = "`vow.watch(input, (v) => PIPELINE(v), EVERY, {count, for, until})`: the pipeline run again and again, the changes printed"

    /// `vow.watch(input, (w) => PIPELINE(w), every, {count, for, until})`.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        let positional = twin.positional(plan)
        guard positional.count == 2, case .group(let p) = positional[1].kind else { return twin.missing(name) }
        let every = twin.value(positional[0], input: input, depth: depth)
        let w = "w\(depth)"
        let flags = [
            twin.flag(count, in: plan).map { "count: " + twin.value($0, input: input, depth: depth) },
            twin.flag(forDuration, in: plan).map { "for: " + twin.value($0, input: input, depth: depth) },
            twin.flag(until, in: plan).map { "until: " + twin.value($0, input: input, depth: depth) },
        ].compactMap { $0 }
        let body = twin.pipeline(p, input: w, depth: depth + 1)
        return TwinCode("vow.watch(\(input), (\(w)) => \(body), \(every), {\(flags.joined(separator: ", "))})", isPromise: true)
    }
}

extension WatchStage: StageExplaining {
    /// A loop of runs and timers.
    static func explanation(_ c: Explainer.Context) -> String? {
        "when \(c.prev) fulfils, \(c.id) runs its pipeline, then a timer, then the pipeline again, printing what changed, until it stops; it fulfils with the last value"
    }
}
