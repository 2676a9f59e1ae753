// A stage's arguments keep one argument in place and two or more in a list (`ArgumentList`).
// Generated, seeded: every sequence of appends, replacements and removals must leave the list
// holding what an array given the same operations holds, in the same order; and the parser must
// give every stage the arguments it wrote, whatever their number.
import XCTest

@testable import VowSyntax

final class ArgumentListTests: XCTestCase {
    /// An argument told apart by its span.
    private func argument(_ n: Int) -> Argument {
        Argument(kind: .number(Double(n), isInteger: true, text: String(n)), span: SourceSpan(start: n, end: n + 1))
    }

    private func starts(_ list: ArgumentList) -> [Int] { list.map(\.span.start) }
    private func starts(_ array: [Argument]) -> [Int] { array.map(\.span.start) }

    func test_itHoldsWhatAnArrayHoldsUnderTheSameChanges() {
        var rng = SeededGenerator(seed: 20261201)
        var next = 0
        for _ in 0..<2000 {
            var list = ArgumentList()
            var array: [Argument] = []
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                next += 1
                switch Int.random(in: 0..<6, using: &rng) {
                case 0, 1, 2:
                    list.append(argument(next))
                    array.append(argument(next))
                case 3 where !array.isEmpty:
                    let i = Int.random(in: 0..<array.count, using: &rng)
                    list.remove(at: i)
                    array.remove(at: i)
                case 4:
                    let i = Int.random(in: 0...array.count, using: &rng)
                    let made = (0..<Int.random(in: 0...2, using: &rng)).map { argument(next * 100 + $0) }
                    list.replaceSubrange(i..<i, with: made)
                    array.replaceSubrange(i..<i, with: made)
                default:
                    let copy = list  // a copy keeps what it held when the original changes
                    let held = starts(copy)
                    list.append(argument(next))
                    array.append(argument(next))
                    XCTAssertEqual(starts(copy), held)
                }
                XCTAssertEqual(starts(list), starts(array))
                XCTAssertEqual(list.count, array.count)
                XCTAssertEqual(list.isEmpty, array.isEmpty)
                XCTAssertEqual(list.first?.span.start, array.first?.span.start)
                XCTAssertEqual(list.last?.span.start, array.last?.span.start)
                XCTAssertEqual(starts(list.array), starts(array))
                XCTAssertEqual(starts(ArgumentList(array)), starts(array))
                XCTAssertEqual(list.dropFirst().map(\.span.start), Array(starts(array).dropFirst()))
            }
        }
    }

    func test_literalsAndSequencesMakeTheSameList() {
        XCTAssertTrue(ArgumentList().isEmpty)
        XCTAssertEqual(starts([argument(1)] as ArgumentList), [1])
        XCTAssertEqual(starts([argument(1), argument(2), argument(3)] as ArgumentList), [1, 2, 3])
        XCTAssertEqual(starts(ArgumentList([argument(4), argument(5)].reversed())), [5, 4])
    }

    /// Each stage of a parsed pipeline holds the arguments written for it, none, one or many,
    /// in order, with their texts.
    func test_theParserGivesEachStageItsArguments() throws {
        var rng = SeededGenerator(seed: 1201)
        let words = ["@", "a.b", "1", "2.5", "null", "undefined", "true", "'r'", "\"s\"", "10ms", "--limit", "(pick @)", "[1, x]"]
        for _ in 0..<500 {
            var written: [[String]] = []
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                written.append((0..<Int.random(in: 0...4, using: &rng)).map { _ in words.randomElement(using: &rng)! })
            }
            let text = written.map { (["pick"] + $0).joined(separator: " ") }.joined(separator: " | ")
            let source = SourceText(text)
            let pipeline = try Parser.parsePipeline(source)
            XCTAssertEqual(pipeline.stages.count, written.count, text)
            for (stage, args) in zip(pipeline.stages, written) {
                let read = stage.arguments.map { String(decoding: source.bytes[$0.span.start..<$0.span.end], as: UTF8.self) }
                XCTAssertEqual(read, args, text)
            }
        }
    }

    /// `null` and `undefined` are kinds of their own, told apart from each other and from text.
    func test_nullAndUndefinedAreReadAsSuch() throws {
        let stage = try Parser.parsePipeline(SourceText("echo null undefined nul")).stages[0]
        guard case .null = stage.arguments[0].kind else { return XCTFail("null") }
        guard case .undefined = stage.arguments[1].kind else { return XCTFail("undefined") }
        guard case .word = stage.arguments[2].kind else { return XCTFail("nul is a word") }
    }
}
