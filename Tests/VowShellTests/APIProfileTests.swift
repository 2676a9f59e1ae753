import Foundation
import XCTest

@testable import VowRuntime
import VowValue

/// APIs declared by name (`api add`): `NAME/PATH` goes to the base with the API's headers, the
/// headers go to its origin only, and a kept API is a file of mode 0600 that later runs read.
final class APIProfileTests: ServerTestCase {
    /// Runs the vow binary with its configuration in `config`.
    func run(_ source: String, config: String) throws -> (out: String, err: String, status: Int32) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: REPLTests.binary)
        p.arguments = ["-c", source]
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = config
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self), p.terminationStatus)
    }

    func test_aNamedAPIResolvesWithItsHeaders() {
        let declare = "api add fx $base/ --bearer s3cret --header 'X-Team: core' --no-save | quiet\n"
        XCTAssertEqual(vow(declare + "fetch fx/echo?x=1 | pick '[path, query.x, headers.authorization, headers.\"x-team\"]' | to-json").out,
            #"["/echo","1","Bearer s3cret","core"]"# + "\n")
        // Every HTTP stage, and a header given now wins over the API's.
        XCTAssertEqual(vow(declare + "post fx/echo --json {a: 1} --bearer other | pick '[method, headers.authorization]' | to-json").out,
            #"["POST","Bearer other"]"# + "\n")
        // The credentials go to the API's origin only: a redirect elsewhere drops them.
        let elsewhere = base.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/echo"
        let r = vow(declare + "fetch \"fx/redirect-to?url=\(elsewhere)\" | pick '[headers.host, headers.authorization, headers.\"x-team\"]' | to-json")
        XCTAssertTrue(r.out.hasSuffix(#",null,null]"# + "\n"), r.out + r.err)
        // A `://` after the start (a URL in the query) is not a scheme: http:// is still added.
        XCTAssertTrue(vow("fetch 127.0.0.1:1/x?next=http://y").err.contains("GET http://127.0.0.1:1/x?next=http://y"))
        // A URL with a scheme, or a host name, is never an API.
        XCTAssertTrue(vow(declare + "fetch http://fx/echo").err.contains("fx"))
        // The secret is not shown.
        let shown = vow(declare + "api show fx | to-json").out
        XCTAssertFalse(shown.contains("s3cret"), shown)
        XCTAssertTrue(shown.contains("Authorization: ••••••••"), shown)
    }

    func test_aKeptAPIIsAPrivateFileThatLaterRunsRead() throws {
        let config = NSTemporaryDirectory() + "vow-apis-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: config) }
        let added = try run("api add kept \(base) --bearer t0k | pick base", config: config)
        XCTAssertEqual(added.out, base + "\n", added.err)
        let file = config + "/vow/apis/kept.json"
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber).intValue
        XCTAssertEqual(mode & 0o777, 0o600)
        XCTAssertEqual(try run("fetch kept/echo | pick headers.authorization", config: config).out, "Bearer t0k\n")
        XCTAssertEqual(try run("paginate kept/echo --max-pages 1 | pick '[0].path'", config: config).out, "/echo\n")
        XCTAssertEqual(try run("api list | to-json", config: config).out, #"[{"name":"kept","base":"\#(base)"}]"# + "\n")
        // A script's own declaration shadows the kept one for its run, and leaves the file alone.
        XCTAssertEqual(try run("api add kept \(base)/followers --no-save | quiet\nfetch kept/ada | pick name", config: config).out, "ada\n")
        XCTAssertEqual(try run("fetch kept/echo | pick path", config: config).out, "/echo\n")
        XCTAssertEqual(try run("api remove kept", config: config).out, "removed kept\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
        let gone = try run("api show kept", config: config)
        XCTAssertTrue(gone.err.contains("api: no API named 'kept' (api list shows them)"), gone.err)
    }

    func test_badDeclarationsAreRefused() {
        XCTAssertTrue(vow("api add 'a.b' http://h --no-save").err.contains("api: NAME must be letters, digits, - and _, got 'a.b'"))
        XCTAssertTrue(vow("api add x ftp://h --no-save").err.contains("api: BASE must be an http:// or https:// URL"))
        XCTAssertTrue(vow("api frobnicate").err.contains("api: unknown command 'frobnicate': add, list, show or remove"))
        XCTAssertTrue(vow("api add x http://h --bearer \"a\nb\" --no-save").err.contains("refused before sending"))
    }
}
