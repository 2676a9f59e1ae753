import Foundation
import TestSupport
import VowValue
import XCTest

@testable import VowRuntime

/// `--curl`: the command vow writes, run by the real curl against the fixture server, makes the
/// request vow itself makes (method, path and query, headers, body).
final class CurlCommandTests: ServerTestCase {
    /// Runs `command` with sh and returns its standard output.
    func shell(_ command: String) throws -> (out: String, status: Int32) { try runCommand("sh", ["-c", command]) }

    /// The parts of an /echo answer that describe the request (Accept-Encoding differs: curl
    /// also offers br and zstd).
    func request(_ echo: String) throws -> [String] {
        let v = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(echo.utf8)) as? [String: Any], echo)
        var headers = try XCTUnwrap(v["headers"] as? [String: String])
        headers["accept-encoding"] = nil
        headers["accept"] = headers["accept"] == "*/*" ? nil : headers["accept"]  // curl's default
        return ["\(v["method"]!)", "\(v["uri"]!)", "\(v["bodyText"]!)"] + headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
    }

    func test_curlMakesTheSameRequest() throws {
        let requests = [
            #"fetch $base/echo --header "X-A: 1" --header "X-Quote: it's \"q\"""#,
            #"post $base/echo --json {name: "Ann O'Neil", n: [1, 2]} --query {q: "a b&c"}"#,
            #"put $base/echo --form {a: "x y", b: "ü"} --bearer s3cret"#,
            #"delete "$base/echo?x=1" --auth "u:p w""#,
            #"patch $base/echo --body "line 1\nline 2 \$HOME `date`""#,
        ]
        for source in requests {
            let command = vow(source + " --curl")
            XCTAssertEqual(command.status, 0, command.err)
            let byCurl = try shell(command.out)
            XCTAssertEqual(byCurl.status, 0, command.out)
            let byVow = vow(source + " | text")
            XCTAssertEqual(byVow.status, 0, byVow.err)
            XCTAssertEqual(try request(byCurl.out), try request(byVow.out), source)
        }
    }

    func test_curlSendsNothingAndFailsLikeVow() throws {
        let before = Self.server.hits("/status/404")
        let command = vow("fetch $base/status/404 --curl")
        XCTAssertEqual(Self.server.hits("/status/404"), before, "--curl sent the request")
        // vow rejects a 404; the command fails too (curl's exit status 22).
        XCTAssertEqual(try shell(command.out).status, 22, command.out)
        XCTAssertEqual(try shell(vow("fetch $base/status/404 --allow-errors --curl").out).status, 0)
    }

    /// `--multipart` is written as curl's form fields: files by their path (`-F doc=@PATH`),
    /// text verbatim (`--form-string`), and the server sees the same fields from both.
    func test_curlWritesMultipartAsFormFields() throws {
        let file = NSTemporaryDirectory() + "vow-curl-\(UUID().uuidString).txt"
        try "file text\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let source = "post $base/upload --multipart {name: 'ann; type=x', doc: @\(file)}"
        let command = vow(source + " --curl")
        XCTAssertTrue(command.out.hasPrefix("curl -sS "), command.out)
        XCTAssertTrue(command.out.contains("-F doc=@\(file)"), command.out)
        XCTAssertFalse(command.out.contains("file text"), "the file was inlined: \(command.out)")
        let byCurl = try shell(command.out)
        XCTAssertEqual(byCurl.status, 0, command.out)
        let fields = "| json | pick '[fields.name, files.doc.filename, files.doc.text]' | to-json"
        let byVow = vow(source + " " + fields)
        XCTAssertEqual(byVow.out, #"["ann; type=x","\#((file as NSString).lastPathComponent)","file text\n"]"# + "\n", byVow.err)
        let seenByCurl = runVow("echo $r " + fields, variables: ["r": .string(byCurl.out)])
        XCTAssertEqual(seenByCurl.out, byVow.out, byCurl.out)
    }

    func test_quoting() {
        XCTAssertEqual(CurlCommand.quote("https://a.example/x?y=1"), "'https://a.example/x?y=1'")
        XCTAssertEqual(CurlCommand.quote("plain-word_1.2"), "plain-word_1.2")
        XCTAssertEqual(CurlCommand.quote("it's"), #"'it'\''s'"#)
        XCTAssertEqual(CurlCommand.quote(""), "''")
    }
}
