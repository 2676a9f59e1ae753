import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell
@testable import VowSyntax

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
