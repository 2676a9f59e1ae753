// The specification's functions on numbers (`abs`, `avg`, `ceil`, `floor`, `sum`), and vow's
// `round`.

extension Builtin {
    /// `abs`, `avg`, `ceil`, `floor`, `round` and `sum`: arithmetic on numbers.
    func applyNumber<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        switch self {
        case .abs:
            let v = try number(args, 0)
            if let i = v.jmesInt {
                return i == Int.min ? .jmesDouble(-Double(i)) : .jmesInt(Swift.abs(i))
            }
            return .jmesDouble(Swift.abs(v.jmesNumber ?? 0))

        case .avg:
            let a = try numbers(args, 0)
            if a.isEmpty { return .jmesNull }
            var s = RunningSum()
            for e in a { s.add(e) }
            return .jmesDouble(s.total / Double(a.count))

        case .round:
            let v = try number(args, 0)
            var digits = 0
            if let d = try optional(args, 1, .number, "a number") { digits = try integer(d, 1) }
            if v.jmesInt != nil && digits >= 0 { return v }
            let r = roundHalfAwayFromZero(v.jmesNumber ?? 0, digits: digits)
            guard r.isFinite else { throw JMESPathError(kind: .notANumber, message: "round() gives a number too large") }
            return integral(r)

        case .ceil, .floor:
            let v = try number(args, 0)
            if v.jmesInt != nil { return v }
            let d = v.jmesNumber ?? 0
            return integral(self == .ceil ? d.rounded(.up) : d.rounded(.down))

        case .sum:
            let a = try numbers(args, 0)
            var s = RunningSum()
            for e in a { s.add(e) }
            return s.literal.value(V.self)

        default:
            preconditionFailure("\(rawValue)() is not a number function")
        }
    }
}

/// `x` rounded to `digits` decimal places (to tens, hundreds… when negative), halves away from
/// zero, on the digits of x's shortest decimal form (what Swift and JavaScript print for it), not
/// on its binary value: `round(1.005, 2)` is 1.01 and `round(-2.675, 2)` is -2.68, as a person
/// reading the number expects; the result is the double nearest the rounded decimal. An `x`
/// already that precise is returned as it is; the twin computes the same (`jmesRound`).
func roundHalfAwayFromZero(_ x: Double, digits d: Int) -> Double {
    guard x.isFinite, x != 0 else { return x == 0 ? 0 : x }
    // |x| = mantissa × 10^exponent, the mantissa an integer of the shortest digits.
    let text = "\(Swift.abs(x))"
    var mantissa = Substring(text)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
        mantissa = text[..<e]
        exponent = Int(text[text.index(after: e)...].replacing("+", with: "")) ?? 0
    }
    var digitsText = String(mantissa)
    if let dot = digitsText.firstIndex(of: ".") {
        exponent -= digitsText.distance(from: dot, to: digitsText.endIndex) - 1
        digitsText.remove(at: dot)
    }
    var figures = Array(digitsText.drop { $0 == "0" }.utf8)
    while figures.count > 1, figures.last == UInt8(ascii: "0") {
        figures.removeLast()
        exponent += 1
    }
    let drop = -d - exponent  // how many trailing figures fall below 10^-d
    guard drop > 0 else { return x }
    let keep = figures.count - drop
    var kept: [UInt8] = keep > 0 ? Array(figures[0..<keep]) : [UInt8(ascii: "0")]
    if keep >= 0, keep < figures.count, figures[keep] >= UInt8(ascii: "5") {
        // Add one to the kept figures, carrying.
        var i = kept.count - 1
        while i >= 0 {
            if kept[i] == UInt8(ascii: "9") {
                kept[i] = UInt8(ascii: "0")
                i -= 1
            } else {
                kept[i] += 1
                break
            }
        }
        if i < 0 { kept.insert(UInt8(ascii: "1"), at: 0) }
    }
    let r = (Double(String(decoding: kept, as: UTF8.self) + "e\(-d)") ?? .infinity) * (x < 0 ? -1 : 1)
    return r == 0 ? 0 : r
}
