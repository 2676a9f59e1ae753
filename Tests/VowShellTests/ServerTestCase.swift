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
}
