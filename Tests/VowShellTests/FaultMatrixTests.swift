import Foundation
import TestSupport
import XCTest

/// The `vow` binary itself against every fault of the fixture server and against bad programs:
/// the right error kind naming the culprit, the right exit status, no crash, within a time bound.
final class FaultMatrixTests: ServerTestCase {
    struct Outcome {
        var status: Int32
        var out: String
        var err: String
        var seconds: Double
    }

    /// Runs the binary with `arguments` (and `stdin`), killing it after `limit` seconds.
    /// Runs the `vow` binary with `arguments`; `through` is a command that runs the binary
    /// given after it (the binary is then `binary`).
    func vow(
        _ arguments: [String], stdin: String? = nil, limit: Double = 10, through wrapper: [String] = [], binary: String = REPLTests.binary
    ) throws -> Outcome {
        let p = Process()
        let command = wrapper + [binary] + arguments
        p.executableURL = URL(fileURLWithPath: command[0])
        p.arguments = Array(command.dropFirst())
        var env = ProcessInfo.processInfo.environment
        env["VOW_HISTORY"] = "/dev/null"
        p.environment = env
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        let start = Date()
        try p.run()
        if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inp.fileHandleForWriting.close()
        let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: killer)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(p.terminationReason, .exit, "vow \(arguments) was killed or crashed")
        return Outcome(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self), seconds: seconds)
    }

    func check(_ source: String, status: Int32, error prefix: String, mentions: String? = nil, within limit: Double = 5,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try vow(["-c", source], limit: limit + 5)
        XCTAssertEqual(r.status, status, "\(source)\n\(r.err)", file: file, line: line)
        XCTAssertTrue(r.err.hasPrefix(prefix), "\(source): expected \(prefix)…, got\n\(r.err)", file: file, line: line)
        if let mentions { XCTAssertTrue(r.err.contains(mentions), "\(source): should mention \(mentions)\n\(r.err)", file: file, line: line) }
        XCTAssertLessThan(r.seconds, limit, "\(source) took \(r.seconds)s", file: file, line: line)
    }


    func test_serverFaults() throws {
        let hostPort = "127.0.0.1:\(Self.server.port)"
        try check("fetch http://127.0.0.1:1/", status: 1, error: "error[network]: connection refused 127.0.0.1:1")
        try check("fetch \(base)/stall --timeout 300ms", status: 1, error: "error[timeout]: no complete response within 300ms", mentions: "/stall")
        try check("fetch '\(base)/slow?ms=5000' --timeout 300ms", status: 1, error: "error[timeout]", mentions: "/slow")
        try check("fetch \(base)/reset", status: 1, error: "error[network]", mentions: hostPort)
        try check("fetch \(base)/status/404", status: 1, error: "error[http]: 404 Not Found", mentions: "/status/404")
        try check("fetch \(base)/status/500", status: 1, error: "error[http]: 500 Internal Server Error")
        try check("fetch '\(base)/retry-after?key=m1&fails=9'", status: 1, error: "error[http]: 429 Too Many Requests")
        try check("fetch \(base)/loop", status: 1, error: "error[http]: redirect loop")
        try check("fetch \(base)/invalid-json | json", status: 1, error: "error[json]: ", mentions: "line 1, column")
        try check("fetch \(base)/invalid-utf8 | text", status: 1, error: "error[type]: text: the response body is not valid UTF-8")
        try check("fetch '\(base)/big?bytes=5000000' --max-size 1MB", status: 1, error: "error[http]: the body is 5000000 bytes, over the limit")
        try check("fetch \(base)/gzip-bomb", status: 1, error: "error[http]: the body is over the limit of 67108864 bytes", within: 15)
    }

    func test_badPrograms() throws {
        try check("echo \"unclosed", status: 2, error: "error[syntax]: unclosed", mentions: "<command>:1:")
        try check("echo hi | nosuch", status: 2, error: "error[syntax]: unknown stage 'nosuch'")
        try check("delay 1s --bogus", status: 2, error: "error[syntax]: delay: unknown flag --bogus")
        try check("delay soon", status: 1, error: "error[type]: delay: DURATION must be a duration")
        try check("echo " + String(repeating: "[", count: 10_000), status: 2, error: "error[syntax]")
        try check("echo {\"a\": 1", status: 2, error: "error[syntax]", mentions: "<command>:1:6")
        // A 1 MB line (through stdin: an argument that long is over the system's limit).
        let long = try vow([], stdin: "echo '" + String(repeating: "z", count: 1_000_000) + "' | len\n")
        XCTAssertEqual(long.out, "1000000\n", long.err)
    }

    func test_scriptsThatCannotBeRead() throws {
        let missing = try vow(["/nonexistent/script.vow"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.err, "error[io]: cannot read /nonexistent/script.vow: no such file or directory\n")
        let directory = try vow([NSTemporaryDirectory()])
        XCTAssertEqual(directory.status, 1)
        XCTAssertEqual(directory.err, "error[io]: cannot read \(NSTemporaryDirectory()): is a directory\n")
        let garbage = NSTemporaryDirectory() + "vow-garbage-\(UUID().uuidString).vow"
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        var bytes = [UInt8]()
        var x: UInt32 = 7
        for _ in 0..<4096 {
            x = x &* 1_103_515_245 &+ 12345
            bytes.append(UInt8(truncatingIfNeeded: x >> 16))
        }
        _ = FileManager.default.createFile(atPath: garbage, contents: Data(bytes))
        let g = try vow([garbage])
        XCTAssertEqual(g.status, 2, g.err)
        XCTAssertTrue(g.err.hasPrefix("error[syntax]: \(garbage) is not UTF-8 text"), g.err)
    }

    func test_aScriptWithoutReadPermission() throws {
        let dir = NSTemporaryDirectory() + "vow-unreadable-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = dir + "/secret.vow"
        _ = FileManager.default.createFile(atPath: script, contents: Data("echo 1\n".utf8), attributes: [.posixPermissions: 0o000])
        // The superuser may read any file, so as root vow runs as nobody (setpriv, util-linux),
        // from a copy in the same folder, since nobody may not reach the build folder.
        var binary = REPLTests.binary, asNobody: [String] = []
        if geteuid() == 0 {
            binary = dir + "/vow"
            try FileManager.default.copyItem(atPath: REPLTests.binary, toPath: binary)
            asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        }
        let r = try vow([script], through: asNobody, binary: binary)
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertEqual(r.err, "error[io]: cannot read \(script): permission denied\n")
    }

    func test_aScriptOnStdinRuns() throws {
        let r = try vow([], stdin: "echo [1, 2] | len\n")
        XCTAssertEqual(r.out, "2\n", r.err)
    }
}
