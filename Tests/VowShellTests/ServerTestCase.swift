import TestSupport
import XCTest

/// A test case class whose tests share one fixture server on 127.0.0.1, started before the
/// first test and stopped after the last.
class ServerTestCase: XCTestCase {
    nonisolated(unsafe) static var server: FixtureServer!

    override class func setUp() {
        super.setUp()
        server = try! FixtureServer.start()
    }

    override class func tearDown() {
        server.shutdown()
        super.tearDown()
    }

    /// `http://127.0.0.1:PORT` of the shared server.
    var base: String { Self.server.base }

    /// Runs vow source with `$base` set to the shared server.
    func vow(_ source: String, json: Bool = false) -> (out: String, err: String, status: Int32) {
        runVow(source, json: json, variables: ["base": .string(base)])
    }

    /// Asserts that `source` succeeds and prints `expected` (and a newline).
    func assertOutput(_ source: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let r = vow(source)
        XCTAssertEqual(r.status, 0, "\(source)\n\(r.err)", file: file, line: line)
        XCTAssertEqual(r.out, expected + "\n", source, file: file, line: line)
    }
}
