/// The units a duration is written in (`250ms`, `2s`, `1.5m`, `1h`, `20us`): the one table the
/// parser reads duration literals by and the runtime reads durations given as text by.
public enum DurationUnit {
    /// Each unit's suffix and its length in seconds.
    public static let seconds: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("us", 0.000001), ("s", 1), ("m", 60), ("h", 3600)]

    /// Seconds in one `suffix`, or nil for a suffix that is no unit.
    public static func factor(_ suffix: String) -> Double? { seconds.first { $0.suffix == suffix }?.seconds }

    /// `250ms`, `2s`, `1.5m`, `1h`, or a plain number, in seconds; nil for anything else or a
    /// negative number.
    public static func parse(_ s: String) -> Double? {
        for (u, f) in seconds where s.hasSuffix(u) {
            if let n = Double(s.dropLast(u.count)), n >= 0 { return n * f }
        }
        if let n = Double(s), n >= 0 { return n }
        return nil
    }
}
