import Foundation
import TestSupport
import XCTest

@testable import VowHTTP
@testable import VowRuntime
@testable import VowShell

/// `--output FILE` and `--continue` against the fixture server's /file route (a fixed pattern that
/// honours Range requests, and can be cut short).
final class DownloadTests: ServerTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("vow-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func vow(_ source: String) -> (out: String, err: String, status: Int32) {
        runVow(source, variables: ["base": .string(base), "dir": .string(dir.path)])
    }

    func contents(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: dir.appendingPathComponent(name).path).map { [UInt8]($0) }
    }

    func curl(_ url: String, to path: String) throws {
        XCTAssertEqual(try runCommand("curl", ["--silent", "--fail", "-o", path, url]).status, 0)
    }

    func test_theFileIsWhatCurlDownloads() throws {
        let r = vow(#"fetch "$base/file?bytes=3000000" --output "$dir/x.bin""#)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out, "saved \(dir.path)/x.bin (3000000 bytes, 200) from \(base)/file?bytes=3000000\n")
        try curl(base + "/file?bytes=3000000", to: dir.appendingPathComponent("y.bin").path)
        XCTAssertEqual(contents("x.bin"), contents("y.bin"))
        XCTAssertNil(contents("x.bin.part"))
    }

    func test_theValueIsARecord() {
        let r = vow(#"fetch "$base/file?bytes=10" --output "$dir/x.bin" | pick '[bytes, status, headers."content-type"]' | to-json"#)
        XCTAssertEqual(r.out, #"[10,200,"application/octet-stream"]"# + "\n", r.err)
        XCTAssertTrue(vow(#"fetch "$base/file?bytes=10" --output "$dir/x.bin""#).out.hasPrefix("saved "))
    }

    func test_noCapUnlessAsked() {
        // Over the 64 MiB that a body in memory may have: fine on disk; --max-size still limits.
        XCTAssertEqual(vow(#"fetch "$base/big-chunked?bytes=70000000" --output "$dir/big.bin" | pick bytes"#).out, "70000000\n")
        let r = vow(#"fetch "$base/big-chunked?bytes=2000000" --output "$dir/capped.bin" --max-size 1MB"#)
        XCTAssertTrue(r.err.contains("over the limit of 1000000 bytes"), r.err)
        XCTAssertNil(contents("capped.bin"), "a failed download left a file under its name")
    }

    func test_anInterruptedDownloadIsResumed() throws {
        let full = fileBytes(300_000)
        let cut = vow(#"fetch "$base/file?bytes=300000&cut=100000" --output "$dir/x.bin""#)
        XCTAssertEqual(cut.status, 1)
        XCTAssertTrue(cut.err.contains("x.bin.part; --continue resumes it"), cut.err)
        XCTAssertNil(contents("x.bin"), "nothing is written under the name until the download is complete")
        XCTAssertEqual(contents("x.bin.part"), Array(full[..<100_000]))
        let resumed = vow(#"fetch "$base/file?bytes=300000" --output "$dir/x.bin" --continue | pick '[bytes, status]' | to-json"#)
        XCTAssertEqual(resumed.out, "[300000,206]\n", resumed.err)
        XCTAssertEqual(contents("x.bin"), full)
        XCTAssertNil(contents("x.bin.part"))
        // Resuming a whole file asks for nothing more and keeps it.
        XCTAssertEqual(vow(#"fetch "$base/file?bytes=300000" --output "$dir/x.bin" --continue | pick bytes"#).out, "300000\n")
        XCTAssertEqual(contents("x.bin"), full)
    }

    /// A file that changed after a cut download is fetched whole again, never spliced: through
    /// If-Range, and also from a server that ignores If-Range (its ETag tells).
    func test_aChangedFileIsNeverSpliced() throws {
        let b = fileBytes(300_000).map { $0 ^ 0x5A }
        for ignored in ["", "&if-range=ignored"] {
            try? FileManager.default.removeItem(atPath: dir.appendingPathComponent("v.bin").path)
            let cut = vow(#"fetch "$base/file?bytes=300000&cut=100000" --output "$dir/v.bin""#)
            XCTAssertEqual(cut.status, 1)
            XCTAssertNotNil(contents("v.bin.part.validator"), "the validator is kept beside the part file")
            let resumed = vow(#"fetch "$base/file?bytes=300000&version=b\#(ignored)" --output "$dir/v.bin" --continue | pick '[bytes, status]' | to-json"#)
            XCTAssertEqual(resumed.out, "[300000,200]\n", "\(ignored): \(resumed.err)")
            XCTAssertEqual(contents("v.bin"), b, "the file is B whole, not A's head with B's tail")
            XCTAssertNil(contents("v.bin.part"))
            XCTAssertNil(contents("v.bin.part.validator"))
        }
        // The same file still resumes with a range.
        _ = vow(#"fetch "$base/file?bytes=300000&cut=100000" --output "$dir/w.bin""#)
        XCTAssertEqual(vow(#"fetch "$base/file?bytes=300000" --output "$dir/w.bin" --continue | pick status"#).out, "206\n")
        XCTAssertEqual(contents("w.bin"), fileBytes(300_000))
    }

    /// Two downloads to one --output at once: one owns FILE.part, the other fails and touches
    /// nothing.
    func test_twoDownloadsToOneFileDoNotShareItsPart() {
        let r = vow(#"all [fetch "$base/slow?ms=400" --output "$dir/same.bin" | pick status, delay 100ms | then fetch "$base/file?bytes=1000" --output "$dir/same.bin"] | catch pick message"#)
        XCTAssertTrue(r.out.contains("another download to \(dir.path)/same.bin is in progress"), r.out + r.err)
        // The winner's file is whole once it is done.
        Thread.sleep(forTimeInterval: 0.6)
        XCTAssertNil(contents("same.bin.part.lock"))
    }

    func test_errorsLeaveNothingBehind() {
        let r = vow(#"fetch $base/status/404 --output "$dir/x.bin""#)
        XCTAssertTrue(r.err.contains("error[http]: 404"), r.err)
        XCTAssertNil(contents("x.bin"))
        XCTAssertNil(contents("x.bin.part"))
        XCTAssertTrue(vow("fetch $base/file --continue").err.contains("give --output FILE too"))
        XCTAssertTrue(vow(#"fetch $base/file --output "$dir""#).err.contains("is a directory"))
    }

    /// On a terminal a progress bar is drawn on stderr and erased; the file is still whole.
    func test_aProgressBarOnATerminal() throws {
        let path = dir.appendingPathComponent("tty.bin").path
        let t = try PseudoTerminal(REPLTests.binary, ["-c", "fetch \"\(base)/file?bytes=5000000\" --output \(path)"])
        XCTAssertNotNil(t.waitExit(timeout: 30))
        // A line of the live region, named after the file, erased before `saved` is written.
        XCTAssertTrue(t.output.contains("tty.bin  ["), "no progress bar in \(t.output.debugDescription)")
        XCTAssertTrue(t.output.contains("\r\u{1B}[2Ksaved "), "the bar was not erased: \(t.output.debugDescription)")
        XCTAssertTrue(t.plainOutput.contains("saved \(path) (5000000 bytes, 200)"), t.plainOutput)
        XCTAssertEqual(contents("tty.bin"), fileBytes(5_000_000))
    }
}
