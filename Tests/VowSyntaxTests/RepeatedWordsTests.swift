// The parser gives a name or a plain word written again what it made of it the first time
// (`RecentBytes`), and records every stage name it reads (`Program.stageNames`). Generated,
// seeded: in programs that repeat and alternate names and words, every name and every plain
// word must read as it reads alone in a parser that has read nothing before, and the names
// recorded must be those a walk of the tree finds.
import XCTest

@testable import VowSyntax

final class RepeatedWordsTests: XCTestCase {
    private let names = ["pick", "each", "arg", "flag", "p-x", "then", "pick2", "pic"]
    private let words = ["@", "a.b", "a", "ab", "b", "10ms", "1", "-1", "007", "1.5", "true", "null", "x", "x-y", "é",
                         "@", "a.b", "{}", "$x", "\"s\"", "'r'", "(pick @)", "[a, pick]", "{k: v}", "--limit", "3"]

    /// A seeded program: statements of pipelines of stages, names and words drawn with repeats.
    private func program(_ rng: inout SeededGenerator) -> String {
        var statements: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            var stages: [String] = []
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let args = (0..<Int.random(in: 0...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }
                stages.append(([names.randomElement(using: &rng)!] + args).joined(separator: " "))
            }
            let pipeline = stages.joined(separator: " | ")
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: statements.append("let v = \(pipeline)")
            case 1: statements.append("def d = \(pipeline)")
            default: statements.append(pipeline)
            }
        }
        return statements.joined(separator: Bool.random(using: &rng) ? "\n" : "; ")
    }

    /// A word read alone, from a parser that has read nothing before it.
    private func alone(_ text: String) -> String {
        var s = ParserState(SourceText(text))
        guard let a = try? s.wordArgument(context: .statement) else { return "error" }
        return "\(a.kind)"
    }

    func test_aRepeatedNameOrWordReadsAsItReadsAlone() throws {
        var rng = SeededGenerator(seed: 20261127)
        var words = 0, names = 0, programs = 0
        for _ in 0..<600 {
            let text = program(&rng)
            guard let parsed = try? Parser.parse(SourceText(text)) else { continue }
            programs += 1
            let bytes = Array(text.utf8)
            func slice(_ span: SourceSpan) -> String { String(decoding: bytes[span.start..<span.end], as: UTF8.self) }
            var walked: Set<String> = []
            parsed.forEachStage { stage in
                if case .named(let name, let span) = stage.head {
                    XCTAssertEqual(name, slice(span), text)
                    walked.insert(name)
                    names += 1
                }
                for a in stage.arguments {
                    switch a.kind {
                    case .word, .number, .boolean, .null, .undefined, .duration:
                        XCTAssertEqual("\(a.kind)", alone(slice(a.span)), "\(slice(a.span)) in \(text)")
                        words += 1
                    default: break
                    }
                }
            }
            XCTAssertEqual(parsed.stageNames, walked, text)
            for name in self.names { XCTAssertEqual(parsed.containsStage(named: name), walked.contains(name), text) }
        }
        // The generator makes programs that parse, with many names and words to compare.
        XCTAssertGreaterThan(programs, 500)
        XCTAssertGreaterThan(names, 5000)
        XCTAssertGreaterThan(words, 5000)
    }

    func test_theBytesKeptAreComparedNotTheirPlace() {
        var recent = RecentBytes<String>()
        let bytes = Array("pick pick pic pickx".utf8)
        XCTAssertNil(recent.lookup(bytes, 0, 4))
        recent.keep("pick", 0, 4)
        XCTAssertEqual(recent.lookup(bytes, 5, 9), "pick")
        XCTAssertNil(recent.lookup(bytes, 10, 13), "a shorter word is another")
        XCTAssertNil(recent.lookup(bytes, 14, 19), "a longer word is another")
        XCTAssertNil(recent.lookup(bytes, 15, 19), "the same length, other bytes")
    }

    /// Four runs are kept (`then (pick @) | …` alternates two names); a fifth replaces the
    /// oldest.
    func test_fourRunsAreKeptAndTheOldestGoesFirst() {
        var recent = RecentBytes<String>()
        let bytes = Array("a bb ccc dddd eeeee".utf8)
        let runs = [(0, 1), (2, 4), (5, 8), (9, 13), (14, 19)]
        for (s, e) in runs.prefix(4) { recent.keep(String(decoding: bytes[s..<e], as: UTF8.self), s, e) }
        for (s, e) in runs.prefix(4) { XCTAssertEqual(recent.lookup(bytes, s, e), String(decoding: bytes[s..<e], as: UTF8.self)) }
        recent.keep("eeeee", 14, 19)
        XCTAssertNil(recent.lookup(bytes, 0, 1), "the oldest run was replaced")
        XCTAssertEqual(recent.lookup(bytes, 2, 4), "bb")
        XCTAssertEqual(recent.lookup(bytes, 14, 19), "eeeee")
    }
}
