import Foundation
import VowPromises
import VowValue

/// A rate limit as a flag gives it (`--rate 50/s`): at most `count` starts in any `period`.
///
/// The starts are spaced evenly, each at least `period / count` after the one before it went (a
/// token bucket that holds one token), and 5 % wider, so that no window of `period` holds more
/// than `count` starts even by the clock of a server that sees one request some milliseconds
/// later than another: a burst of `count` at once would put two bursts in one window.
struct RateLimit: Sendable, Equatable {
    /// How many starts.
    let count: Int
    /// In how many seconds.
    let period: Double

    /// The time between two starts, in seconds.
    var interval: Double { period / Double(count) * 1.05 }

    /// Reads `50/s`, `120/m`, `1000/h`, or `10/2s` (a count over any duration).
    static func parse(_ text: String) -> RateLimit? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0].trimmingCharacters(in: .whitespaces)), count >= 1 else { return nil }
        let unit = parts[1].trimmingCharacters(in: .whitespaces)
        let period: Double
        switch unit {
        case "s": period = 1
        case "m": period = 60
        case "h": period = 3600
        default:
            guard let d = parseDuration(unit), d > 0 else { return nil }
            period = d
        }
        return RateLimit(count: count, period: period)
    }

    /// The rate limit a flag's value gives, or a type error that says how to write one.
    static func from(_ v: Value, _ args: StageArguments) throws -> RateLimit {
        let text: String
        switch v {
        case .string(let s): text = s
        default: text = JSONWriter.compact(v)
        }
        guard let limit = parse(text) else {
            throw args.failure("--rate must be a count per time, like 50/s, 120/m, 1000/h or 10/2s, got \(JSONWriter.compact(v))", about: v, "--rate")
        }
        return limit
    }
}

extension Flag where T == RateLimit {
    /// `--rate N/UNIT`.
    static func rate(help: String) -> Flag<RateLimit> {
        Flag(FlagSpec("rate", value: "N/s", help: help)) { v, args in try RateLimit.from(v, args) }
    }
}

/// The starts of one stage call under a rate limit: a gate that lets one start through at a
/// time, each at least `interval` after the one before it actually went, in the order they came.
/// Spacing from the starts as they happened, not as they were planned, keeps a late timer (a
/// busy machine) from bunching the ones after it.
///
/// Sendable: its `var`s are touched only on the session executor, where the stage launches its
/// work and where the gate's timer settles.
final class RateSchedule: @unchecked Sendable {
    let limit: RateLimit
    private var lastStart: ContinuousClock.Instant?
    private var waiting: [Resolver<Value>] = []
    private var armed = false

    /// A gate whose first start goes at once.
    init(_ limit: RateLimit) { self.limit = limit }

    /// Nil when a start may go now (and it is counted as gone); otherwise a promise that
    /// fulfils when its turn comes. Cancelling that promise gives its turn up.
    func turn(on ex: any PromiseExecutor) -> Promise<Value>? {
        let now = ContinuousClock.now
        if waiting.isEmpty, !armed, lastStart.map({ now - $0 >= Self.duration(limit.interval) }) ?? true {
            lastStart = now
            return nil
        }
        let (p, r) = Promise<Value>.pending(name: "rate", on: ex)
        waiting.append(r)
        arm(on: ex)
        return p
    }

    /// Waits for the next start's time, then lets the first start still waiting go.
    private func arm(on ex: any PromiseExecutor) {
        guard !armed, !waiting.isEmpty else { return }
        armed = true
        let due = (lastStart ?? ContinuousClock.now) + Self.duration(limit.interval)
        let wait = ContinuousClock.now.duration(to: due)
        let seconds = max(0, Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
        Promise<Value>.delay(seconds, value: .null, name: "rate", on: ex).whenSettled(on: ex) { [self] _ in
            armed = false
            while let r = waiting.first {
                waiting.removeFirst()
                if r.isSettled { continue }  // given up (cancelled) while it waited
                lastStart = ContinuousClock.now
                r.fulfill(.null)
                break
            }
            arm(on: ex)
        }
    }

    private static func duration(_ seconds: Double) -> Duration { .nanoseconds(Int64(seconds * 1e9)) }

    /// `start` run through the gate: each call waits for its turn first.
    func pacing(
        _ start: @escaping @Sendable (Value) -> Promise<Value>, on ex: any PromiseExecutor
    ) -> @Sendable (Value) -> Promise<Value> {
        { [self] input in
            guard let wait = turn(on: ex) else { return start(input) }
            return wait.then(on: ex, resolving: { _ in .promise(start(input)) })
        }
    }
}
