import XCTest

@testable import VowRuntime
@testable import VowShell
@testable import VowSyntax
@testable import VowValue

/// A pure stage whose arguments fill in the input (`each format "{a}-{}"`) gets them from its
/// slots (`PureStage`), not from the call's evaluation: seeded templates and inputs, each run
/// through the direct form and the ordinary way (a second stage, `[$_] | pick '[0]'`, which
/// gives its input back, makes the pipeline ordinary),
/// must give the same values and the same errors.
final class PureStageSlotsTests: XCTestCase {
    /// Seeded: templates of text, `{}` and `{PATH}` over inputs of every kind.
    func test_slotsGiveWhatTheOrdinaryWayGives() {
        var rng = SplitMix64(seed: 0x5107)
        let paths = ["", "a", "a.b", "[0]", "b[1]", "c", "length(@)", "a.b.c"]
        let texts = ["", "x", "é", "-", "a b", "{{", "ab/cd"]
        let inputs = [
            "1", "-7", "9007199254740993", "-9223372036854775807", "0", "2.5", "-0.25", "true", "null", "\"t\"",
            "{a: {b: 3}}", "{a: 1, b: [1, 2]}", "[5, 6]", "{c: \"tab\\there\"}", "[]", "{}",
        ]
        let list = "[" + inputs.joined(separator: ", ") + "]"
        for round in 0..<30 {
            var template = ""
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                if rng.next() % 2 == 0 {
                    template += texts[Int(rng.next() % UInt64(texts.count))]
                } else {
                    let path = paths[Int(rng.next() % UInt64(paths.count))]
                    template += "{" + path + "}"
                }
            }
            let direct = runVow("echo \(list) | each (format \"\(template)\") | to-json")
            let ordinary = runVow("echo \(list) | each (format \"\(template)\" | [$_] | pick '[0]') | to-json")
            XCTAssertEqual(direct.out, ordinary.out, "round \(round): \(template)")
            XCTAssertEqual(direct.status, ordinary.status, "round \(round): \(template)")
            XCTAssertEqual(direct.status == 0, !direct.out.isEmpty, "round \(round): \(template): \(direct.err)")
        }
    }

    /// Which stages take their arguments from slots: those filling in the input, not those
    /// whose arguments are all constant (evaluated once) nor those naming a variable.
    func test_slotsAreTakenWhereTheInputIsFilledIn() throws {
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        func slots(_ source: String) throws -> Bool? {
            let text = SourceText(source)
            let pipeline = try Parser.parsePipeline(text)
            let site = Site(source: text, statement: pipeline.span, context: [])
            return PureStage(Evaluator(session: session).plans(pipeline), session: session, scope: Scope(session: session), site: site)?.fillsInSlots
        }
        XCTAssertEqual(try slots(#"format "n{}""#), true)
        XCTAssertEqual(try slots(#"to-csv --columns "{k}""#), true)
        XCTAssertEqual(try slots("pick a.b"), false)
        XCTAssertEqual(try slots(#"format "$x {}""#), nil)
    }

    /// A flag's value filled in from the input, beside a constant one.
    func test_aFlagFilledInFromTheInput() {
        let source = "echo [{k: a, a: 1, b: 2}, {k: b, a: 3, b: 4}] | each (to-csv --columns \"{k}\")"
        let direct = runVow(source + " | to-json")
        let ordinary = runVow(source.dropLast() + " | [$_] | pick '[0]') | to-json")
        XCTAssertEqual(direct.status, 0, direct.err)
        XCTAssertEqual(direct.out, ordinary.out)
        XCTAssertEqual(direct.out, "[\"a\\r\\n1\",\"b\\r\\n4\"]\n")
    }

    /// `decimalText` writes what `String(i)` writes, at the edges and for seeded numbers.
    func test_decimalTextIsStringOfTheNumber() {
        for i in [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.min + 1, 999_999_999_999_999, -999_999_999_999_999, 1_000_000_000_000_000] {
            XCTAssertEqual(Evaluator.decimalText(i), String(i))
        }
        var rng = SplitMix64(seed: 44)
        for _ in 0..<10_000 {
            let i = Int(bitPattern: UInt(rng.next())) >> Int(rng.next() % 64)
            XCTAssertEqual(Evaluator.decimalText(i), String(i))
        }
    }
}
