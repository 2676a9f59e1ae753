/// Durations as vow measures and writes them: seconds as a number, `200ms` / `1.5s` for a
/// limit or a wait, `0:07` / `1:02:03` for a time left.
public enum TimeText {
    /// `s` seconds as vow writes a duration: whole milliseconds under a second (`200ms`), else
    /// seconds (`2s`, `1.5s`).
    public static func duration(_ s: Double) -> String {
        if s < 1 { return "\(Int((s * 1000).rounded()))ms" }
        if s == s.rounded() { return "\(Int(s))s" }
        return "\(s)s"
    }

    /// `s` seconds as a clock: `0:07`, `12:30`, `1:02:03`.
    public static func clock(_ s: Double) -> String {
        let t = Int(s.rounded())
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return t >= 3600 ? "\(t / 3600):\(two(t / 60 % 60)):\(two(t % 60))" : "\(t / 60):\(two(t % 60))"
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
