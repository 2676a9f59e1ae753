import Foundation
import XCTest

@testable import VowRuntime
import VowValue

/// Rate limits, measured by the server's clock (testdata/clock-server.py keeps each request's
/// arrival time): `each --rate`, `paginate --rate`, and `retry --on` with HTTP statuses.
final class RateLimitTests: XCTestCase {
    var server: ClockServer?
    var base: String { server?.base ?? "" }

    override func setUpWithError() throws {
        server = try ClockServer.start()
    }

    override func tearDown() {
        server?.stop()
    }

    /// The arrival times the server saw, in seconds by its clock.
    func arrivals() throws -> [Double] {
        let r = runVow("fetch $h/times | json | to-json", variables: ["h": .string(base)])
        let data = try XCTUnwrap(r.out.data(using: .utf8))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [Double])
    }

    /// The most arrivals in any window of `seconds`.
    func busiestWindow(_ times: [Double], seconds: Double) -> Int {
        let sorted = times.sorted()
        var most = 0, lo = 0
        for hi in sorted.indices {
            while sorted[hi] - sorted[lo] >= seconds { lo += 1 }
            most = max(most, hi - lo + 1)
        }
        return most
    }

    /// `each … --rate 20/s --limit 8` over 60 requests: the server sees them at 20 a second
    /// (within 10 %), and never more than 20 in any one-second window. A first request warms
    /// the HTTP engine (its event loops start with it), as in a script that has talked to the
    /// server before; the rate's margin (1 %) is what a cold first request's lateness eats.
    func test_eachKeepsToItsRateByTheServersClock() throws {
        let r = runVow(#"fetch $h/warm | status\#nrange 1 60 | each (fetch "$h/item/{}" | status) --rate 20/s --limit 8 | len"#, variables: ["h": .string(base)])
        XCTAssertEqual(r.out, "200\n60\n", r.err)
        let times = try arrivals()
        XCTAssertEqual(times.count, 60)
        let rate = Double(times.count - 1) / (times.max()! - times.min()!)
        XCTAssertLessThanOrEqual(rate, 20)
        XCTAssertGreaterThanOrEqual(rate, 18)
        XCTAssertLessThanOrEqual(busiestWindow(times, seconds: 1), 20)
    }

    /// Over a stream, the same: the items wait for their slots, none runs directly.
    func test_eachOverAStreamKeepsItsRate() throws {
        let r = runVow(#"fetch $h/warm | status\#nrange 1 30 --stream | each (fetch "$h/s/{}" | status) --rate 15/s | len"#, variables: ["h": .string(base)])
        XCTAssertEqual(r.out, "200\n30\n", r.err)
        let times = try arrivals()
        XCTAssertLessThanOrEqual(busiestWindow(times, seconds: 1), 15)
        XCTAssertGreaterThanOrEqual(Double(times.count - 1) / (times.max()! - times.min()!), 13.5)
    }

    /// `paginate --rate 10/s`: ten pages, never more than ten in a second.
    func test_paginateKeepsItsRate() throws {
        let r = runVow("paginate $h/pages/1 --next next --items items --rate 10/s | to-json", variables: ["h": .string(base)])
        XCTAssertEqual(r.out, "[1,2,3,4,5,6,7,8,9,10]\n", r.err)
        let times = try arrivals().sorted()
        // Ten pages at 10 a second take nine tenths of a second at least (by the client's clock;
        // the server's sees each a little early or late).
        XCTAssertGreaterThanOrEqual(times.last! - times.first!, 0.85)
        XCTAssertLessThanOrEqual(busiestWindow(times, seconds: 1), 10)
    }

    /// A rate written wrong is refused, naming the flag and pointing at it.
    func test_aBadRateIsRefused() {
        let r = runVow("echo [1] | each (echo 1) --rate 5x")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("each: --rate must be a count per time, like 50/s, 120/m, 1000/h or 10/2s, got \"5x\""), r.err)
        XCTAssertTrue(r.err.contains("---^^ rejected here"), r.err)
    }

    /// `retry --on 429,503` retries those statuses and not a 400; `--on http` retried a 400 too.
    func test_retryOnTakesHTTPStatuses() throws {
        let h = ["h": Value.string(base)]
        XCTAssertEqual(runVow("fetch $h/status/503 | retry 2 --on 429,503 | catch pick status", variables: h).out, "503\n")
        XCTAssertEqual(runVow("fetch $h/status/400 | retry 2 --on 429,503 | catch pick status", variables: h).out, "400\n")
        XCTAssertEqual(runVow("fetch $h/status/429 | retry 1 --on network,429 | catch pick status", variables: h).out, "429\n")
        let hits = runVow("fetch $h/hits | json | to-json", variables: h).out
        let counts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(hits.utf8)) as? [String: Int])
        XCTAssertEqual(counts["/status/503"], 3)
        XCTAssertEqual(counts["/status/400"], 1)
        XCTAssertEqual(counts["/status/429"], 2)
        let bad = runVow("fetch $h/status/400 | retry 2 --on netwrok", variables: h)
        XCTAssertTrue(bad.err.contains("retry: --on: 'netwrok' is neither an error kind"), bad.err)
    }

    /// The twin paces the same way: node running it sees the same items, and takes the time the
    /// rate asks for.
    func test_theTwinKeepsTheRate() throws {
        let source = #"range 1 11 | each (echo "{}") --rate 20/s | to-json"#
        let began = Date()
        let twin = try runTwinOfBinary(source)
        XCTAssertEqual(twin.out, runVow(source).out, twin.err)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(began), 0.5)
    }
}
