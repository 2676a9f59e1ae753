// The parser reads a plain word (`@`, `name`, `10ms`) directly, without the template `word`
// makes; every other word goes through `word`. Generated, seeded: on words made of plain bytes,
// separators, brackets, quotes and interpolations, in every context, `wordArgument` must give
// what `word` gives (the same kind, the same end, the same error).
import XCTest

@testable import VowSyntax

final class PlainWordTests: XCTestCase {
    /// What `wordArgument` gives, told as text; or the error.
    private func viaArgument(_ text: String, _ context: Context) -> String {
        var s = ParserState(SourceText(text))
        do {
            let a = try s.wordArgument(context: context)
            return "\(describe(a.kind)) \(a.span.start)..<\(a.span.end) pos \(s.pos)"
        } catch {
            return "error \(error.message) at \(error.span.start)"
        }
    }

    /// What `word` gives, made into an argument as `wordArgument` did before it read plain
    /// words itself.
    private func viaWord(_ text: String, _ context: Context) -> String {
        var s = ParserState(SourceText(text))
        do {
            let t = try s.word(context: context)
            let kind: ArgumentKind = t.literalText.flatMap { s.literal($0) } ?? .word(t)
            return "\(describe(kind)) 0..<\(s.pos) pos \(s.pos)"
        } catch {
            return "error \(error.message) at \(error.span.start)"
        }
    }

    private func describe(_ k: ArgumentKind) -> String {
        if case .word(let t) = k { return "word \(t.parts)" }
        return "\(k)"
    }

    func test_aPlainWordReadsAsWordWouldReadIt() {
        let pieces = ["a", "Z", "0", "7", "@", ".", "-", "*", ":", "/", "é", "=", "!", "_", "1.5", "10ms", "true", "null",
                      "{", "}", "{}", "$", "$x", "'", "`", "&", ",", "(", ")", "[", "]", "#", "%", "\\", "\"", " ", "|", ";", "\n", "\t", "\u{7f}"]
        var rng = SeededGenerator(seed: 20261127)
        var compared = 0
        for _ in 0..<4000 {
            let n = Int.random(in: 1...6, using: &rng)
            let text = (0..<n).map { _ in pieces.randomElement(using: &rng)! }.joined()
            for context in [Context.statement, .group, .list, .record] {
                XCTAssertEqual(viaArgument(text, context), viaWord(text, context), "\(text.debugDescription) in \(context)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 16000)
    }
}

/// A small seeded generator (splitmix64), so that a failure names a case that comes again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The parser reads a plain integer (`7`, `-42`) itself, and every other number the general
/// way: seeded strings of digits, signs and leading zeros, checked against `Int` and `Double`.
final class PlainIntegerTests: XCTestCase {
    func test_aPlainIntegerIsReadAsIntAndDoubleReadIt() {
        var rng = SeededGenerator(seed: 44)
        let pieces = ["0", "1", "5", "9", "-", "00", "123456789", ".", "e", "x"]
        var taken = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let bytes = Array(text.utf8)
            let digits = bytes.first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes[...]
            let plain = !digits.isEmpty && digits.count <= 15 && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
                && (digits.first != UInt8(ascii: "0") || (digits.count == 1 && bytes.count == 1))
            let read = ParserState.plainInteger(text)
            XCTAssertEqual(read, plain ? Int(text) : nil, text)
            if let read {
                taken += 1
                XCTAssertEqual(Double(read), Double(text), text)
                let s = ParserState(SourceText(text))
                guard case .number(let d, let isInteger, let written)? = s.literal(text) else { return XCTFail(text) }
                XCTAssertEqual(d, Double(text))
                XCTAssertTrue(isInteger)
                XCTAssertEqual(written, text)
            }
        }
        XCTAssertGreaterThan(taken, 1000)
    }
}
