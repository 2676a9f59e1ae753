import Foundation
@testable import VowRuntime
import XCTest

@testable import VowShell

/// The HTTP cache, rule by rule (RFC 9111 as docs/http-cache.md lists it), against a server of the
/// tests' own that counts the requests it gets (testdata/cache-server.py): a hit sends nothing, a
/// revalidation sends a conditional request answered 304, a miss a plain one. Each test has a
/// cache directory of its own.
final class HTTPCacheTests: XCTestCase {
    var server: ClockServer!
    var cacheHome = ""

    override func setUpWithError() throws {
        server = try ClockServer.start("testdata/cache-server.py")
        cacheHome = NSTemporaryDirectory() + "vow-cache-\(getpid())-\(UUID().uuidString)"
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: cacheHome)
    }

    /// vow with the test's cache directory (and `environment` beside it).
    func vow(_ source: String, _ environment: [String] = []) throws -> (out: String, err: String, status: Int32) {
        try runWithInput("/usr/bin/env", ["XDG_CACHE_HOME=\(cacheHome)"] + environment + [REPLTests.binary, "-c", source], input: "")
    }

    /// How many requests the server got for `path`, and how many of them were conditional.
    func count(_ path: String) throws -> (requests: Int, conditional: Int) {
        let r = try vow("fetch '\(server.base)/count?path=\(path)' --no-cache | json | pick '[requests, conditional]' | to-json")
        let n = r.out.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst().dropLast().split(separator: ",").compactMap { Int($0) }
        XCTAssertEqual(n.count, 2, r.out + r.err)
        return (n.first ?? -1, n.last ?? -1)
    }

    func cacheOf(_ path: String, _ flags: String = "") throws -> String {
        let r = try vow("fetch \(server.base)\(path) \(flags) | response | pick cache")
        XCTAssertEqual(r.status, 0, r.err)
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// §4.2.1: a response with max-age is served fresh without a request.
    func test_aFreshResponseIsServedWithoutARequest() throws {
        XCTAssertEqual(try cacheOf("/fresh"), "miss")
        XCTAssertEqual(try cacheOf("/fresh"), "hit")
        XCTAssertEqual(try vow("fetch \(server.base)/fresh | json | pick n").out, "1\n", "the stored body")
        XCTAssertEqual(try count("/fresh").requests, 1)
        let verbose = try vow("fetch \(server.base)/fresh --verbose | json | pick n")
        XCTAssertTrue(verbose.err.contains("* cache: hit, "), verbose.err)
    }

    /// §4.4: an unsafe request that does not fail invalidates what is stored for its URL, and
    /// for the Content-Location its response names on the same origin; a GET does not.
    func test_anUnsafeRequestInvalidatesItsTarget() throws {
        XCTAssertEqual(try cacheOf("/mutable"), "miss")
        XCTAssertEqual(try cacheOf("/mutable"), "hit")
        XCTAssertEqual(try vow("put \(server.base)/mutable --json {v: 1} | status").out, "200\n")
        let after = try vow("fetch \(server.base)/mutable | json | pick '[value.v, n]' | to-json")
        XCTAssertEqual(after.out, "[1,2]\n", "the new value, from a second request")
        XCTAssertEqual(try cacheOf("/mutable"), "hit")
        // Changed through another URL that names this one.
        XCTAssertEqual(try vow("put \(server.base)/mutable-elsewhere --json {v: 2} | status").out, "200\n")
        XCTAssertEqual(try vow("fetch \(server.base)/mutable | json | pick value.v").out, "2\n")
        XCTAssertEqual(try count("/mutable").requests, 3)
    }

    /// §4.2.1: Expires − Date is the freshness lifetime when max-age is absent.
    func test_expiresGivesTheLifetime() throws {
        XCTAssertEqual(try cacheOf("/expires"), "miss")
        XCTAssertEqual(try cacheOf("/expires"), "hit")
        XCTAssertEqual(try count("/expires").requests, 1)
    }

    /// §4.3.1 and §4.3.4: no-cache makes every use a revalidation, with If-None-Match; a 304
    /// serves the stored body.
    func test_noCacheRevalidatesWithTheETag() throws {
        XCTAssertEqual(try cacheOf("/no-cache"), "miss")
        // The 304 changes nothing a lookup reads (its headers are the 200's but for Date): the
        // stored entry keeps its bytes, and its file's time is renewed.
        let directory = cacheHome + "/vow/http"
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasSuffix(".entry") })
        let file = directory + "/" + name
        let stored = try XCTUnwrap(FileManager.default.contents(atPath: file))
        var past = [timeval(tv_sec: 1000, tv_usec: 0), timeval(tv_sec: 1000, tv_usec: 0)]
        XCTAssertEqual(utimes(file, &past), 0)
        XCTAssertEqual(try cacheOf("/no-cache"), "revalidated")
        XCTAssertEqual(FileManager.default.contents(atPath: file), stored, "the entry was written again")
        let modified = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date)
        XCTAssertGreaterThan(modified.timeIntervalSince1970, 1_000_000, "the entry's time was not renewed")
        XCTAssertEqual(try vow("fetch \(server.base)/no-cache | json | pick n").out, "1\n", "a 304 serves the stored body")
        let (requests, conditional) = try count("/no-cache")
        XCTAssertEqual(requests, 3)
        XCTAssertEqual(conditional, 2)
    }

    /// §4.3.1: a stale response with Last-Modified is revalidated with If-Modified-Since.
    func test_aStaleResponseIsRevalidatedWithLastModified() throws {
        XCTAssertEqual(try cacheOf("/modified"), "miss")
        let r = try vow("fetch \(server.base)/modified --verbose | response | pick cache")
        XCTAssertEqual(r.out, "revalidated\n")
        XCTAssertTrue(r.err.contains("revalidating with If-Modified-Since"), r.err)
        XCTAssertEqual(try count("/modified").conditional, 1)
    }

    /// §3: no-store keeps nothing.
    func test_noStoreKeepsNothing() throws {
        XCTAssertEqual(try cacheOf("/no-store"), "miss")
        XCTAssertEqual(try cacheOf("/no-store"), "miss")
        XCTAssertEqual(try count("/no-store").requests, 2)
    }

    /// §4.1: an entry answers only a request with the same values of the headers Vary names.
    func test_varyKeepsAnotherVariantApart() throws {
        func accept(_ a: String) throws -> String {
            try vow("fetch \(server.base)/vary --header 'Accept: \(a)' | json | pick accept").out
        }
        XCTAssertEqual(try accept("a/b"), "a/b\n")
        XCTAssertEqual(try accept("a/b"), "a/b\n")
        XCTAssertEqual(try accept("c/d"), "c/d\n", "the a/b variant was served for c/d")
        XCTAssertEqual(try count("/vary").requests, 2)
    }

    /// A response to one credential is never served to another, or to none.
    func test_aResponseIsKeptPerCredential() throws {
        func auth(_ flags: String) throws -> String { try vow("fetch \(server.base)/auth \(flags) | json | pick auth").out }
        XCTAssertEqual(try auth("--bearer one"), "Bearer one\n")
        XCTAssertEqual(try auth("--bearer two"), "Bearer two\n")
        XCTAssertEqual(try auth(""), "null\n")
        XCTAssertEqual(try auth("--bearer one"), "Bearer one\n")
        XCTAssertEqual(try count("/auth").requests, 3, "the second `one` is a hit")
    }

    /// `--no-cache` neither reads nor keeps; VOW_HTTP_CACHE=off turns the cache off.
    func test_noCacheFlagAndTheSettingTurnItOff() throws {
        XCTAssertEqual(try cacheOf("/fresh", "--no-cache"), "null")
        XCTAssertEqual(try cacheOf("/fresh"), "miss", "--no-cache kept nothing")
        XCTAssertEqual(try cacheOf("/fresh", "--no-cache"), "null")
        XCTAssertEqual(try vow("fetch \(server.base)/fresh | response | pick cache", ["VOW_HTTP_CACHE=off"]).out, "null\n")
        XCTAssertEqual(try count("/fresh").requests, 4)
    }

    /// A changed ETag is a new response (200), which replaces the entry.
    func test_aChangedResponseReplacesTheEntry() throws {
        XCTAssertEqual(try vow("fetch \(server.base)/etag-changes | json | pick n").out, "1\n")
        XCTAssertEqual(try vow("fetch \(server.base)/etag-changes | json | pick n").out, "2\n")
        XCTAssertEqual(try count("/etag-changes").conditional, 1)
    }

    /// Processes using the cache at once never read a torn entry: every run of eight at once,
    /// each fetching and storing several times, gets whole JSON.
    func test_processesAtOnceNeverSeeATornEntry() throws {
        let group = DispatchGroup()
        let results = VowRuntime.Locked<[String]>([])
        let base = server.base, home = cacheHome
        let program = "echo [1, 2, 3, 4, 5] | each (fetch \(base)/etag-changes | json | pick n) --limit 1 | quiet\nfetch \(base)/etag-changes | json | pick n"
        for _ in 0..<8 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                let r = try? runWithInput("/usr/bin/env", ["XDG_CACHE_HOME=\(home)", REPLTests.binary, "-c", program], input: "")
                results.withLock { $0.append((r?.err ?? "no run") + "|" + (r?.out ?? "")) }
            }
        }
        group.wait()
        let all = results.withLock { $0 }
        XCTAssertEqual(all.count, 8)
        for r in all { XCTAssertTrue(r.hasPrefix("|") && Int(r.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines)) != nil, r) }
    }

    /// `--if-match` with an earlier response writes only over the version it read: a second
    /// write with the same response gets 412, and the error keeps the server's body.
    func test_ifMatchWritesOnlyOverTheVersionItRead() throws {
        let r = try vow("""
            let r = fetch \(server.base)/doc
            put \(server.base)/doc --json {title: second} --if-match $r | status
            put \(server.base)/doc --json {title: third} --if-match $r | status
            """)
        XCTAssertEqual(r.out, "200\n")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[http]: 412 Precondition Failed"), r.err)
        XCTAssertTrue(r.err.contains(#"= body: {"error":"precondition failed","current":"\"v2\""}"#), r.err)
        XCTAssertEqual(try vow("fetch \(server.base)/doc | json | pick title").out, "second\n", "the stale write was refused")
        let curl = try vow("put \(server.base)/doc --json {t: x} --if-match v2 --curl")
        XCTAssertTrue(curl.out.contains(#"If-Match: \"v2\""#) || curl.out.contains(#"If-Match: "v2""#), curl.out)
        XCTAssertEqual(try vow("put \(server.base)/doc --json {t: x} --if-match '*' | json | pick t").out, "x\n")
    }
}
