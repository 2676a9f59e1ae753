/// The error a promise rejects with when it is cancelled, or when something it waits on is.
public struct PromiseCancelledError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why it was cancelled, e.g. `cancelled` or `cancelled: a sibling in race settled first`.
    public let reason: String
    /// Makes a cancellation error.
    public init(reason: String = "cancelled") { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}

/// The error `timeout` rejects with when the time runs out first.
public struct PromiseTimeoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The limit, in seconds.
    public let seconds: Double
    /// Makes a timeout error.
    public init(seconds: Double) { self.seconds = seconds }
    /// `timed out after 0.1s`.
    public var description: String { "timed out after \(formatSeconds(seconds))" }
}

/// The error `any` rejects with when every input rejects: every reason, in input order.
public struct AggregateError: Error, Sendable, CustomStringConvertible {
    /// The reasons, in input order (not in the order they arrived).
    public let errors: [any Error]
    /// Makes an aggregate error.
    public init(errors: [any Error]) { self.errors = errors }
    /// `all 2 promises rejected: x; y`.
    public var description: String {
        if errors.isEmpty { return "all promises rejected (there were none)" }
        return "all \(errors.count) promises rejected: "
            + errors.map { String(describing: $0) }.joined(separator: "; ")
    }
}

/// A promise that would have to wait for itself: JavaScript's `TypeError: Chaining cycle detected`.
public struct PromiseCycleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Makes the error.
    public init() {}
    /// The message.
    public var description: String { "chaining cycle: a promise cannot adopt itself" }
}

/// Formats seconds the way vow writes durations: `100ms`, `1.5s`.
func formatSeconds(_ s: Double) -> String {
    if s < 1 {
        let ms = s * 1000
        return ms == ms.rounded() ? "\(Int(ms))ms" : "\(ms)ms"
    }
    return s == s.rounded() ? "\(Int(s))s" : "\(s)s"
}
