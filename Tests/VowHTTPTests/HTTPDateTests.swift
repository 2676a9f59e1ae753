import Foundation
import VowValue
import XCTest

@testable import VowHTTP

/// HTTP dates: the IMF-fixdate read by hand (`HTTPDate.fixdate`) against the date formatters
/// that read every form (`HTTPDate.formatted`), on seeded dates and on near misses.
final class HTTPDateTests: XCTestCase {
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The IMF-fixdate of `seconds` since 1970, written by the formatter.
    func fixdate(_ seconds: Double) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: Date(timeIntervalSince1970: seconds))
    }

    func test_theExamplesOfTheRFC() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        XCTAssertEqual(HTTPDate.fixdate("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        // The obsolete forms are the formatters' to read.
        XCTAssertNil(HTTPDate.fixdate("Sunday, 06-Nov-94 08:49:37 GMT"))
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), 784_111_777)
        XCTAssertNil(HTTPDate.fixdate("Sun Nov  6 08:49:37 1994"))
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), 784_111_777)
        XCTAssertEqual(HTTPDate.parse("  Thu, 01 Jan 1970 00:00:00 GMT "), 0)
    }

    /// Seeded dates from 1900 to 2200, leap days and the last second of days among them: the hand
    /// reading gives each the formatter's answer, and takes every one of them.
    func test_everyFixdateReadsAsTheFormatterReadsIt() {
        var rng = SplitMix64(seed: 9111)
        var seconds: [Double] = [0, -1, 951_782_400, 951_868_799, 4_107_542_400, 1_709_164_800, -2_208_988_800]
        for _ in 0..<3000 { seconds.append(Double(Int.random(in: -2_208_988_800...7_258_118_399, using: &rng))) }
        for s in seconds {
            let text = fixdate(s)
            XCTAssertEqual(HTTPDate.fixdate(text), s, text)
            XCTAssertEqual(HTTPDate.formatted(text), s, text)
        }
    }

    /// Near misses of the form (a byte changed, dropped or added, a day past its month's end, the
    /// wrong weekday, another zone): the hand reading refuses each, or agrees with the formatter.
    func test_aNearMissIsRefusedOrReadAsTheFormatterReadsIt() {
        var rng = SplitMix64(seed: 7231)
        var texts = [
            "Mon, 29 Feb 2021 00:00:00 GMT", "Tue, 31 Apr 2024 00:00:00 GMT", "Wed, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:60 GMT",
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 gmt", "sun, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
            "Sun,06 Nov 1994 08:49:37 GMT ", "Sun, 00 Nov 1994 08:49:37 GMT", "", "0", "Sun, 06 Nov 1994 08:49:37 GMT+01:00",
        ]
        let alphabet = Array("0123456789 ,:-+ADEFGJMNOSTUWadehinortuvy".utf8)
        for _ in 0..<1500 {
            var b = Array(fixdate(Double(Int.random(in: 0...4_102_444_800, using: &rng))).utf8)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: b[Int.random(in: 0..<b.count, using: &rng)] = alphabet.randomElement(using: &rng)!
            case 1: b.remove(at: Int.random(in: 0..<b.count, using: &rng))
            default: b.insert(alphabet.randomElement(using: &rng)!, at: Int.random(in: 0...b.count, using: &rng))
            }
            texts.append(String(decoding: b, as: UTF8.self))
        }
        var refused = 0
        for text in texts {
            guard let hand = HTTPDate.fixdate(text) else {
                refused += 1
                continue
            }
            XCTAssertEqual(hand, HTTPDate.formatted(text), text)
        }
        XCTAssertGreaterThan(refused, 1000, "the near misses were mostly taken")
        for text in texts.prefix(17) { XCTAssertNil(HTTPDate.fixdate(text), text) }
    }
}
