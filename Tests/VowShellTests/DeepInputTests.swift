import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell

/// Absurdly deep or long input to `pick` (an expression of 50,000 steps or levels, a document
/// 50,000 objects deep) gives a result or a clear error of a few lines, never a crash.
final class DeepInputTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "vow-deep-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func test_aChainOf50000StepsGivesItsValue() throws {
        let chain = Array(repeating: "a", count: 50_000).joined(separator: ".")
        XCTAssertEqual(runVow("echo {a: {a: 1}} | pick '\(chain)' | to-json").out, "null\n")
        XCTAssertEqual(runVow("echo [[1]] | pick '\(String(repeating: "[0]", count: 50_000))' | to-json").out, "null\n")
        let file = dir + "/small.json"
        try #"{"a": {"a": 1}}"#.write(toFile: file, atomically: true, encoding: .utf8)
        // json builds what the expression can look at, found by walking it (the demand).
        let r = runVow("read \(file) | json | pick '[\(chain), a]' | to-json")
        XCTAssertEqual(r.out, #"[null,{"a":1}]"# + "\n", r.err)
    }

    func test_aDocument50000DeepIsAClearError() throws {
        let file = dir + "/deep.json"
        try (String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000)).write(toFile: file, atomically: true, encoding: .utf8)
        let chain = Array(repeating: "a", count: 50_000).joined(separator: ".")
        for source in ["read \(file) | json | pick '\(chain)'", "read \(file) | json | pick '@'", "read \(file) --stream | each (json | pick a)"] {
            let r = runVow(source)
            XCTAssertEqual(r.status, 1, source.prefix(40) + "")
            XCTAssertTrue(r.err.contains("error[json]: nesting deeper than 512 levels"), String(r.err.prefix(300)))
            XCTAssertLessThan(r.err.count, 2_000, String(r.err.prefix(300)))
        }
    }

    /// An expression nested 50,000 deep is refused with its reason, where, and an excerpt of it,
    /// not printed whole (twice, with a line of 50,000 spaces before the caret).
    func test_anExpressionNested50000DeepIsAClearError() {
        let nested = String(repeating: "(", count: 50_000) + "a" + String(repeating: ")", count: 50_000)
        let r = runVow("echo {a: 1} | pick '\(nested)'")
        XCTAssertEqual(r.status, 2, "refused before anything runs")
        XCTAssertTrue(r.err.contains("expression nested too deeply (more than 256 levels)"), String(r.err.prefix(300)))
        XCTAssertTrue(r.err.contains("(100001 characters, the culprit at character 256)"), String(r.err.prefix(300)))
        XCTAssertLessThan(r.err.count, 2_000, String(r.err.prefix(300)))
        // The caret still points at the culprit in the excerpt.
        let lines = r.err.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let excerpt = try? XCTUnwrap(lines.first { $0.hasPrefix("    …") })
        let caret = lines.first { $0.hasSuffix("^") && !$0.contains("│") }
        XCTAssertNotNil(excerpt)
        XCTAssertEqual(caret.map { $0.count - 1 }, 4 + 61)
        // A short expression is shown whole, as before.
        let short = runVow("echo {a: 1} | pick 'a.['")
        XCTAssertTrue(short.err.contains("in 'a.['\n    a.[\n       ^"), short.err)
    }

    /// A statement's line longer than an error shows whole is cut around the stage, and a
    /// secret in it is still masked, there and in the stages the rejection skipped.
    func test_aLongStatementLineIsCutAroundTheStageAndKeepsSecretsMasked() {
        let pad = String(repeating: "x", count: 400)
        let r = runVow(#"echo "\#(pad)" | pick 'sum(@)' | then get http://127.0.0.1:1/ --bearer S3CRET"#)
        XCTAssertEqual(r.status, 1)
        XCTAssertFalse(r.err.contains("S3CRET"), r.err)
        let line = r.err.split(separator: "\n").first { $0.contains("│") && $0.contains("pick") }
        XCTAssertNotNil(line, r.err)
        XCTAssertTrue(line?.hasPrefix("  │ …") ?? false, r.err)
        XCTAssertLessThan(line?.count ?? 0, 260)
        let json = runVow(#"echo "x" | pick 'sum(@)' | then get http://127.0.0.1:1/ --bearer S3CRET"#, json: true)
        XCTAssertTrue(json.err.contains("skipped"), json.err)
        XCTAssertFalse(json.err.contains("S3CRET"), json.err)
    }
}
