// Two shortcuts of planning, each against the long way round. Generated, seeded:
// - the warnings of a program without `[`, `"` or `'` are not looked for (`Planner.mayWarn`):
//   on programs with and without those bytes, `warnings(in:)` must say what the walk of every
//   stage says (`allWarnings(in:)`), and the walk must find nothing where the bytes are missing;
// - a name that repeats is resolved once per list of stages (`ResolvedNames`): the plans of a
//   pipeline that repeats and alternates names must be those of each stage planned alone.
import VowSyntax
import VowValue
import XCTest

@testable import VowRuntime

final class PlanningRepeatsTests: XCTestCase {
    /// Stages, some of which warn when the right argument follows (a quoted name compared, a
    /// flattened `items(@)[]`, a single-quoted `format` template, a stage's name alone in a list).
    private let stages = [
        "pick @", "pick a.b", "pick 'a == \"Oslo\"'", "pick \"items(@)[]\"", "pick items(@)[*]", "where a==b",
        "format '{a}'", "format \"{a}\"", "format plain", "echo [len, x]", "echo [(len), x]", "echo [1, 2]",
        "each (pick @)", "then pick @", "nosuch @", "len", "keys", "sort-by a", "echo {type: text}", "catch 1",
        "pick `1`", "echo \"a\"", "def2", "where 'x'",
    ]

    private func program(_ rng: inout SplitMix64) -> String {
        (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            let pipeline = (0..<Int.random(in: 1...6, using: &rng)).map { _ in stages.randomElement(using: &rng)! }
                .joined(separator: " | ")
            return Bool.random(using: &rng) ? pipeline : "def def2 = \(pipeline)"
        }.joined(separator: "\n")
    }

    func test_warningsAreLookedForWhereTheyCanBeWritten() throws {
        var rng = SplitMix64(seed: 44)
        var warned = 0, unwalked = 0
        for _ in 0..<1500 {
            let text = program(&rng)
            guard let parsed = try? Parser.parse(SourceText(text)) else { continue }
            let planner = Planner.checking(parsed, registry: .builtins, defs: [:])
            let walked = planner.allWarnings(in: parsed).map(\.message)
            XCTAssertEqual(planner.warnings(in: parsed).map(\.message), walked, text)
            if !Planner.mayWarn(parsed.source.bytes) {
                XCTAssertEqual(walked, [], text)
                unwalked += 1
            }
            if !walked.isEmpty { warned += 1 }
        }
        // Both kinds of program are made, and the warnings do fire.
        XCTAssertGreaterThan(warned, 300)
        XCTAssertGreaterThan(unwalked, 100)
    }

    func test_aRepeatedNameIsPlannedAsItIsAlone() throws {
        var rng = SplitMix64(seed: 2026)
        let defBody = try Parser.parsePipeline(SourceText("pick @"))
        let defs = ["def2": UserStage(name: "def2", params: [], body: defBody, source: SourceText("pick @"))]
        func described(_ p: StagePlan) -> String {
            switch p.kind {
            case .value: return "value"
            case .builtin(let def, let positional, let flags): return "\(def.name) \(positional.count) \(flags.keys.sorted())"
            case .user(let user): return "def \(user.name)"
            case .refused(let problem): return "refused \(problem.message)"
            }
        }
        var compared = 0
        for _ in 0..<400 {
            let text = (0..<Int.random(in: 2...10, using: &rng)).map { _ in stages.randomElement(using: &rng)! }.joined(separator: " | ")
            let pipeline = try Parser.parsePipeline(SourceText(text))
            for withDefs in [[:], defs] {
                let planner = Planner(registry: .builtins, defs: withDefs)
                let together = planner.plan(pipeline).map(described)
                let alone = pipeline.stages.map { described(planner.plan($0)) }
                XCTAssertEqual(together, alone, text)
                compared += together.count
            }
        }
        XCTAssertGreaterThan(compared, 3000)
    }
}
