// vow's time functions: `now()`, `to_iso8601(seconds)` and `from_iso8601(text)`. Times are
// seconds since 1970-01-01T00:00:00Z (the Unix epoch), leap seconds not counted, in the
// proleptic Gregorian calendar, from year 1 to 9999.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Builtin {
    /// `now`, `to_iso8601` and `from_iso8601`.
    func applyTime<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        switch self {
        case .now:
            var t = timespec()
            clock_gettime(CLOCK_REALTIME, &t)
            return .jmesDouble(Double(t.tv_sec) + Double(t.tv_nsec) / 1e9)
        case .toISO8601:
            let v = try number(args, 0)
            guard let text = iso8601(seconds: v.jmesNumber ?? 0) else {
                throw JMESPathError(
                    kind: .invalidValue, message: "to_iso8601() takes a time from year 1 to 9999, got \(v.jmesNumber ?? 0) seconds")
            }
            return .jmesString(text)
        case .fromISO8601:
            let s = try string(args, 0)
            guard let (whole, fraction) = secondsSinceEpoch(iso8601: s) else {
                throw JMESPathError(
                    kind: .invalidValue,
                    message: "from_iso8601() takes a date and time like 2026-11-25T13:58:38Z or 2026-11-25T14:58:38.25+01:00, got \"\(s)\"")
            }
            return fraction.map { .jmesDouble(Double(whole) + $0) } ?? .jmesInt(whole)
        default:
            preconditionFailure("\(rawValue)() is not a time function")
        }
    }
}

/// Days from 1970-01-01 to the given date (proleptic Gregorian; negative before it). Public:
/// HTTP's dates are read with it too (`HTTPDate`).
public func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

/// The date `days` after 1970-01-01 (proleptic Gregorian).
func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

/// `seconds` since the epoch as `YYYY-MM-DDTHH:MM:SSZ` in UTC, to the millisecond (seconds ×
/// 1000 rounded, halves away from zero), with a fraction only when there are milliseconds and
/// without its trailing zeros (`…:38.25Z`); nil outside years 1 to 9999.
func iso8601(seconds: Double) -> String? {
    // To the millisecond as `round(seconds, 3)` rounds (the twin does the same).
    let ms = (roundHalfAwayFromZero(seconds, digits: 3) * 1000).rounded(.toNearestOrAwayFromZero)
    // 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z.
    guard ms >= -62_135_596_800_000, ms <= 253_402_300_799_999 else { return nil }
    let total = Int(ms)
    let dayMs = 86_400_000
    let days = total >= 0 ? total / dayMs : (total - dayMs + 1) / dayMs
    let inDay = total - days * dayMs
    let (year, month, day) = civilFromDays(days)
    func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: Swift.max(0, width - s.count)) + s
    }
    var out = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
    out += "\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2)):\(pad(inDay / 1000 % 60, 2))"
    var fraction = pad(inDay % 1000, 3)
    while fraction.last == "0" { fraction.removeLast() }
    if !fraction.isEmpty { out += "." + fraction }
    return out + "Z"
}

/// The seconds since the epoch of `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`: whole seconds,
/// and the fraction (any number of digits) when it was written; nil when the text is not such a
/// date and time, or names one that does not exist (February 30th, 24:00, an offset of 24 hours).
func secondsSinceEpoch(iso8601 text: String) -> (Int, Double?)? {
    let b = Array(text.utf8)
    var i = 0
    func digits(_ n: Int) -> Int? {
        guard i + n <= b.count else { return nil }
        var v = 0
        for k in i..<i + n {
            guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
            v = v * 10 + Int(b[k] - 0x30)
        }
        i += n
        return v
    }
    func expect(_ c: Character) -> Bool {
        guard i < b.count, b[i] == c.asciiValue else { return false }
        i += 1
        return true
    }
    guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2), expect("T"),
        let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2)
    else { return nil }
    var fraction: Double?
    if expect(".") {
        let start = i
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        guard i > start, let f = Double("0." + String(decoding: b[start..<i], as: UTF8.self)) else { return nil }
        fraction = f
    }
    var offset = 0
    if !expect("Z") {
        guard i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return nil }
        let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let oh = digits(2), expect(":"), let om = digits(2), oh <= 23, om <= 59 else { return nil }
        offset = sign * (oh * 3600 + om * 60)
    }
    guard i == b.count, year >= 1, (1...12).contains(month), day >= 1, hour <= 23, minute <= 59, second <= 59 else { return nil }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    guard day <= monthDays else { return nil }
    let seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
    return (seconds, fraction)
}
