// A stage's errors, rule by rule: the runtime names the stage (no stage types its own name, no
// lower layer names one), and an error about one argument points at that argument.
import VowValue
import XCTest

@testable import VowRuntime

final class StageErrorTests: XCTestCase {
    /// An argument's type error names the stage and points at the argument, wherever it is.
    func test_aBadArgumentIsPointedAt() throws {
        let cases: [(source: String, message: String, culprit: String)] = [
            ("delay 1s2", "delay: DURATION must be a duration like 250ms or 2s, got \"1s2\"", "1s2"),
            ("echo 1 | then delay 1s2", "delay: DURATION must be a duration like 250ms or 2s, got \"1s2\"", "1s2"),
            ("echo [1, 2] | each --limit abc (echo 1)", "each: --limit must be a whole number, got \"abc\"", "abc"),
            ("echo [1] | each --limit 0 (echo 1)", "each: --limit must be at least 1", "0"),
            ("echo 5 | take -1", "take: N must be 0 or more, got -1", "-1"),
            ("range 1 5 --step 0", "range: --step must not be 0", "0"),
            ("reject no --status 300", "reject: --status must be 1 to 255, got 300", "300"),
            ("echo hi | fetch http://127.0.0.1:1/ --timeout 5x", "fetch: --timeout must be a duration like 250ms or 2s, got \"5x\"", "5x"),
        ]
        for c in cases {
            let outcome = try runStage(c.source)
            XCTAssertEqual(outcome.error?.message, c.message, c.source)
            XCTAssertEqual(outcome.culprit(in: c.source), c.culprit, c.source)
        }
    }

    /// An error about the stage as a whole, or about its input, points at no argument.
    func test_anErrorAboutTheInputPointsAtTheStage() throws {
        let outcome = try runStage("echo hi | keys")
        XCTAssertEqual(outcome.error?.message, "keys: expected a record, got string")
        XCTAssertEqual(outcome.error?.origin?.stage, "keys")
        XCTAssertNil(outcome.error?.origin?.argument)
    }

    /// The name is the one written: an alias is named as it was typed.
    func test_theStageIsNamedAsWritten() throws {
        XCTAssertEqual(try runStage("fail no --status 0").error?.message, "fail: --status must be 1 to 255, got 0")
    }

    /// A lower layer that does not know its stage (the HTTP layer, a helper shared by the HTTP
    /// stages) raises an error the stage it surfaces from names, once.
    func test_theRuntimeNamesTheStageOfALowerLayersError() throws {
        for verb in ["fetch", "post", "put"] {
            let source = "\(verb) http://127.0.0.1:1/ --header nocolon"
            let e = try XCTUnwrap(runStage(source).error, source)
            XCTAssertEqual(e.message, "\(verb): --header must be K:V (e.g. --header \"Accept: text/plain\"), got 'nocolon'")
            XCTAssertFalse(e.awaitsStageName)
        }
        let proxy = try XCTUnwrap(runStage("fetch http://127.0.0.1:1/ --proxy ftp://x:1").error)
        XCTAssertEqual(proxy.message, "fetch: --proxy: not a proxy URL: ftp://x:1")
    }

    /// An inner stage's error keeps the inner stage's name, not the name of the stage holding it.
    func test_anInnerStageKeepsItsName() throws {
        let e = try XCTUnwrap(runStage("echo [1] | each (delay 1s2)").error)
        XCTAssertTrue(e.message.hasPrefix("delay: DURATION"), e.message)
        let direct = try XCTUnwrap(runStage("echo [1] | each delay 1s2").error)
        XCTAssertTrue(direct.message.hasPrefix("delay: DURATION"), direct.message)
    }
}
