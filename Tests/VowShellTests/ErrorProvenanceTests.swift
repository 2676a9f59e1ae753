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
}
