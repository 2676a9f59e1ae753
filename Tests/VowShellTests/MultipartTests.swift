import Foundation
import TestSupport
import XCTest

@testable import VowRuntime

/// `--multipart` and `--body @PATH`: the fixture server parses what arrives, field by field, and
/// curl's `-F` sending the same fields to the same route is the reference.
final class MultipartTests: ServerTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("vow-multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "first line\nsecond \"quoted\" line\n".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x0D, 0x0A]).write(to: dir.appendingPathComponent("pixel.png"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func vow(_ source: String) -> (out: String, err: String, status: Int32) {
        runVow(source, variables: ["base": .string(base), "dir": .string(dir.path)])
    }

    func curl(_ arguments: [String]) throws -> String {
        try runCommand("curl", ["--silent", "--show-error"] + arguments).out
    }

    func test_fieldsAndFilesArriveFieldByField() throws {
        let r = vow(#"post $base/upload --multipart {name: ann, n: 3, doc: "@$dir/notes.txt", img: "@$dir/pixel.png"} | text"#)
        XCTAssertEqual(r.status, 0, r.err)
        let v = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        XCTAssertEqual(v["parts"] as? Int, 4)
        XCTAssertEqual(v["fields"] as? [String: String], ["name": "ann", "n": "3"])
        let files = try XCTUnwrap(v["files"] as? [String: [String: Any]])
        XCTAssertEqual(files["doc"]?["filename"] as? String, "notes.txt")
        XCTAssertEqual(files["doc"]?["contentType"] as? String, "text/plain")
        XCTAssertEqual(files["doc"]?["text"] as? String, "first line\nsecond \"quoted\" line\n")
        XCTAssertEqual(files["img"]?["filename"] as? String, "pixel.png")
        XCTAssertEqual(files["img"]?["contentType"] as? String, "image/png")
        XCTAssertEqual(files["img"]?["size"] as? Int, 8)
    }

    func test_theServerSeesWhatCurlFSends() throws {
        let byVow = vow(#"post $base/upload --multipart {name: "Ann O'Neil", doc: "@$dir/notes.txt", img: "@$dir/pixel.png"} | text"#)
        XCTAssertEqual(byVow.status, 0, byVow.err)
        let byCurl = try curl([
            "-F", "name=Ann O'Neil", "-F", "doc=@\(dir.path)/notes.txt", "-F", "img=@\(dir.path)/pixel.png", base + "/upload",
        ])
        let a = try JSONSerialization.jsonObject(with: Data(byVow.out.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(byCurl.utf8)) as? NSDictionary
        XCTAssertEqual(a, b)
    }

    func test_bodyFromAFile() {
        let r = vow(#"post $base/echo --body "@$dir/notes.txt" | pick bodyText"#)
        XCTAssertEqual(r.out, "first line\nsecond \"quoted\" line\n", r.err)
    }

    func test_aBodyFileIsStreamedAndSentAgainOnA307() throws {
        let big = dir.appendingPathComponent("big.txt")
        try String(repeating: "0123456789", count: 300_000).write(to: big, atomically: true, encoding: .utf8)
        XCTAssertEqual(vow(#"post $base/echo --body "@$dir/big.txt" | pick 'length(bodyText)'"#).out, "3000000\n")
        let r = vow(#"post "$base/redirect-to?code=307&url=/echo" --body "@$dir/notes.txt" | pick '[method, bodyText]' | to-json"#)
        XCTAssertEqual(r.out, #"["POST","first line\nsecond \"quoted\" line\n"]"# + "\n", r.err)
        XCTAssertTrue(vow(#"post $base/echo --body "@$dir/notes.txt" --curl"#).out.contains("--data-binary @\(dir.path)/notes.txt"))
    }

    func test_badInputIsNamed() {
        var r = vow(#"post $base/upload --multipart {doc: "@$dir/missing.txt"}"#)
        XCTAssertTrue(r.err.contains("error[io]: post: --multipart doc: no such file"), r.err)
        r = vow(#"post $base/upload --multipart [1, 2]"#)
        XCTAssertTrue(r.err.contains("--multipart must be a record"), r.err)
        r = vow(#"post $base/echo --body "@$dir""#)
        XCTAssertTrue(r.err.contains("is a directory"), r.err)
        r = vow(#"post $base/echo --json {a: 1} --multipart {b: 2}"#)
        XCTAssertTrue(r.err.contains("one body at a time: --json and --multipart"), r.err)
    }
}
