import Foundation
import VowPromises
import VowValue

/// A rate limit as a flag gives it (`--rate 50/s`): at most `count` starts in any `period`.
///
/// The starts are spaced evenly, `period / count` apart from the first (a token bucket that
/// holds one token), and 1 % wider, so that no window of `period` holds more than `count`
/// starts even by the clock of a server that sees one request a few milliseconds later than
/// another (a new connection, a busy machine): a burst of `count` at once would put two bursts
/// in one window.
struct RateLimit: Sendable, Equatable {
    /// How many starts.
    let count: Int
    /// In how many seconds.
    let period: Double

    /// The time between two starts, in seconds.
    var interval: Double { period / Double(count) * 1.01 }

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

/// The start times of one stage call under a rate limit: each start is given the next slot.
///
/// Sendable: `next` is touched only on the session executor, where the stage launches its work.
final class RateSchedule: @unchecked Sendable {
    let limit: RateLimit
    private var next: ContinuousClock.Instant?

    /// A schedule whose first start is at once.
    init(_ limit: RateLimit) { self.limit = limit }

    /// How long the next start waits, in seconds (0 for one that may start now); the slot after
    /// it is taken.
    func take() -> Double {
        let now = ContinuousClock.now
        let slot = max(now, next ?? now)
        next = slot + .nanoseconds(Int64(limit.interval * 1e9))
        let wait = slot - now
        return Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
    }

    /// `start` run at this schedule's pace: each call waits for its slot first (a timer, cleared
    /// if the call is cancelled while it waits).
    func pacing(
        _ start: @escaping @Sendable (Value) -> Promise<Value>, on ex: any PromiseExecutor
    ) -> @Sendable (Value) -> Promise<Value> {
        { [self] input in
            let wait = take()
            guard wait > 0 else { return start(input) }
            return Promise.delay(wait, value: input, name: "rate", on: ex).then(on: ex, resolving: { v in .promise(start(v)) })
        }
    }
}
