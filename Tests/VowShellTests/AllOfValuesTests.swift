import XCTest

@testable import VowShell

/// `all` over a list or record of plain values (`range 1 N | all`) fulfils in one job where
/// JavaScript's `Promise.all` takes a job an element (`AllStage.combinePlainValues`): the value,
/// and its place among other chains' steps, are node's, with a promise among the values or
/// without, and under a trace too (which takes the usual way).
final class AllOfValuesTests: XCTestCase {
    /// Each of `statements`, run beside a chain that prints at every step, prints what its twin
    /// prints under node, in the same order.
    private func assertPrintsAsNode(_ statements: [String], line: UInt = #line) throws {
        let other = "resolve 0 | print a | print b | print c | print d | print e | print f | print g | print h &"
        for first in statements {
            let src = first + "\n" + other
            let vow = runVow(src)
            XCTAssertTrue(vow.out.contains("a\n"), vow.out + vow.err, line: line)
            XCTAssertEqual(vow.out, try runTwin(src).out, src, line: line)
        }
    }

    func test_allOfPlainValuesSettlesInNodesTurn() throws {
        try assertPrintsAsNode([
            "range 1 5 | all | to-json | print &",
            "echo {x: 1, y: \"two\"} | all | to-json | print &",
            "echo [1] | all | then (to-json) | print &",
            "range 1 3 | all | all | to-json | print &",
        ])
    }

    /// Elements whose pipelines fulfil as they run (`all [resolve 1, echo 2]`) are plain values
    /// by the time `all` attaches its reactions: one job fulfils it too
    /// (`AllStage.combineFulfilled`), in node's turn; an element that does not fulfil at once
    /// (a later stage, a rejection, a timer) sends the whole list the usual way.
    func test_elementsThatFulfilAtOnceSettleInNodesTurn() throws {
        try assertPrintsAsNode([
            "all [resolve 1, echo 2, 3] | to-json | print &",
            "all {a: resolve 1, b: echo x} | to-json | print &",
            "all [print x, print y] | to-json | print &",
            "all [resolve 1, resolve 2 | pick @, resolve 3] | to-json | print &",
            "all [resolve 1, delay 1ms 2] | to-json | print &",
            "all [resolve 1, reject no, resolve 3] | catch (pick message) | print &",
            "all [all [resolve 1], all [echo 2]] | to-json | print &",
        ])
    }

    func test_aPromiseAmongTheValuesGoesTheUsualWay() throws {
        let src = "let p = delay 5ms 7\nall [1, $p, 3] | to-json | print &\nrange 1 2 | all | to-json | print &"
        XCTAssertEqual(runVow(src).out, try runTwin(src).out)
        XCTAssertEqual(runVow("echo [] | all | to-json").out, "[]\n")
    }
}
