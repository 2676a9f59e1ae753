// Two shortcuts of planning, each against the long way round. Generated, seeded:
// - the warnings of a program without `"` or `'`, without both `(` and `[`, and without a lone
//   word in a list are not looked for (`Planner.mayWarn`): on programs with and without those,
//   `warnings(in:)` must say what the walk of every stage says (`allWarnings(in:)`), and the walk
//   must find nothing where they are missing;
// - a name that repeats is resolved once per list of stages (`ResolvedNames`): the plans of a
//   pipeline that repeats and alternates names must be those of each stage planned alone;
// - a stage written as the one before it takes that one's plan again (`StagePlan.again`), and
//   knows it plans alike to it when every argument is the very same (`alikeBefore`): what
//   `plansAlike(before:)` and `hasDirectForm(after:)` answer from that must be what comparing
//   the plans answers; the
//   plans of pipelines of runs of the same stage must be those of each stage planned alone, to
//   the arguments' places (and, for a stage that takes plain values, written so up to their
//   texts: `resolve 1 | resolve 2`), and a plan shared by stages written byte for byte alike
//   (`Planner.plan(_:sharing:)`), placed at each, must be that stage's plan alone; and the check's walk, which does the same across the one-stage
//   pipelines inside stages (groups, elements), must find what planning each in full finds.
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
        "pick `1`", "echo \"a\"", "def2", "where 'x'", "all [resolve 1, resolve 2]", "pick a[0]", "echo [x]",
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
        var warned = 0, unwalked = 0, unwalkedWithAList = 0
        for _ in 0..<1500 {
            let text = program(&rng)
            guard let parsed = try? Parser.parse(SourceText(text)) else { continue }
            let planner = Planner.checking(parsed, registry: .builtins, defs: [:])
            let walked = planner.allWarnings(in: parsed).map(\.message)
            XCTAssertEqual(planner.warnings(in: parsed).map(\.message), walked, text)
            if !Planner.mayWarn(parsed) {
                XCTAssertEqual(walked, [], text)
                unwalked += 1
                if text.contains("[") { unwalkedWithAList += 1 }
            }
            if !walked.isEmpty { warned += 1 }
        }
        // Both kinds of program are made, and the warnings do fire.
        XCTAssertGreaterThan(warned, 300)
        XCTAssertGreaterThan(unwalked, 100)
        XCTAssertGreaterThan(unwalkedWithAList, 30)
    }

    func test_aRepeatedNameIsPlannedAsItIsAlone() throws {
        var rng = SplitMix64(seed: 2026)
        let defBody = try Parser.parsePipeline(SourceText("pick @"))
        let defs = ["def2": UserStage(name: "def2", params: [], body: defBody, source: SourceText("pick @"))]
        func described(_ p: StagePlan) -> String {
            switch p.kind {
            case .value: return "value"
            case .builtin(let def, let positional): return "\(def.name) \(positional.count) \(p.flags.keys.sorted())"
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

    func test_aStageWrittenAgainIsPlannedAsItIsAlone() throws {
        var rng = SplitMix64(seed: 4404)
        let repeated = [
            "pick @", "pick a.b", "pick 'x'", "pick \"y\"", "pick \"{z}\"", "sort-by a", "len", "format plain", "echo 1", "echo 1.0",
            "echo true", "echo null", "echo undefined", "delay 10ms", "delay 1s", "each (pick @)", "then pick @", "pick a b",
            "pick 'a =='", "echo $x", "fetch x --retry 2", "tap (echo 1)", "catch 1", "json", "def2", "nosuch 1", "echo [1, 2]",
            "echo {a: 1}", "then (pick @) (pick @)", "echo 'q'", "echo \"q\"", "then (pick @)", "then (len | pick @)", "catch (len)",
            "finally (echo 1)", "then (nosuch)", "echo (len)", "pick (len)", "then (pick @) 1", "tap (delay 1ms)", "each (len) --limit 2",
        ]
        let defBody = try Parser.parsePipeline(SourceText("pick @"))
        let defs = ["def2": UserStage(name: "def2", params: [], body: defBody, source: SourceText("pick @"))]
        let described = Self.described
        var compared = 0, again = 0, alikeBefore = 0, shared = 0
        for _ in 0..<300 {
            // Runs of one stage, one to four long, of the stages above.
            var stages: [String] = []
            while stages.count < 12 {
                let stage = repeated.randomElement(using: &rng)!
                stages += Array(repeating: stage, count: Int.random(in: 1...4, using: &rng))
            }
            let text = stages.joined(separator: " | ")
            let source = SourceText(text)
            let pipeline = try Parser.parsePipeline(source)
            for withDefs in [[:], defs] {
                let planner = Planner(registry: .builtins, defs: withDefs)
                let together = planner.plan(pipeline)
                let alone = pipeline.stages.map { planner.plan($0) }
                XCTAssertEqual(together.map(described), alone.map(described), text)
                // Sharing the plans of stages written byte for byte alike: each plan, placed at its
                // stage, is that stage's plan alone, and its span is read without placing it.
                let sharing = planner.plan(pipeline, sharing: source)
                let placed = sharing.indices.map { sharing[$0].placed(in: pipeline.stages, at: $0) }
                XCTAssertEqual(placed.map(described), alone.map(described), text)
                for i in sharing.indices {
                    XCTAssertEqual(sharing[i].writtenSpan(in: pipeline.stages, at: i), pipeline.stages[i].span, text)
                    if i > 0, sharing[i] === sharing[i - 1] {
                        shared += 1
                        XCTAssertEqual(source.slice(pipeline.stages[i].span), source.slice(pipeline.stages[i - 1].span), text)
                        XCTAssertFalse(sharing[i].definition?.looksAhead ?? true, text)
                    }
                }
                for i in together.indices.dropFirst() where together[i - 1].again(at: (pipeline.stages, i)) != nil {
                    again += 1
                }
                // What planning knew of a stage and the one before it is what comparing them says.
                for i in together.indices.dropFirst() {
                    XCTAssertEqual(together[i].plansAlike(before: together[i - 1]), together[i].plansAlike(together[i - 1]), text)
                    if PureStage.hasDirectForm(together[i - 1]) {
                        XCTAssertEqual(together[i].hasDirectForm(after: together[i - 1]), PureStage.hasDirectForm(together[i]), text)
                    }
                    if together[i].alikeBefore { alikeBefore += 1 }
                }
                compared += together.count
            }
        }
        XCTAssertGreaterThan(compared, 5000)
        // The shortcut is taken often: the test would pass without it.
        XCTAssertGreaterThan(again, 1000)
        XCTAssertGreaterThan(alikeBefore, 500)
        XCTAssertGreaterThan(shared, 1000)
    }

    /// A plan, to its arguments' places and the texts of what it holds.
    private static func described(_ p: StagePlan) -> String {
        let spans = { (arguments: [Argument]) in arguments.map { "\($0.span.start)-\($0.span.end)" }.joined(separator: ",") }
        let what: String
        switch p.kind {
        case .value(let a): what = "value \(a.span.start)"
        case .builtin(let def, let positional):
            let flags = p.flags
            what = "\(def.name) [\(spans(positional.array))] \(flags.keys.sorted()) \(flags.values.map { spans($0.compactMap { $0 }) })"
        case .user(let user): what = "def \(user.name)"
        case .refused(let problem): what = "refused \(problem.message) \(problem.span.start)"
        }
        return "\(what) \(p.node.span.start)-\(p.node.span.end) \(p.onRejection) \(p.nameAsWritten) \(p.inner.map(described) ?? "-")"
    }

    /// A stage that takes plain values, written as the one before it up to their texts (`resolve
    /// 1 | resolve 2`), takes that one's plan again; a stage of the same name with an expression,
    /// an inner stage or another kind of literal does not. Runs of variants of one stage: the
    /// plans made together must be those of each stage planned alone.
    func test_aStageWrittenAsTheOneBeforeUpToItsPlainValuesIsPlannedAsItIsAlone() throws {
        var rng = SplitMix64(seed: 4407)
        let families = [
            ["echo 1", "echo 2", "echo 30", "echo 1.5", "echo x", "echo 'q'", "echo \"q\"", "echo \"{q}\"", "echo true",
             "echo null", "echo 1 2", "echo (len)", "echo $x", "echo 5ms", "echo [1]"],
            ["resolve 1", "resolve 2", "resolve a", "resolve 'a'", "resolve 1 --x"],
            ["delay 10ms", "delay 2s", "delay 5", "delay x"],
            ["pick 'x'", "pick 'a =='", "pick 'y'", "pick a", "pick b", "pick \"{z}\""],
            ["then len", "then echo", "then nosuch", "then (len)", "then echo 1", "then echo 2"],
            ["format plain", "format other", "format 'x'", "format \"{x}\""],
            ["sort-by a", "sort-by b", "sort-by 'c'"],
            ["catch 1", "catch 2", "catch x"],
        ]
        var compared = 0, relaxed = 0
        for _ in 0..<300 {
            var stages: [String] = []
            while stages.count < 12 {
                let family = families.randomElement(using: &rng)!
                for _ in 0..<Int.random(in: 2...5, using: &rng) { stages.append(family.randomElement(using: &rng)!) }
            }
            let text = stages.joined(separator: " | ")
            let pipeline = try Parser.parsePipeline(SourceText(text))
            let planner = Planner(registry: .builtins, defs: [:])
            let together = planner.plan(pipeline)
            let alone = pipeline.stages.map { planner.plan($0) }
            XCTAssertEqual(together.map(Self.described), alone.map(Self.described), text)
            for i in together.indices.dropFirst() where stages[i] != stages[i - 1]
                && together[i - 1].again(at: (pipeline.stages, i)) != nil {
                relaxed += 1
            }
            compared += together.count
        }
        XCTAssertGreaterThan(compared, 3000)
        // Stages written otherwise than the one before them take its plan often.
        XCTAssertGreaterThan(relaxed, 100)
    }

    func test_theCheckFindsWhatPlanningEachNestedPipelineFinds() throws {
        var rng = SplitMix64(seed: 4405)
        let inner = ["pick @", "pick 'a =='", "nosuch 1", "pick a b", "echo 1", "fetch x --nosuchflag", "len", "def2", "each (pick @)"]
        let forms = ["then (S)", "[S, S]", "tap (S)", "all [S, (S)]", "{a: (S)}", "catch (S)", "then (S) (S)", "each (S)", "then (S | S)"]
        let defBody = try Parser.parsePipeline(SourceText("pick @"))
        let defs = ["def2": UserStage(name: "def2", params: [], body: defBody, source: SourceText("pick @"))]
        var checked = 0, refused = 0, repeated = 0
        for _ in 0..<300 {
            var stages: [String] = []
            while stages.count < 10 {
                let stage = forms.randomElement(using: &rng)!.replacingOccurrences(of: "S", with: inner.randomElement(using: &rng)!)
                let count = Int.random(in: 1...4, using: &rng)
                stages += Array(repeating: stage, count: count)
                // A stage written byte for byte as the one before it, which the check does not
                // walk when that one has no problem.
                repeated += count - 1
            }
            let text = "echo 1 | " + stages.joined(separator: " | ")
            let program = try Parser.parse(SourceText(text))
            let planner = Planner(registry: .builtins, defs: defs)
            let found = planner.problems(in: program).map { "\($0.message) \($0.span.start)" }
            XCTAssertEqual(found, Self.everyProblem(program, planner).map { "\($0.message) \($0.span.start)" }, text)
            checked += 1
            if !found.isEmpty { refused += 1 }
        }
        XCTAssertEqual(checked, 300)
        XCTAssertGreaterThan(refused, 100)
        XCTAssertGreaterThan(repeated, 1000)
    }

    /// The elements of a list written as the one before them up to their plain values (`all
    /// [resolve 1, resolve 2, …]`) are not planned by the check (`StagePlan.writtenAlike`):
    /// it still finds every problem that planning each element in full finds, whatever the
    /// elements around them (a flag, too many arguments, a template, an unknown name, an
    /// expression stage, a group, an unknown name inside a group).
    func test_theCheckFindsWhatPlanningEachElementOfAListFinds() throws {
        var rng = SplitMix64(seed: 4406)
        let elements = [
            "resolve N", "resolve 'tN'", "resolve \"tN\"", "resolve wN", "resolve N N", "resolve N --nosuch", "resolve \"{N}\"",
            "resolve null", "resolve true", "delay Nms", "delay Nms --nosuch", "echo N", "echo N N", "nosuch N", "pick 'a =='",
            "pick aN", "reject N", "resolve (pick @)", "resolve [N]", "resolve $x", "sleep Nms N", "resolve (nosuch N)",
        ]
        var checked = 0, refused = 0, skipped = 0
        for _ in 0..<300 {
            var written: [String] = []
            while written.count < 16 {
                let element = elements.randomElement(using: &rng)!
                for _ in 0..<Int.random(in: 1...5, using: &rng) {
                    written.append(element.replacingOccurrences(of: "N", with: String(Int.random(in: 1...99, using: &rng))))
                }
            }
            let combinator = ["all", "race", "echo", "allSettled"].randomElement(using: &rng)!
            let text = "\(combinator) [" + written.joined(separator: ", ") + "]"
            let program = try Parser.parse(SourceText(text))
            let planner = Planner(registry: .builtins, defs: [:])
            let found = planner.problems(in: program).map { "\($0.message) \($0.span.start)" }
            XCTAssertEqual(found, Self.everyProblem(program, planner).map { "\($0.message) \($0.span.start)" }, text)
            checked += 1
            if !found.isEmpty { refused += 1 }
            // How often the check's shortcut applies: the test would pass without it.
            guard case .pipeline(let p, _) = program.statements[0].kind, case .list(let ps) = p.stages[0].arguments[0].kind else {
                return XCTFail("a list: \(text)")
            }
            for i in ps.indices.dropFirst() where ps[i].stages.count == 1 && ps[i - 1].stages.count == 1 {
                if planner.plan(ps[i - 1])[0].writtenAlike(ps[i].stages, at: 0) { skipped += 1 }
            }
        }
        XCTAssertEqual(checked, 300)
        XCTAssertGreaterThan(refused, 100)
        XCTAssertGreaterThan(skipped, 1000)
    }

    /// The problems found before a run, every pipeline planned in full (the long way round).
    static func everyProblem(_ program: Program, _ planner: Planner) -> [PlanProblem] {
        var found: [PlanProblem] = []
        func walk(_ p: Pipeline) { planner.plan(p).forEach(walk) }
        func walk(_ plan: StagePlan) {
            if case .refused(let problem) = plan.kind, problem.beforeRun { found.append(problem) }
            if plan.definition?.argumentStyle == .passthrough { return }
            if let inner = plan.inner { return walk(inner) }
            if case .value(let a) = plan.kind { walk(a) }
            plan.writtenArguments.forEach(walk)
        }
        func walk(_ a: Argument) {
            switch a.kind {
            case .list(let ps): ps.forEach(walk)
            case .record(let fields): fields.forEach { walk($0.value) }
            case .group(let p): walk(p)
            default: break
            }
        }
        for st in program.statements {
            if case .pipeline(let p, _) = st.kind { walk(p) }
        }
        return found.map { $0.written(from: program.source) }
    }
}
