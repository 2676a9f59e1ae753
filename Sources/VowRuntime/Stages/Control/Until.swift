import Foundation
import VowPromises
import VowSyntax
import VowValue

/// `until COND`: polls, re-running everything upstream until COND holds on its value.
struct UntilStage: StageDefinition {
    static let name = "until"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let settlement: String? = "settles when its inputs do"
    static let rerunsUpstream = true
    static let group = StageGroup.control
    static let synopsis = "until COND [--every D] [--timeout D] [--max N] [--backoff exp]"
    static let summary = "Re-runs everything upstream, waiting between runs, until COND holds on its value."
    static let help = """
        Everything before `until` runs again on each poll, a stage that starts something included:
        `post $api/jobs | pick id | until …` would start a new job every time. Start it once,
        then poll what it started: `let id = post $api/jobs | pick id` and
        `fetch "$api/jobs/$id" | json | until "status == 'done'"`.

        Polling: when the pipeline before it fulfils with a value on which the JMESPath expression
        COND does not hold (JMESPath's truthiness, as `if`), waits --every (default 1s, doubling
        each time with --backoff exp) and runs it all again; fulfils with the first value on which
        COND holds. It gives up, rejecting with kind `timeout` that names the attempts, the time
        and the last value (in the `attempts`, `elapsed` and `last` fields), when the next wait
        would pass --timeout, or after --max runs; with neither it polls until stopped (Ctrl-C). A
        rejection of the pipeline ends the polling with that rejection (`retry` is for those).
        """
    static let flags = [
        every.spec, timeout.spec, max.spec, backoff.spec,
    ]
    /// `--every D`.
    static let every = Flag.duration("every", help: "wait between runs (default 1s)")
    /// `--timeout D`.
    static let timeout = Flag.duration("timeout", help: "give up when the next wait would pass this time since the first run")
    /// `--max N`.
    static let max = Flag.integer("max", help: "give up after N runs")
    /// `--backoff exp`.
    static let backoff = Flag.value("backoff", value: "exp", help: "exp doubles the wait after each run")
    static let argumentStyle = ArgumentStyle.raw
    /// COND, when it is written as text, is JMESPath: the planning pass checks it before
    /// anything runs.
    static let expressionArguments = 1
    static let examples = [
        StageExample("sim --seed 1 x | until '@ == `\"x\"`' --every 10ms", "x"),
        StageExample("echo {status: running} | until \"status == 'done'\" --every 10ms --max 3 | catch pick '[kind, attempts, last.status]' | to-json",
            #"["timeout",3,"running"]"#),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let upstream = call.upstream, let rerun = call.rerunUpstream else {
            throw call.error(.type, "put it after the stages to run again: … | until COND")
        }
        let args = StageArguments(positional: [], flags: [:], stage: "until")
        guard let condArg = call.positional.first else { throw call.error(.type, "missing COND (e.g. until \"status == 'done'\")") }
        let condition = try condArg.expressionText ?? args.asString(try call.plain(condArg), "COND")
        let every = try call.plain(Self.every) ?? 1
        let limit = try call.plain(Self.timeout)
        let max = try call.plain(Self.max)
        if let max, max < 1 { throw call.error(.type, "--max must be at least 1", flag: "max") }
        let exponential = try call.plain(Self.backoff)?.stringValue == "exp"
        let ex = call.executor
        let (promise, resolver) = Promise<Value>.pending(name: "until", on: ex)
        let current = Locked<AnyPromise?>(nil)
        resolver.onCancel { current.withLock { $0 }?.cancel() }
        let began = ContinuousClock.now
        @Sendable func attempt(_ n: Int, _ p: Promise<Value>, wait: Double) {
            current.withLock { $0 = p }
            if !resolver.promise.isPending { p.cancel() }
            p.whenSettled(on: ex) { r in
                switch r {
                case .failure:
                    resolver.settle(r)
                case .success(let v):
                    do {
                        if try Pick.search(condition, in: v).isTruthy {
                            resolver.fulfill(v)
                            return
                        }
                    } catch {
                        resolver.reject(error)
                        return
                    }
                    let seconds = (ContinuousClock.now - began).inSeconds
                    if (max.map { n >= $0 } ?? false) || (limit.map { seconds + wait > $0 } ?? false) {
                        let why = max.map { n >= $0 } ?? false ? "--max \(max!)" : "--timeout \(TimeText.duration(limit!))"
                        let last = JSONWriter.compact(v)
                        resolver.reject(call.error(
                            .timeout,
                            "\(condition) did not hold after \(n) attempt\(n == 1 ? "" : "s") in \(String(format: "%.2f", seconds))s (\(why)); the last value: \(last.count > 200 ? String(last.prefix(199)) + "…" : last)",
                            details: ["attempts": .int(n), "elapsed": .double((seconds * 1000).rounded() / 1000), "last": v.toJSONValue(), "condition": .string(condition)]))
                        return
                    }
                    let timer = Promise<Void>.delay(wait, value: (), name: "until-wait", on: ex)
                    current.withLock { $0 = timer }
                    timer.whenSettled(on: ex) { t in
                        if case .success = t, resolver.promise.isPending { attempt(n + 1, rerun(), wait: exponential ? wait * 2 : wait) }
                    }
                }
            }
        }
        attempt(1, upstream, wait: every)
        return promise
    }
}

extension UntilStage: TwinWriting {
    static let twinReference: String? = "`vow.until(() => upstream, COND, every, timeout, max, exp)`: the upstream runs again, after a wait, until COND holds on its value"

    /// `vow.until(() => upstream, …)`: polls, the upstream a function of no arguments.
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String? {
        func flag<T>(_ flag: Flag<T>, _ otherwise: String) -> String {
            twin.flag(flag, in: plan).map { twin.value($0, input: "null", depth: depth) } ?? otherwise
        }
        let cond = twin.positional(plan).first.map { $0.expressionText.map(jsString) ?? twin.value($0, input: "null", depth: depth) } ?? "\"@\""
        let exp = twin.flag(backoff, in: plan).map { twin.value($0, input: "null", depth: depth) == "\"exp\"" } ?? false
        let body = upstream.replacingOccurrences(of: "\n", with: "\n  ")
        return "vow.until(() => \(body), \(cond), \(flag(every, "1")), \(flag(timeout, "null")), \(flag(max, "null")), \(exp))"
    }
}

extension UntilStage: StageExplaining {
    /// Polls its upstream until the condition holds.
    static func explanation(_ c: Explainer.Context) -> String? {
        "when \(c.prev) fulfils with a value on which its condition does not hold, waits and runs the stages before it again; \(c.id) fulfils with the first value on which it holds, or rejects with kind timeout when --timeout or --max is reached; a rejection of \(c.prev) ends it"
    }
}
