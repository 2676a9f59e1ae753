import VowValue
import XCTest

@testable import VowHTTP

/// The event stream interpretation of the HTML standard, rule by rule.
final class ServerSentEventsTests: XCTestCase {
    func test_theServerSentEventsParserRuleByRule() {
        var p = ServerSentEvents()
        XCTAssertNil(p.line(": comment"))
        XCTAssertNil(p.line("data"))  // a field with no colon has an empty value
        XCTAssertNil(p.line("data:x"))
        XCTAssertEqual(p.line(""), ["event": "message", "id": .null, "data": "\nx", "retry": .null] as Value)
        XCTAssertNil(p.line("id: 7"))
        XCTAssertNil(p.line("retry: soon"))  // not a number: ignored
        XCTAssertNil(p.line(""))  // no data: nothing is dispatched
        XCTAssertNil(p.line("event: e"))
        XCTAssertNil(p.line("data: 1"))
        XCTAssertEqual(p.line(""), ["event": "e", "id": "7", "data": 1, "retry": .null] as Value)
    }

    /// An event cut off by the end of a connection is dropped; the id and the reconnection time
    /// are kept for the next connection.
    func test_aConnectionThatEndsDropsAPartialEventButKeepsTheIdAndRetry() {
        var p = ServerSentEvents()
        XCTAssertNil(p.line("id: 4"))
        XCTAssertNil(p.line("retry: 50"))
        XCTAssertNil(p.line("data: half"))
        p.connectionEnded()
        XCTAssertNil(p.line(""))  // nothing left to dispatch
        XCTAssertEqual(p.lastID, "4")
        XCTAssertEqual(p.retry, 50)
        XCTAssertNil(p.line("data: next"))
        XCTAssertEqual(p.line(""), ["event": "message", "id": "4", "data": "next", "retry": 50] as Value)
    }
}
