import Foundation
import TestSupport
import XCTest

@testable import VowShell

/// The REPL's history: shared by REPLs at once without loss, in libedit's format, trimmed by a
/// rename, and a failure to save it said once.
final class HistoryFileTests: XCTestCase {
    var path = ""

    override func setUp() {
        path = NSTemporaryDirectory() + "vow-history-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func test_entriesRoundTripInLibeditsFormat() {
        let file = HistoryFile(path: path, limit: 100)
        let entries = ["echo a b", #"pick 'a\b'"#, "echo 'tab\there'", "two\nlines", "naïve ☃"]
        for e in entries { XCTAssertNil(file.append(e)) }
        XCTAssertEqual(file.load(), entries)
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        XCTAssertTrue(text.hasPrefix("_HiStOrY_V2_\necho\\040a\\040b\n"), text)
        // libedit's own forms are read too.
        XCTAssertEqual(HistoryFile.decode(Array(#"run\040sh\040-c\040'x'"#.utf8)), "run sh -c 'x'")
        XCTAssertEqual(HistoryFile.decode(Array(#"a\^Ib\\c"#.utf8)), "a\tb\\c")
        let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
        XCTAssertEqual(mode, 0o600)
    }

    func test_trimmingKeepsTheNewestEntriesWhole() {
        let file = HistoryFile(path: path, limit: 10)
        for i in 0..<25 { XCTAssertNil(file.append("echo \(i)")) }
        XCTAssertNil(file.trim())
        XCTAssertEqual(file.load(), (15..<25).map { "echo \($0)" })
    }

    /// Two REPLs typing at once: every line of both is kept (each appends under the lock).
    func test_twoREPLsAtOnceLoseNothing() throws {
        let a = try PseudoTerminal(REPLTests.binary, [], environment: ["VOW_HISTORY": path])
        let b = try PseudoTerminal(REPLTests.binary, [], environment: ["VOW_HISTORY": path])
        XCTAssertTrue(a.waitFor("vow> ") && b.waitFor("vow> "))
        Thread.sleep(forTimeInterval: 0.1)
        for i in 0..<15 {
            a.clear()
            b.clear()
            a.type("echo from-a-\(i)\r")
            b.type("echo from-b-\(i)\r")
            XCTAssertTrue(a.waitFor("\nfrom-a-\(i)\n") && b.waitFor("\nfrom-b-\(i)\n"), a.plainOutput + b.plainOutput)
        }
        a.type("\u{4}")
        b.type("\u{4}")
        XCTAssertNotNil(a.waitExit())
        XCTAssertNotNil(b.waitExit())
        let kept = Set(HistoryFile(path: path, limit: 1000).load())
        for i in 0..<15 {
            XCTAssertTrue(kept.contains("echo from-a-\(i)"), "\(i)")
            XCTAssertTrue(kept.contains("echo from-b-\(i)"), "\(i)")
        }
    }

    /// A full disk: the entry is not kept, the file is not cut, and the REPL says so once.
    func test_aFullDiskIsSaidOnce() throws {
        let dir = NSTemporaryDirectory() + "vow-hist-full-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard try runCommand("mount", ["-t", "tmpfs", "-o", "size=4k", "tmpfs", dir]).status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (not root)")
        }
        defer { _ = try? runCommand("umount", [dir]) }
        // Fill it to the brim.
        _ = try runCommand("sh", ["-c", "cat /dev/zero > \(dir)/filler 2>/dev/null"])
        let t = try PseudoTerminal(REPLTests.binary, [], environment: ["VOW_HISTORY": dir + "/h"])
        XCTAssertTrue(t.waitFor("vow> "))
        Thread.sleep(forTimeInterval: 0.1)
        t.type("echo one\r")
        XCTAssertTrue(t.waitFor("\none\n"), t.plainOutput)
        t.type("echo two\r")
        XCTAssertTrue(t.waitFor("\ntwo\n"), t.plainOutput)
        t.type("\u{4}")
        XCTAssertNotNil(t.waitExit())
        let said = t.plainOutput.components(separatedBy: "the history cannot be saved").count - 1
        XCTAssertEqual(said, 1, t.plainOutput)
        XCTAssertTrue(t.plainOutput.contains("no space left on device"), t.plainOutput)
    }

    /// `VOW_HISTORY=/dev/null` turns the history off: the device is written to and left as it
    /// was (the history once made it 0600, as it makes its own file). A null device (1, 3) of the
    /// test's own, so that the system's is never at stake.
    func test_aDeviceAsTheHistoryKeepsItsMode() throws {
        let device = NSTemporaryDirectory() + "vow-null-\(UUID().uuidString)"
        guard mknod(device, S_IFCHR | 0o644, dev_t(1 << 8 | 3)) == 0 else { throw XCTSkip("making a device needs root") }
        defer { unlink(device) }
        let file = HistoryFile(path: device, limit: 10)
        XCTAssertNil(file.append("echo 1"))
        var info = stat()
        XCTAssertEqual(stat(device, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR)
        XCTAssertEqual(info.st_mode & 0o7777, 0o644, "the device's mode is left as it was")
        // A file of its own is private.
        XCTAssertNil(HistoryFile(path: path, limit: 10).append("echo 2"))
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
    }
}
