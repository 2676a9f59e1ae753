import Foundation
import XCTest

@testable import VowValue

/// The byte-level writer (`JSONText`, `JSONOutput`) against a plain reference written scalar by
/// scalar from the rules, and the fast number reader (`DecimalToDouble`) against `Double(String)`.
final class JSONWriterTests: XCTestCase {
    /// The rules, one scalar at a time: the short escapes, `\u` and four lower-case hex digits for
    /// the other controls, DEL, the C1 controls, U+2028–U+202E and U+2066–U+2069, everything else as it is.
    func referenceString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0..<0x20, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// A double: null when not finite, an integer below 10^16 without a fraction, else Swift's
    /// shortest text.
    func referenceDouble(_ d: Double) -> String {
        if !d.isFinite { return "null" }
        if d == d.rounded(), abs(d) < 1e16 { return String(Int(d)) }
        return d.description
    }

    func test_stringsAreEscapedByTheRules() {
        var random = SplitMix64(seed: 0x57_2111)
        let alphabet: [Unicode.Scalar] = (0..<0x80).compactMap(Unicode.Scalar.init) + [
            "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "é", "\u{301}", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2065}", "\u{2066}", "\u{2069}", "\u{206A}", "😀", "\u{FEFF}", "\u{10FFFF}",
        ]
        for _ in 0..<20_000 {
            var s = ""
            let n = Int(random.next() % 40)
            for _ in 0..<n {
                // Mostly plain text, so that the eight-byte stretches are exercised too.
                let plain = random.next() % 3 != 0
                s.unicodeScalars.append(plain ? Unicode.Scalar(UInt8(0x61 + random.next() % 26)) : alphabet[Int(random.next() % UInt64(alphabet.count))])
            }
            XCTAssertEqual(JSONWriter.compact(.string(s)), referenceString(s), s.debugDescription)
        }
    }

    func test_numbersAreWrittenByTheRules() {
        var random = SplitMix64(seed: 0xD0_0B1E)
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 1e16, 1e15, 9_999_999_999_999_998, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, .nan, 123.456]
        for _ in 0..<20_000 {
            values.append(Double(bitPattern: random.next()))
            values.append((random.nextUnit() - 0.5) * pow(10, Double(Int(random.next() % 40) - 20)))
        }
        for d in values {
            XCTAssertEqual(JSONWriter.compact(.double(d)), referenceDouble(d), "\(d)")
        }
        for i in [0, 1, -1, 42, Int.max, Int.min, 1_000_000_007, -9_876_543_210] {
            XCTAssertEqual(JSONWriter.compact(.int(i)), String(i))
        }
    }

    func test_aValueWrittenInPiecesIsTheValueWrittenWhole() throws {
        var items: [Value] = []
        for i in 0..<5_000 { items.append(["id": .int(i), "name": .string("name \(i) é \u{85}"), "x": .double(Double(i) / 7)]) }
        let value = Value.record(Record([("items", .list(items))]))
        for indent in [2, nil] as [Int?] {
            var pieces = 0
            var bytes: [UInt8] = []
            JSONWriter.write(value, indent: indent) { piece in
                pieces += 1
                bytes.append(contentsOf: piece)
            }
            XCTAssertGreaterThan(pieces, 3)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), indent == nil ? JSONWriter.compact(value) : JSONWriter.pretty(value))
        }
    }

    /// Number texts written from their digits (`JSONText.writeNumber`) are what writing the
    /// reader's value writes: texts that are a double's shortest digits, and texts that are not
    /// (sixteen to nineteen random digits, trailing zeros, a neighbour of the shortest).
    func test_numbersWrittenFromTheirTextAreTheValuesText() throws {
        var random = SplitMix64(seed: 0x5407_7E57)
        var texts = ["0.1", "0.10", "-0.5", "1.5e2", "123.456", "0.001", "0.0009999", "999999999999999.9", "1000000000000000.5",
                     "0.30000000000000004", "0.30000000000000005", "12.344999999999999", "12.345", "2.5E-3", "1e-3", "-0.0"]
        for _ in 0..<200_000 {
            let x = random.nextUnit() * pow(10, Double(Int(random.next() % 24) - 6))
            switch random.next() % 4 {
            case 0: texts.append(x.description)
            case 1: texts.append(String(format: "%.\(Int(random.next() % 19))f", x))
            case 2:
                let digits = (0..<(16 + Int(random.next() % 4))).map { _ in String(random.next() % 10) }.joined()
                texts.append(String(digits.prefix(Int(random.next() % 8) + 1)) + "." + digits.dropFirst(8))
            default:
                // The shortest digits with the last one moved by one.
                var t = Array(x.description.utf8)
                if let last = t.lastIndex(where: { $0 >= 0x30 && $0 <= 0x39 }), !t.contains(UInt8(ascii: "e")) {
                    t[last] = t[last] == 0x39 ? 0x38 : t[last] + 1
                }
                texts.append(String(decoding: t, as: UTF8.self))
            }
        }
        for text in texts {
            guard let value = try? JSON.parse(text) else { continue }
            let bytes = Array(text.utf8)
            var out = JSONOutput()
            defer { out.release() }
            let isInteger = !text.contains(".") && !text.lowercased().contains("e")
            bytes.withUnsafeBufferPointer { JSONText.writeNumber($0.baseAddress!, 0, $0.count, isInteger: isInteger, into: &out) }
            XCTAssertEqual(String(decoding: out.bytes, as: UTF8.self), JSONWriter.compact(value), text)
        }
    }

    /// Number texts of every shape: the fast reader's double is `Double(String)`'s, bit for bit
    /// (or it says it cannot tell).
    func test_theFastNumberReaderIsDoublesOwn() {
        var random = SplitMix64(seed: 0xF1_0A75)
        var texts = [
            "0", "-0", "0.0", "1", "9007199254740993", "9007199254740995", "2.2250738585072011e-308", "2.2250738585072014e-308",
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
            "1.7976931348623158e308", "1.7976931348623159e308", "1e23", "8.98846567431158e307", "0.1", "1e-400", "1e400",
            "123456789012345678901234567890", "0.000000000000000000000000000001", "7.2057594037927933e16", "1e22", "1e-22",
        ]
        for _ in 0..<100_000 {
            switch random.next() % 4 {
            case 0: texts.append(Double(bitPattern: random.next() & ~(1 << 63)).description)
            case 1: texts.append("\(random.next() % 100_000_000_000_000_000_00).\(random.next() % 1000)e\(Int(random.next() % 700) - 350)")
            case 2: texts.append(String(random.nextUnit() * pow(10, Double(Int(random.next() % 30) - 15))))
            default:
                // Seventeen digits, around the halfway points between doubles.
                let digits = (0..<17).map { _ in String(random.next() % 10) }.joined()
                texts.append("0." + digits + "e\(Int(random.next() % 40) - 20)")
            }
        }
        var decided = 0
        for text in texts where !text.contains("inf") && !text.contains("nan") {
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBufferPointer { DecimalToDouble.parse($0.baseAddress!, 0, $0.count) }
            guard let fast else { continue }
            decided += 1
            XCTAssertEqual(fast.bitPattern, Double(text)!.bitPattern, text)
        }
        XCTAssertGreaterThan(decided, 70_000)
    }
}
