// A pipeline keeps its stages and span in one block (`PipelineStorage`), grown as it is parsed
// (`StageNodesBuilder`). Generated, seeded: pipelines of every length up to past several
// doublings, with groups and lists nested in them, must give back each stage as written, in
// order, with its span; a group is one word in its argument, so an argument's kind stays one.
import XCTest

@testable import VowSyntax

final class StageNodesTests: XCTestCase {
    /// A stage of a few shapes, told apart by `n`.
    private func stageText(_ n: Int, rng: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return "pick a\(n)"
        case 1: return "then (pick b\(n))"
        case 2: return "then (pick c\(n) | format \"{}\")"
        case 3: return "all [resolve \(n), (echo \(n) | len)]"
        default: return "echo \(n)"
        }
    }

    func test_aPipelineGivesBackEveryStageItWasWrittenWithInOrder() throws {
        var rng = SeededGenerator(seed: 20261202)
        for length in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 100, 257, 1000] {
            let stages = (0..<length).map { stageText($0, rng: &rng) }
            let text = stages.joined(separator: " | ")
            let pipeline = try Parser.parsePipeline(SourceText(text))
            XCTAssertEqual(pipeline.stages.count, length, text)
            XCTAssertEqual(pipeline.span.start, 0)
            XCTAssertEqual(pipeline.span.end, text.utf8.count)
            var at = 0
            for (i, written) in stages.enumerated() {
                let node = pipeline.stages[i]
                let start = at
                at += written.utf8.count
                XCTAssertEqual(node.span, SourceSpan(start: start, end: at), "stage \(i) of \(length)")
                XCTAssertEqual(node.name, String(written.prefix { $0 != " " }), "stage \(i) of \(length)")
                at += 3  // " | "
            }
            // Iterated as a collection, the same stages.
            XCTAssertEqual(pipeline.stages.map(\.span.start), (0..<length).map { pipeline.stages[$0].span.start })
        }
    }

    func test_aGroupHoldsItsOwnPipelineWithItsSpan() throws {
        let text = "then (pick a | format \"{}\") | then (len)"
        let pipeline = try Parser.parsePipeline(SourceText(text))
        guard case .group(let first) = pipeline.stages[0].arguments[0].kind,
            case .group(let second) = pipeline.stages[1].arguments[0].kind
        else { return XCTFail("expected two groups") }
        XCTAssertEqual(first.stages.map(\.name), ["pick", "format"])
        XCTAssertEqual(second.stages.map(\.name), ["len"])
        let source = SourceText(text)
        XCTAssertEqual(String(decoding: source.bytes[first.span.start..<first.span.end], as: UTF8.self), "pick a | format \"{}\"")
        XCTAssertEqual(String(decoding: source.bytes[second.span.start..<second.span.end], as: UTF8.self), "len")
    }

    func test_aPipelineAndAnArgumentKindAreOneWordEach() {
        // A group needs no box of its own only while its payload is one reference.
        XCTAssertEqual(MemoryLayout<Pipeline>.size, MemoryLayout<UInt>.size)
        XCTAssertEqual(MemoryLayout<ArgumentKind>.size, MemoryLayout<UInt>.size)
        XCTAssertEqual(MemoryLayout<StageNodes>.size, MemoryLayout<UInt>.size)
    }

    func test_aPipelineMadeFromStagesHoldsThemAndSharesItsBlockWithItsCopies() throws {
        let parsed = try Parser.parsePipeline(SourceText("echo 1 | pick @ | len"))
        let made = Pipeline(stages: Array(parsed.stages), span: parsed.span)
        XCTAssertEqual(made.stages.map(\.span), parsed.stages.map(\.span))
        XCTAssertEqual(made.span, parsed.span)
        let one = Pipeline(one: parsed.stages[1])
        XCTAssertEqual(one.stages.count, 1)
        XCTAssertEqual(one.span, parsed.stages[1].span)
        let copy = made
        XCTAssertTrue(copy.stages.isSame(as: made.stages))
        XCTAssertFalse(made.stages.isSame(as: parsed.stages))
        XCTAssertTrue(StageNodes().isEmpty)
    }
}
