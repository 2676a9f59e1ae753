import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell
@testable import VowSyntax
import VowValue

/// A pure one-stage pipeline run on many inputs (`each format "{}"`) runs its stage directly
/// (`PureStage`): which pipelines have that form, and that it gives what the ordinary way gives,
/// values, errors and turns alike.
final class PureStageTests: XCTestCase {
    func test_onlyAPureStageWhoseArgumentsNeedNothingButTheInputHasADirectForm() throws {
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        func direct(_ source: String) throws -> Bool {
            let text = SourceText(source)
            let pipeline = try Parser.parsePipeline(text)
            let site = Site(source: text, statement: pipeline.span, context: [])
            return PureStage(Evaluator(session: session).plans(pipeline), session: session, scope: Scope(session: session), site: site) != nil
        }
        XCTAssertTrue(try direct(#"format "n{}""#))
        XCTAssertTrue(try direct("pick a.b"))
        XCTAssertTrue(try direct("then len"))
        XCTAssertTrue(try direct("to-json --pretty"))
        XCTAssertFalse(try direct("print"))  // an effect
        XCTAssertFalse(try direct("delay 1ms"))  // waits
        XCTAssertFalse(try direct(#"format "$x {}""#))  // a variable may be a pending promise
        XCTAssertFalse(try direct("format (len)"))  // an argument that runs a pipeline
        XCTAssertFalse(try direct("echo [1, (len)]"))
        XCTAssertFalse(try direct("pick a | len"))  // two stages take two turns
        XCTAssertFalse(try direct("catch len"))
    }

    /// Arguments that are the same for every input are evaluated once; the others, for each input.
    func test_argumentsThatCannotChangeAreEvaluatedOnce() throws {
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        func fixed(_ source: String) throws -> Bool {
            let text = SourceText(source)
            let pipeline = try Parser.parsePipeline(text)
            let site = Site(source: text, statement: pipeline.span, context: [])
            let pure = PureStage(Evaluator(session: session).plans(pipeline), session: session, scope: Scope(session: session), site: site)
            return try XCTUnwrap(pure).fixed != nil
        }
        XCTAssertTrue(try fixed("pick a.b"))
        XCTAssertTrue(try fixed("pick '{s: status, t: total}'"))
        XCTAssertTrue(try fixed("to-json --pretty"))
        XCTAssertFalse(try fixed(#"format "n{}""#))  // the input fills it in
        XCTAssertFalse(try fixed("pick 'n > $m'"))  // a variable
        XCTAssertEqual(runVow("let m = echo 1\necho [{n: 1}, {n: 2}] | each pick 'n > $m' | to-json").out, "[false,true]\n")
    }

    /// `pick`'s prepared form (its expression compiled once, `PreparedPick`) gives what its run
    /// gives on every kind of input, or leaves the input to the run (text, which may hold JSON;
    /// a search that fails): seeded inputs and expressions, against the run's search.
    func test_picksPreparedFormGivesWhatItsRunGives() throws {
        var rng = SplitMix64(seed: 4410)
        let expressions = [
            "@", "a", "a.b", "[0]", "[*].a", "length(@)", "a > `1`", "keys(@)", "sum(@)", "{x: a, y: b}", "[?a > `1`].a",
            "abs(@)", "b[1]", "not_null(c, a)", "@.a || `7`",
        ]
        func value(_ depth: Int) -> Value {
            switch Int.random(in: 0...(depth > 2 ? 5 : 8), using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .int(Int.random(in: -5...5, using: &rng))
            case 3: return .double(Double(Int.random(in: -50...50, using: &rng)) / 4)
            case 4: return .string(["hello", "", "a b", "1"].randomElement(using: &rng)!)
            case 5: return .string(["{\"a\": 2}", "[1, 2]", " {\"b\": [3]}"].randomElement(using: &rng)!)
            case 6: return .list((0..<Int.random(in: 0...3, using: &rng)).map { _ in value(depth + 1) })
            default:
                var r = Record()
                for key in ["a", "b", "c"] where Bool.random(using: &rng) { r[key] = value(depth + 1) }
                return .record(r)
            }
        }
        var prepared = 0, leftToRun = 0, failed = 0
        for _ in 0..<3000 {
            let expression = expressions.randomElement(using: &rng)!
            let input = value(0)
            let form = try XCTUnwrap(PickStage().prepared(StageArguments(positional: [.string(expression)], flags: [:], stage: "pick")))
            let ran = Result { try Pick.searchReadingText(expression, in: input, stage: "pick") }
            guard let given = form.value(input) else {
                leftToRun += 1
                if case .failure = ran { failed += 1 }
                continue
            }
            prepared += 1
            guard case .success(let expected) = ran else {
                XCTFail("\(expression) on \(input): the prepared form gave \(given), the run rejects")
                continue
            }
            XCTAssertEqual(given, expected, "\(expression) on \(input)")
        }
        XCTAssertGreaterThan(prepared, 1500)
        XCTAssertGreaterThan(leftToRun, 300)
        XCTAssertGreaterThan(failed, 100)
        // An expression that does not compile has no prepared form (the run says why).
        XCTAssertNil(PickStage().prepared(StageArguments(positional: [.string("a.[")], flags: [:], stage: "pick")))
    }

    func test_eachGivesTheValuesTheOrdinaryWayGives() {
        XCTAssertEqual(runVow(#"echo [{a: 1}, {a: [2]}, {}] | each pick a | to-json"#).out, "[1,[2],null]\n")
        XCTAssertEqual(runVow(#"echo [1, "x"] | each (format "<{}>") | to-json"#).out, #"["<1>","<x>"]"# + "\n")
        // An argument that names a variable runs the ordinary way, and sees the variable.
        XCTAssertEqual(runVow("let x = resolve 7\necho [1, 2] | each format \"{}/$x\" | to-json").out, #"["1/7","2/7"]"# + "\n")
    }

    /// A pure stage that throws on one element: the error is the one the ordinary way gives, with
    /// the element named and the stage located.
    func test_anElementThatFailsIsNamedAndLocated() {
        let r = runVow("echo [{a: 1}, 3] | each keys")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("element 2 of each"), r.err)
        XCTAssertTrue(r.err.contains("keys"), r.err)
        let grouped = runVow("echo [{a: 1}, 3] | each (keys)")
        XCTAssertEqual(grouped.status, 1)
        XCTAssertTrue(grouped.err.contains("element 2 of each"), grouped.err)
    }

    /// `then (format …)` is a group, a promise adopted in two turns, whether or not it runs
    /// directly: the order against another chain is JavaScript's.
    func test_aDirectGroupTakesTheTurnsOfAPipeline() throws {
        let src = "resolve 1 | then (format \"A{}\") | print &\nresolve 2 | print C | print D | print E | print F &"
        XCTAssertEqual(runVow(src).out, "C\nD\nE\nA1\nF\n")
        XCTAssertEqual(try runTwin(src).out, "C\nD\nE\nA1\nF\n")
    }

    /// `each` takes an element with a direct value in the turn its promise's reaction would run
    /// (`IndexedValueJob`, no promise made): against another chain, every element, the next one
    /// started and `each`'s own settling come in JavaScript's order, for a plain stage and a
    /// group, at a limit of one and of more.
    func test_eachTakesDirectValuesInTheTurnsOfTheirPromises() throws {
        for inner in ["format \"e{}\"", "(format \"e{}\")", "(then format \"e{}\")"] {
            for limit in ["1", "2", "16"] {
                let src = "echo [1, 2, 3, 4] | each \(inner) --limit \(limit) | print &\n"
                    + "resolve 0 | print a | print b | print c | print d | print e | print f | print g | print h &"
                let vow = runVow(src)
                XCTAssertTrue(vow.out.contains("e4"), vow.out + vow.err)
                XCTAssertEqual(vow.out, try runTwin(src).out, src)
            }
        }
    }
}
