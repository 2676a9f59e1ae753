import Foundation
import XCTest

/// Standard output gathered into large writes when it is a pipe keeps its order with standard
/// error on the same pipe, and nothing is lost at exit, whatever the exit status.
final class OutputOrderTests: XCTestCase {
    /// Runs the vow binary on `script` with stdout and stderr on one pipe; what came through, in order.
    func both(_ script: String) throws -> (text: String, status: Int32) {
        let path = NSTemporaryDirectory() + "vow-order-\(UUID().uuidString).vow"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try runCommand("sh", ["-c", "\"$0\" \"$1\" 2>&1", REPLTests.binary, path])
        return (r.out, r.status)
    }

    func test_resultsAndErrorsKeepTheirOrderOnOnePipe() throws {
        let r = try both("echo A\nreject boom &\ndelay 10ms\necho B\nreject final\necho never\n")
        XCTAssertEqual(r.status, 1)
        let lines = r.text.split(separator: "\n").map(String.init)
        let order = ["A", "[1] started", "[1] rejected: error[user]: boom", "B", "error[user]: final"].map { want in
            lines.firstIndex { $0.hasPrefix(want) } ?? -1
        }
        XCTAssertFalse(order.contains(-1), r.text)
        XCTAssertEqual(order, order.sorted(), r.text)
        XCTAssertFalse(r.text.contains("never"), r.text)
    }

    func test_everyResultOfALongScriptArrives() throws {
        let script = (0..<20_000).map { "resolve \($0) | then format \"line {}\"" }.joined(separator: "\n") + "\n"
        let r = try both(script)
        XCTAssertEqual(r.status, 0)
        let lines = r.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 20_000)
        XCTAssertEqual(lines.last, "line 19999")
    }
}
