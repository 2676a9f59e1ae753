// The twin writer's byte-level readings of its own text (`TwinText`), each against what the
// writer asked Foundation and a `Regex` for before: generated, seeded texts of the characters
// that matter (`$`, digits, letters, `_`, newlines, `\r\n`, the upstream mark, non-ASCII).
import Foundation
import VowValue
import XCTest

@testable import VowRuntime

final class TwinTextTests: XCTestCase {
    private let pieces = [
        "$", "1", "0", "9", "12", "a", "_", "Z", " ", "\n", "\r\n", "(", ")", ",", "$env", "$1", "$10", "é", "…", "\u{1}upstream\u{1}",
        "\u{1}", "upstream", "\"", "x", "$0", "99999999999999999999",
    ]

    /// 3,000 texts of up to 12 pieces, generated from `seed`.
    private func texts(seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        return (0..<3000).map { _ in
            (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        }
    }

    func test_indentingIsReplacingEachNewline() {
        var indented = 0
        for t in texts(seed: 4431) {
            let expected = t.replacingOccurrences(of: "\n", with: "\n  ")
            XCTAssertEqual(TwinText.indented(t), expected, t.debugDescription)
            if expected != t { indented += 1 }
        }
        XCTAssertGreaterThan(indented, 1000)
    }

    func test_containsIsFoundationsContains() {
        var found = 0
        for t in texts(seed: 4432) {
            for needle in ["\u{1}upstream\u{1}", "$env"] {
                let expected = t.contains(needle)
                XCTAssertEqual(TwinText.contains(t[...], needle), expected, t.debugDescription)
                XCTAssertEqual(TwinText.contains(t.dropFirst(2), needle), String(t.dropFirst(2)).contains(needle), t.debugDescription)
                if expected { found += 1 }
            }
        }
        XCTAssertGreaterThan(found, 1000)
    }

    /// The highest `$N` found, as the regex `\$([1-9][0-9]*)\b` with simple word boundaries (a
    /// word character next to one that is not) finds it on ASCII text. The regex as the writer
    /// had it, with Unicode's word boundaries, finds no more anywhere (it does not end `$1` in
    /// `$1,2`, where a comma between digits is inside a word).
    func test_theHighestNumberedArgumentIsTheRegexs() {
        var numbered = 0
        for t in texts(seed: 4433) {
            let simple = t.matches(of: /\$([1-9][0-9]*)\b/.wordBoundaryKind(.simple)).compactMap { Int($0.1) }.max()
            let unicode = t.matches(of: /\$([1-9][0-9]*)\b/).compactMap { Int($0.1) }.max()
            let found = TwinText.highestNumberedArgument(in: t)
            if t.utf8.allSatisfy({ $0 < 0x80 }) { XCTAssertEqual(found, simple, t.debugDescription) }
            if let unicode { XCTAssertGreaterThanOrEqual(found ?? 0, unicode, t.debugDescription) }
            if simple != nil { numbered += 1 }
        }
        XCTAssertGreaterThan(numbered, 500)
    }
}
