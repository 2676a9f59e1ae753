import Foundation
import VowValue
import XCTest

@testable import VowHTTP

/// The HTTP cache's arithmetic and its cap, without a server: RFC 9111's freshness lifetime and
/// age (§4.2.1, §4.2.3), and the oldest entries going first past the cap.
final class HTTPCacheRuleTests: XCTestCase {
    func entry(_ headers: [(String, String)], requestTime: Double = 1000, responseTime: Double = 1001) -> HTTPCache.Entry {
        HTTPCache.Entry(
            key: "k", url: "http://h/", vary: [:], status: 200, statusText: "OK", version: "HTTP/1.1",
            headers: headers.map { (name: $0.0, value: $0.1) }, body: [], requestTime: requestTime, responseTime: responseTime)
    }

    func test_maxAgeWinsOverExpires() {
        let e = entry([("Cache-Control", "public, max-age=30"), ("Expires", "Thu, 01 Jan 2099 00:00:00 GMT")])
        XCTAssertEqual(HTTPCache.freshnessLifetime(e), 30)
    }

    func test_expiresLessDateIsTheLifetime() {
        let e = entry([("Date", "Thu, 26 Nov 2026 10:00:00 GMT"), ("Expires", "Thu, 26 Nov 2026 10:01:30 GMT")])
        XCTAssertEqual(HTTPCache.freshnessLifetime(e), 90)
        XCTAssertEqual(HTTPCache.freshnessLifetime(entry([("Expires", "0")])), 0, "an Expires that is no date is in the past")
        XCTAssertEqual(HTTPCache.freshnessLifetime(entry([])), 0, "no heuristic freshness")
    }

    func test_theAgeCountsTheAgeHeaderTheTripAndTheStay() {
        // Age 10 when it arrived, 1 s on the way, 5 s in the cache: 16.
        let e = entry([("Age", "10")], requestTime: 1000, responseTime: 1001)
        XCTAssertEqual(HTTPCache.currentAge(e, now: 1006), 16)
    }

    func test_theOldestEntriesGoFirstPastTheCap() throws {
        let dir = NSTemporaryDirectory() + "vow-cache-cap-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = HTTPCache(directory: dir, maxBytes: 8 * 1024)
        func keep(_ path: String) {
            var spec = HTTPRequestSpec(method: "GET", url: "http://h/" + path)
            spec.headers = []
            let r = HTTPResponse(status: 200, statusText: "OK", url: spec.url, method: "GET", headers: [("Cache-Control", "max-age=60")], elapsed: 0, body: Array(repeating: 65, count: 900))
            XCTAssertTrue(cache.store(spec, r, requestTime: 0, responseTime: 0), path)
            Thread.sleep(forTimeInterval: 0.02)
        }
        for i in 0..<12 { keep("p\(i)") }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".entry") }
        XCTAssertLessThan(left.count, 12, "nothing was removed")
        var size = 0
        for f in left { size += (try FileManager.default.attributesOfItem(atPath: dir + "/" + f)[.size] as? Int) ?? 0 }
        XCTAssertLessThanOrEqual(size, 8 * 1024)
        if case .miss = cache.lookup(HTTPRequestSpec(method: "GET", url: "http://h/p0"), now: 1) {} else { XCTFail("the oldest entry is still there") }
        if case .fresh = cache.lookup(HTTPRequestSpec(method: "GET", url: "http://h/p11"), now: 1) {} else { XCTFail("the newest entry went") }
    }

    /// A store looks at the other entries (a stat of each) only when what this process counts
    /// passes the cap, not at every store: a fan-out over N new URLs would take time in N². An
    /// entry another process wrote meanwhile is seen at that look.
    func test_theDirectoryIsLookedAtOnlyWhenTheCountPassesTheCap() throws {
        let dir = NSTemporaryDirectory() + "vow-cache-count-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = HTTPCache(directory: dir, maxBytes: 8 * 1024)
        func keep(_ path: String, _ size: Int) {
            var spec = HTTPRequestSpec(method: "GET", url: "http://h/" + path)
            spec.headers = []
            let r = HTTPResponse(status: 200, statusText: "OK", url: spec.url, method: "GET", headers: [("Cache-Control", "max-age=60")], elapsed: 0, body: Array(repeating: 65, count: size))
            XCTAssertTrue(cache.store(spec, r, requestTime: 0, responseTime: 0), path)
        }
        keep("first", 100)  // the first store looks: the count starts from the directory
        // Another process's entry, older than any, past the cap by itself.
        let foreign = dir + "/foreign.entry"
        try Data(repeating: 66, count: 9 * 1024).write(to: URL(fileURLWithPath: foreign))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: foreign)
        keep("small", 100)
        XCTAssertTrue(FileManager.default.fileExists(atPath: foreign), "a store under the count does not look")
        for i in 0..<8 { keep("big\(i)", 900) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: foreign), "the look when the count passed the cap found it, oldest, and removed it")
    }
}
