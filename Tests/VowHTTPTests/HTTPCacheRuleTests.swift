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

    /// A 304 that changes nothing a later lookup reads (an entry with a validator and no
    /// freshness, the same headers but `Date`) leaves the stored entry as it is and touches its
    /// file (the cap removes the entries stored longest ago first); a 304 with a new validator
    /// or with freshness stores the entry again.
    func test_aRevalidationThatChangesNothingLeavesTheEntryAndTouchesItsFile() throws {
        let dir = NSTemporaryDirectory() + "vow-cache-refresh-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = HTTPCache(directory: dir)
        let spec = HTTPRequestSpec(method: "GET", url: "http://h/r")
        func response(_ status: Int, _ headers: [(String, String)]) -> HTTPResponse {
            HTTPResponse(
                status: status, statusText: "", url: spec.url, method: "GET", headers: headers.map { (name: $0.0, value: $0.1) },
                elapsed: 0, body: status == 200 ? Array("the body".utf8) : [])
        }
        func conditions() -> [String] {
            guard case .stale(_, let c) = cache.lookup(spec, now: 2000) else { return ["not stale"] }
            return c.map { $0.name + ": " + $0.value }
        }
        func stale() throws -> HTTPCache.Entry {
            guard case .stale(let entry, _) = cache.lookup(spec, now: 2000) else { throw XCTSkip("not stale") }
            return entry
        }
        XCTAssertTrue(cache.store(spec, response(200, [("ETag", "\"a\""), ("Date", "Sun, 06 Nov 1994 08:49:37 GMT")]), requestTime: 10, responseTime: 11))
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".entry") })
        let file = dir + "/" + name
        var past = [timeval(tv_sec: 1000, tv_usec: 0), timeval(tv_sec: 1000, tv_usec: 0)]
        XCTAssertEqual(utimes(file, &past), 0)
        func modified() throws -> Date { try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date) }
        let stored = try XCTUnwrap(FileManager.default.contents(atPath: file))
        XCTAssertEqual(conditions(), ["If-None-Match: \"a\""])

        // The same validator, a new Date: the file keeps its bytes, and its time is now's.
        let served = cache.refresh(try stale(), with: response(304, [("ETag", "\"a\""), ("Date", "Mon, 07 Nov 1994 08:49:37 GMT")]), requestTime: 20, responseTime: 21)
        XCTAssertEqual(served.body, Array("the body".utf8))
        XCTAssertEqual(served.cache, "revalidated")
        XCTAssertEqual(HTTPCache.header("Date", in: served.headers), "Mon, 07 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(FileManager.default.contents(atPath: file), stored)
        XCTAssertGreaterThan(try modified().timeIntervalSince1970, 1_000_000)
        XCTAssertEqual(conditions(), ["If-None-Match: \"a\""])

        // A new validator: stored again, and asked with next time.
        _ = cache.refresh(try stale(), with: response(304, [("ETag", "\"b\"")]), requestTime: 30, responseTime: 31)
        XCTAssertNotEqual(FileManager.default.contents(atPath: file), stored)
        XCTAssertEqual(conditions(), ["If-None-Match: \"b\""])

        // Freshness: stored again, and served without a request within it.
        _ = cache.refresh(try stale(), with: response(304, [("Cache-Control", "max-age=600")]), requestTime: 1990, responseTime: 1991)
        if case .fresh(let r, _, _) = cache.lookup(spec, now: 2000) {
            XCTAssertEqual(r.body, Array("the body".utf8))
        } else {
            XCTFail("a 304 that gave freshness was not kept")
        }
    }

    /// Two entries alike to a later lookup, and the differences that make them not alike.
    func test_whatMakesARefreshedEntryRevalidateAlike() {
        let base = entry([("ETag", "\"a\""), ("Date", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Server", "x")])
        XCTAssertTrue(HTTPCache.revalidatesAlike(base, entry([("Server", "x"), ("ETag", "\"a\""), ("Date", "Mon, 07 Nov 1994 08:49:37 GMT")], requestTime: 5, responseTime: 6)))
        XCTAssertFalse(HTTPCache.revalidatesAlike(base, entry([("ETag", "\"b\""), ("Server", "x")])))
        XCTAssertFalse(HTTPCache.revalidatesAlike(base, entry([("ETag", "\"a\""), ("Server", "x"), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")])))
        XCTAssertFalse(HTTPCache.revalidatesAlike(base, entry([("ETag", "\"a\""), ("Server", "x"), ("Cache-Control", "max-age=5")])))
        XCTAssertFalse(HTTPCache.revalidatesAlike(base, entry([("ETag", "\"a\""), ("Server", "x"), ("Expires", "Thu, 01 Jan 2099 00:00:00 GMT")])))
        // Two headers of one name in another order: the first, which a lookup reads, differs.
        let twice = entry([("Link", "<a>"), ("Link", "<b>"), ("ETag", "\"a\"")])
        XCTAssertFalse(HTTPCache.revalidatesAlike(twice, entry([("ETag", "\"a\""), ("Link", "<b>"), ("Link", "<a>")])))
        XCTAssertTrue(HTTPCache.revalidatesAlike(twice, entry([("ETag", "\"a\""), ("Link", "<a>"), ("Link", "<b>")])))
        let fresh = entry([("ETag", "\"a\""), ("Cache-Control", "max-age=5")])
        XCTAssertFalse(HTTPCache.revalidatesAlike(fresh, fresh))
    }
}
