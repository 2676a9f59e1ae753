import VowPromises
import VowValue
import VowSyntax

/// `sim`: a simulated async operation whose delay and outcome come from a seed.
struct SimStage: ValueStage {
    static let name = "sim"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promise("sim")
    static let settlement: String? = "settles after its simulated delay, fulfilled or (with --fail) rejected"
    static let group = StageGroup.values
    static let synopsis = "sim [--delay D] [--fail RATE] [--seed N] [VALUE]"
    static let summary = "A repeatable simulated async operation, for lessons: seeded delay and failure."
    static let help = """
        Fulfils with VALUE (or the input) after a delay, or rejects with `simulated failure`, with no
        network. --delay D fixes the delay (exact when no seed is given); with --seed N and no
        --delay, the delay is drawn from the seed between 10ms and 100ms. --fail RATE (0 to 1) is the
        probability of failure, drawn from the seed, so the same seed gives the same outcome on every
        run; each re-run under `retry` draws again from the same sequence (attempt 1, 2, …). Attempts
        count afresh for each statement that runs, so a statement typed again, or a script loaded
        again, prints what it printed the first time.
        """
    static let flags = [
        delay.spec, fail.spec, seed.spec,
    ]
    /// `--delay D`.
    static let delay = Flag.duration("delay", help: "how long it takes (default: from the seed, or 10ms)")
    /// `--fail RATE`.
    static let fail = Flag.value("fail", value: "RATE", help: "probability of failure, 0 to 1 (default 0)")
    /// `--seed N`.
    static let seed = Flag.integer("seed", help: "the seed (default 1)")
    static let examples = [
        StageExample("sim --delay 10ms hello", "hello"),
        StageExample("race [sim --delay 20ms a, sim --delay 10ms b]", "b"),
        StageExample("sim --fail 1.0 x", "error[user]: simulated failure (seed 1, attempt 1)", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let seed = try args.value(Self.seed) ?? 1
        let rate = try args.value(Self.fail).flatMap(\.doubleValue) ?? 0
        guard (0...1).contains(rate) else { throw call.error(.type, "--fail must be between 0 and 1", flag: "fail") }
        let attempt = call.session.nextSimAttempt(seed: seed, key: call.text, run: call.site.run)
        var rng = SplitMix64(seed: UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9 &+ UInt64(attempt))
        let delay: Double
        if let d = try args.value(Self.delay) {
            delay = d
        } else if args.given(Self.seed) {
            delay = 0.010 + 0.090 * rng.nextUnit()
        } else {
            delay = 0.010
        }
        let fails = rate > 0 && rng.nextUnit() < rate
        let value = args[0] ?? input
        let ex = call.session.executor
        if fails {
            let err = VowError(.user, "simulated failure (seed \(seed), attempt \(attempt))")
            return .promise(Promise<Value>.delay(delay, value: .null, name: "sim", on: ex).then(on: ex) { _ -> Value in throw err })
        }
        return .promise(Promise.delay(delay, value: value, name: "sim", on: ex))
    }
}

extension SimStage: TwinWriting {
    /// `vow.sim(input, KEY, {flags}, args…)`: the stage's text is the key its outcomes are drawn by.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        let args = plan.node.arguments
        let flags = args.enumerated().compactMap { i, a -> String? in
            guard case .flag(let f) = a.kind, i + 1 < args.count else { return nil }
            return "\(f): \(twin.value(args[i + 1], input: input, depth: depth))"
        }
        let key = jsString(twin.source.slice(plan.node.span))
        return twin.withArguments(twin.positional(plan), input: input, depth: depth) { vals in
            "vow.sim(\(([input, key, flags.isEmpty ? "{}" : "{ \(flags.joined(separator: ", ")) }"] + vals).joined(separator: ", ")))"
        }.asPromise
    }
}
