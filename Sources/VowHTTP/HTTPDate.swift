import Foundation
import JMESPath

/// HTTP dates (RFC 9110 §5.6.7) as seconds since 1970: the preferred form, IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), and the two obsolete ones (RFC 850's
/// `Sunday, 06-Nov-94 08:49:37 GMT`, asctime's `Sun Nov  6 08:49:37 1994`).
///
/// An IMF-fixdate that is a real date in GMT, named by its own weekday, is read by hand: the
/// cache reads one or two dates each time it looks at an entry, and a date formatter, made and
/// thrown away for each, took a quarter of a revalidating fan-out's time. Anything else (the
/// obsolete forms, another zone, a weekday that is not the date's) goes to the formatters, which
/// decide as they always did; the tests hold the two to the same answer.
enum HTTPDate {
    /// The seconds since 1970 that `text` names, or nil when it is not an HTTP date.
    static func parse(_ text: String) -> Double? {
        if let seconds = fixdate(text) { return seconds }
        return formatted(text)
    }

    /// `text` read by the date formatters, one form after the other.
    static func formatted(_ text: String) -> Double? {
        let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for f in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = f
            if let d = formatter.date(from: trimmed) { return d.timeIntervalSince1970 }
        }
        return nil
    }

    private static let weekdays: [[UInt8]] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let months: [[UInt8]] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        .map { Array($0.utf8) }

    /// `text` as an IMF-fixdate (spaces around it allowed), when it is exactly one: the day, its
    /// month and year a real date, the time within the day (no leap second), the zone `GMT`, the
    /// weekday the date's. Nil for anything else, which the formatters then read.
    static func fixdate(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { all -> Double? in
            var start = 0
            var end = all.count
            while start < end, all[start] == 0x20 || all[start] == 0x09 { start += 1 }
            while end > start, all[end - 1] == 0x20 || all[end - 1] == 0x09 { end -= 1 }
            // "Sun, 06 Nov 1994 08:49:37 GMT": 29 bytes.
            guard end - start == 29 else { return nil }
            let b = UnsafeBufferPointer(rebasing: all[start..<end])
            func digits(_ at: Int, _ count: Int) -> Int? {
                var n = 0
                for i in at..<(at + count) {
                    let d = Int(b[i]) - 0x30
                    guard d >= 0, d <= 9 else { return nil }
                    n = n * 10 + d
                }
                return n
            }
            func word(_ at: Int, in names: [[UInt8]]) -> Int? {
                names.firstIndex { $0[0] == b[at] && $0[1] == b[at + 1] && $0[2] == b[at + 2] }
            }
            guard b[3] == 0x2C, b[4] == 0x20, b[7] == 0x20, b[11] == 0x20, b[16] == 0x20, b[19] == 0x3A, b[22] == 0x3A,
                b[25] == 0x20, b[26] == 0x47, b[27] == 0x4D, b[28] == 0x54,  // ", " " " " " " " ":" ":" " GMT"
                let weekday = word(0, in: weekdays), let day = digits(5, 2), let month = word(8, in: months),
                let year = digits(12, 4), let hour = digits(17, 2), let minute = digits(20, 2), let second = digits(23, 2),
                day >= 1, day <= daysIn(month: month + 1, year: year), hour < 24, minute < 60, second < 60
            else { return nil }
            let days = daysFromCivil(year, month + 1, day)
            // 1970-01-01 was a Thursday (index 3 from Monday).
            guard ((days % 7) + 7 + 3) % 7 == weekday else { return nil }
            return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
        }
    }

    /// The days in `month` (1–12) of `year` (Gregorian).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
