// Which stage a rejection is laid at: found by the error's identity, not by how it reads.
import VowValue
import XCTest

@testable import VowRuntime

final class ErrorProvenanceTests: XCTestCase {
    /// A handler that rejects anew with the same words is where the statement rejected: the
    /// first `reject` was handled.
    func test_aNewRejectionThatReadsAlikeIsLaidAtItsOwnStage() {
        let r = runVow("reject boom | catch reject boom | echo after")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("│               ^^^^^^^^^^^^^^^^^ rejected here"), r.err)
        XCTAssertTrue(r.err.contains("skipped: echo after"), r.err)
    }

    /// One rejection passed down is laid at the stage it started from, however far it went.
    func test_oneRejectionPassedDownIsLaidWhereItStarted() {
        let r = runVow("echo 1 | reject boom | format \"{}\" | then len | echo after")
        XCTAssertTrue(r.err.contains("│          ^^^^^^^^^^^ rejected here"), r.err)
        XCTAssertTrue(r.err.contains("skipped: format \"{}\", then len, echo after"), r.err)
    }

    /// A long chain skipped whole is named by its first twelve stages and counted, on one line
    /// (a 20,000-stage chain printed every name, 120 KB on one line).
    func test_aLongSkippedChainIsCounted() {
        let r = runVow("reject boom" + (1...40).map { " | format s\($0)" }.joined())
        XCTAssertEqual(r.status, 1)
        let line = r.err.split(separator: "\n").first { $0.contains("skipped:") }.map(String.init) ?? ""
        XCTAssertTrue(line.hasSuffix("format s12 and 28 more stages"), line)
        XCTAssertTrue(line.contains("skipped: format s1, format s2,"), line)
    }

    /// Errors made apart never share an identity; copies of one do.
    func test_identityIsKeptByCopiesOnly() {
        let a = VowError(.user, "boom"), b = VowError(.user, "boom")
        var c = a
        c.message = "changed"
        XCTAssertNotEqual(a.identity, b.identity)
        XCTAssertEqual(a.identity, c.identity)
        XCTAssertTrue(sameRejection(a, c))
        XCTAssertFalse(sameRejection(a, b))
    }

    /// iterate's end-of-loop condition is known by its type, not by its words.
    func test_iterateKnowsItsEndByType() {
        XCTAssertEqual(runVow("echo {next: {next: null}} | iterate (pick next | then pick next | then echo reached) | to-json").out, "[]\n")
        XCTAssertTrue(Evaluator.isNothingToWorkOn(toVowError(Evaluator.nothingToWorkOn("len"))))
        XCTAssertFalse(Evaluator.isNothingToWorkOn(VowError(.type, "nothing to work on: the value before 'len' is null")))
    }

    /// `reject $_` in a handler raises the error again as `throw err` does: its kind, message and
    /// fields, and the stage that raised it first, which the report names beside where it was
    /// raised again; the twin gives the same record.
    func test_anErrorRaisedAgainKeepsWhereItWasRaisedFirst() throws {
        let handler = #"catch (if "kind == 'timeout'" (echo t) else (reject $_))"#
        let source = "fetch http://127.0.0.1:1/ | \(handler)"
        let picked = try assertTwinAgrees(source + " | catch pick '[kind, stage, at]' | to-json")
        XCTAssertEqual(picked.out, #"["network","fetch","fetch http://127.0.0.1:1/"]"# + "\n")
        XCTAssertEqual(runVow(source + " | catch pick raisedAgainAt").out, #"if "kind == 'timeout'" (echo t) else (reject $_)"# + "\n")
        let report = runVow(source)
        XCTAssertEqual(report.status, 1)
        XCTAssertTrue(report.err.hasPrefix("error[network]: connection refused 127.0.0.1:1"), report.err)
        XCTAssertTrue(report.err.contains("^ raised again here"), report.err)
        XCTAssertTrue(report.err.contains("= raised first by: fetch http://127.0.0.1:1/"), report.err)
    }
}
