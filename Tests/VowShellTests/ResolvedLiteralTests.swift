import Foundation
import VowValue
import XCTest

/// A combinator's element written as `resolve` and one plain literal is read as its value, with
/// no pipeline run (`resolvedLiteral`): generated lists of such elements among others (a
/// variable, a delay, a rejection, a list) give, beside a job that prints in every turn, what
/// their JavaScript twins give under node, and what vow gives when it records every promise.
final class ResolvedLiteralTests: XCTestCase {
    func test_generatedListsOfResolvedLiteralsAgreeWithTheirTwins() throws {
        var rng = SplitMix64(seed: 2811_2026)
        let elements = [
            "resolve 1", "resolve 22", "resolve 'text'", "resolve null", "resolve true", "resolve $x", "echo 3",
            "delay 1ms 4", "reject e", "resolve [1, 2]", "resolve 5 | pick '@ + `1`'",
        ]
        for round in 0..<10 {
            let combinator = ["all", "any", "race", "settle"].randomElement(using: &rng)!
            let list = (0..<Int.random(in: 1...8, using: &rng)).map { _ in elements.randomElement(using: &rng)! }
            let ending = combinator == "settle" ? " | len" : " | to-json | catch echo failed"
            let program = """
                let x = resolve 7
                resolve 0 | then print p1 | then print p2 | then print p3 | then print p4 | then print p5 &
                \(combinator) [\(list.joined(separator: ", "))]\(ending) | print
                """
            let vow = try runWithInput(REPLTests.binary, ["-c", program], input: "")
            let traced = try runWithInput(REPLTests.binary, ["--trace", "/dev/null", "-c", program], input: "")
            let twin = try runTwinOfBinary(program)
            XCTAssertEqual(vow.out, twin.out, "round \(round): \(program)\n\(twin.err)")
            XCTAssertEqual(vow.status, twin.status, "round \(round): \(program)")
            XCTAssertEqual(vow.out, traced.out, "round \(round): \(program)")
            XCTAssertEqual(vow.err, traced.err, "round \(round): \(program)")
        }
    }

    /// A `def` named `resolve` is the def's, written as an element too.
    func test_aDefNamedResolveIsTheDefs() throws {
        let r = runVow("def resolve(x) = echo 9\nall [resolve 1, resolve 2] | to-json")
        XCTAssertEqual(r.out, "[9,9]\n", r.err)
    }
}
