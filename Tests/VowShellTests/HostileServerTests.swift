import Foundation
import XCTest

@testable import VowRuntime
import VowValue

/// HTTP against a server that misbehaves on purpose (testdata/hostile-server.py, a raw socket
/// server started once for the class): vow survives what curl survives, and says in words what
/// the server did wrong.
final class HostileServerTests: XCTestCase {
    nonisolated(unsafe) static var server: Process?
    nonisolated(unsafe) static var input: Pipe?
    nonisolated(unsafe) static var base = ""

    override class func setUp() {
        super.setUp()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", projectRoot.appendingPathComponent("testdata/hostile-server.py").path]
        let out = Pipe(), stdin = Pipe()
        p.standardOutput = out
        p.standardInput = stdin
        try! p.run()
        let port = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        server = p
        input = stdin
        base = "http://127.0.0.1:\(port)"
    }

    override class func tearDown() {
        try? input?.fileHandleForWriting.close()
        server?.waitUntilExit()
        super.tearDown()
    }

    func vow(_ source: String) -> (out: String, err: String, status: Int32) {
        runVow(source, variables: ["h": .string(Self.base)])
    }

    /// A server that resets each kept-alive connection shortly after its response: every request
    /// that finds its reused connection reset before any of its response arrived goes again on a
    /// new one, as curl does.
    func test_aResetOnAReusedConnectionIsSentAgain() {
        let r = vow(#"run seq 200 | lines | each (fetch "$h/reset-after" | text) --limit 4 | pick 'length([?@ == `"ok"`])'"#)
        XCTAssertEqual(r.out, "200\n", r.err)
    }

    /// Bytes past a response's end (more than its Content-Length, a 204 or 304 with a body) close
    /// that connection; no other request sees them.
    func test_leftoverBytesNeverReachAnotherRequest() {
        for route in ["excess", "excess-late", "no-content-body", "not-modified-body"] {
            let r = vow(#"run seq 400 | lines | each (fetch "$h/\#(route)" --allow-errors | status | then fetch "$h/ok" | text) --limit 16 | pick 'length([?@ == `"ok"`])'"#)
            XCTAssertEqual(r.out, "400\n", "\(route): \(r.err.prefix(600))")
        }
    }

    /// Whitespace after a chunk size is read as curl reads it, and the connection is reused
    /// after it (the next response starts where the trailers end).
    func test_whitespaceAfterAChunkSizeIsAccepted() {
        let r = vow(#"run seq 20 | lines | each (fetch "$h/chunk-spaces" | text) --limit 2 | pick 'length([?@ == `"hello world"`])'"#)
        XCTAssertEqual(r.out, "20\n", r.err)
        // Sent a byte at a time: heads and chunk-size lines cut across reads.
        let trickled = vow(#"run seq 3 | lines | each (fetch "$h/chunk-spaces?trickle=1" | text) --limit 1 | pick 'length([?@ == `"hello world"`])'"#)
        XCTAssertEqual(trickled.out, "3\n", trickled.err)
        // A chunk size followed by anything but whitespace and an extension is still refused.
        let bad = vow(#"fetch "$h/chunk-spaces?junk=1""#)
        XCTAssertTrue(bad.err.contains("sent a chunked body with an invalid chunk size"), bad.err)
    }

    /// A JSON body that starts with a UTF-8 byte order mark is read, as jq reads it; a NUL in a
    /// response header is named in words, not the parser's.
    func test_aByteOrderMarkIsSkippedAndANulIsNamed() {
        XCTAssertEqual(vow(#"fetch "$h/bom" | pick name"#).out, "ada\n")
        XCTAssertEqual(vow(#"fetch "$h/bom" | text | json | pick name"#).out, "ada\n")
        let nul = vow(#"fetch "$h/nul-header""#)
        XCTAssertEqual(nul.status, 1)
        XCTAssertTrue(nul.err.contains("sent a response head with invalid characters (a NUL or another control byte"), nul.err)
        XCTAssertFalse(nul.err.contains("http_parser"), nul.err)
    }

    /// An https request to a server that never completes the handshake: the error comes at the
    /// timeout, and vow exits with it instead of waiting for the client's connect timeout.
    func test_aStalledHandshakeEndsTheScriptOnTime() throws {
        let https = Self.base.replacingOccurrences(of: "http://", with: "https://")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: REPLTests.binary)
        p.arguments = ["-c", "fetch \(https)/ok --timeout 1s"]
        let err = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        try p.run()
        // The client's own connect timeout is 10 s; a hang check with room to spare, not a clock.
        XCTAssertEqual(exited.wait(timeout: .now() + 6), .success, "vow still running after its timeout")
        if p.isRunning { p.terminate() }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 1)
        XCTAssertTrue(text.contains("error[timeout]") || text.contains("timed out"), text)
    }

    /// Each protocol failure is named in words, with the request.
    func test_brokenResponsesAreNamedInWords() {
        let cases: [(String, String)] = [
            ("short", "closed the connection before the body was complete"),
            ("te-and-cl", "sent a Content-Length that cannot be used"),
            ("garbage-status", "not a valid HTTP response"),
            ("not-http", "not a valid HTTP response"),
            ("gzip-bad", "not valid gzip"),
        ]
        for (route, words) in cases {
            let r = vow("fetch $h/\(route) | text")
            XCTAssertEqual(r.status, 1, route)
            XCTAssertTrue(r.err.contains(words), "\(route): \(r.err)")
            XCTAssertTrue(r.err.contains("GET \(Self.base)/\(route)"), "\(route): \(r.err)")
            XCTAssertFalse(r.err.contains("Error("), "\(route): \(r.err)")
        }
    }

    /// `Content-Encoding: gzip, gzip` is decoded twice, in memory and to a file.
    func test_nestedContentCodingsAreAllDecoded() throws {
        XCTAssertEqual(vow("fetch $h/gzip-twice | text").out, "hello twice\n")
        let dir = try temporaryDirectory()
        let r = vow("fetch $h/gzip-twice --output \(dir)/twice.txt | pick bytes")
        XCTAssertEqual(r.out, "12\n", r.err)
        XCTAssertEqual(try String(contentsOfFile: "\(dir)/twice.txt", encoding: .utf8), "hello twice\n")
    }

    /// `--output` saves a content-encoded body decoded (gzip, deflate, br), checks its size
    /// against what arrived on the wire, and caps what it writes.
    func test_downloadsAreDecodedAndCapped() throws {
        let dir = try temporaryDirectory()
        let expected = (0..<50_000).map { UInt8(($0 * 31 + 7) % 251) }
        for coding in ["gzip", "deflate", "br"] {
            let file = "\(dir)/\(coding).bin"
            let r = vow("fetch \"$h/\(coding)?size=50000\" --output \(file) | pick bytes")
            XCTAssertEqual(r.out, "50000\n", "\(coding): \(r.err)")
            XCTAssertEqual(try Array(Data(contentsOf: URL(fileURLWithPath: file))), expected, coding)
        }
        // A bomb: 100 MB of zeros in 100 kB of gzip stops at the default cap of a decoded body.
        let bomb = vow("fetch \"$h/gzip-bomb?size=100000000\" --output \(dir)/bomb.bin")
        XCTAssertEqual(bomb.status, 1)
        XCTAssertTrue(bomb.err.contains("over the limit"), bomb.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(dir)/bomb.bin"))
        // --max-size raises it.
        let allowed = vow("fetch \"$h/gzip-bomb?size=100000000\" --output \(dir)/bomb.bin --max-size 200MB | pick bytes")
        XCTAssertEqual(allowed.out, "100000000\n", allowed.err)
    }

    /// A line (or an event) that never ends stops at --max-size with an error, in bounded memory.
    func test_endlessLinesAreCapped() {
        for route in ["endless-line", "endless-event"] {
            let r = vow("fetch \"$h/\(route)?mb=64\" --stream --max-size 1MB | len")
            XCTAssertEqual(r.status, 1, route)
            XCTAssertTrue(r.err.contains("over the limit of 1000000 bytes"), "\(route): \(r.err)")
        }
    }

    func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vow-hostile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }
}
