import VowValue
import XCTest

/// `equalsIgnoringASCIICase`: HTTP's comparison of names, rule by rule, and seeded ASCII texts
/// against comparing their lower-cased forms.
final class ASCIICaseTests: XCTestCase {
    func test_lettersMatchInEitherCaseAndNothingElseDoes() {
        XCTAssertTrue("Content-Type".equalsIgnoringASCIICase("content-TYPE"))
        XCTAssertTrue("ETag".equalsIgnoringASCIICase("etag"))
        XCTAssertTrue("".equalsIgnoringASCIICase(""))
        XCTAssertTrue("Date"[...].equalsIgnoringASCIICase("dATE"))
        // Bytes 0x20 apart that are not a letter's two cases.
        XCTAssertFalse("@".equalsIgnoringASCIICase("`"))
        XCTAssertFalse("[".equalsIgnoringASCIICase("{"))
        XCTAssertFalse("^".equalsIgnoringASCIICase("~"))
        XCTAssertFalse("0".equalsIgnoringASCIICase("\u{10}"))
        // Lengths, and other bytes, must be the same.
        XCTAssertFalse("Date".equalsIgnoringASCIICase("Dat"))
        XCTAssertFalse("Dat".equalsIgnoringASCIICase("Date"))
        XCTAssertFalse("".equalsIgnoringASCIICase("a"))
        XCTAssertFalse("É".equalsIgnoringASCIICase("é"))
        XCTAssertTrue("É-x".equalsIgnoringASCIICase("É-X"))
    }

    func test_seededASCIITextsCompareAsTheirLowerCasedForms() {
        var rng = SplitMix64(seed: 9110)
        let alphabet = Array("aAbBzZyY@`[{^~-_0 ".unicodeScalars)
        var agreed = 0
        for _ in 0..<20_000 {
            func text() -> String {
                String(String.UnicodeScalarView((0..<Int.random(in: 0...4, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }))
            }
            let a = text()
            let b = Bool.random(using: &rng) ? text() : String(a.map { Bool.random(using: &rng) ? Character($0.uppercased()) : Character($0.lowercased()) })
            XCTAssertEqual(a.equalsIgnoringASCIICase(b), a.lowercased() == b.lowercased(), "\(a) \(b)")
            if a.equalsIgnoringASCIICase(b) { agreed += 1 }
        }
        XCTAssertGreaterThan(agreed, 5_000, "too few equal pairs to say anything")
    }
}
