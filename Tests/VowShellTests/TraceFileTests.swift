import Foundation
@testable import VowRuntime
import XCTest

/// `--trace FILE` writes to FILE where it is: a regular file is truncated and filled as the run
/// goes, and a device or a FIFO is written through, never replaced by a file of that name
/// (`--trace /dev/null` once replaced /dev/null with an empty regular file).
final class TraceFileTests: XCTestCase {
    func test_aFIFOIsWrittenThroughNotReplaced() throws {
        let dir = NSTemporaryDirectory() + "vow-trace-file-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/events"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // The reader: everything the trace writes, until vow closes its end.
        let read = VowRuntime.Locked("")
        let reader = Thread {
            if let h = FileHandle(forReadingAtPath: fifo) {
                let data = h.readDataToEndOfFile()
                read.withLock { $0 = String(decoding: data, as: UTF8.self) }
            }
        }
        reader.start()
        let run = try runCommand(REPLTests.binary, ["--trace", fifo, "-c", "echo 1 | then pick @"])
        XCTAssertEqual(run.out, "1\n")
        for _ in 0..<200 where read.withLock({ $0.isEmpty }) { Thread.sleep(forTimeInterval: 0.01) }
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
        XCTAssertTrue(read.withLock { $0.contains(#""event":"created""#) }, read.withLock { $0 })

        // A regular file is truncated, then holds this run's events only.
        let file = dir + "/trace.jsonl"
        try String(repeating: "old\n", count: 1000).write(toFile: file, atomically: false, encoding: .utf8)
        _ = try runCommand(REPLTests.binary, ["--trace", file, "-c", "echo 2"])
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertFalse(text.contains("old"))
        XCTAssertTrue(text.hasPrefix("{"), text)
    }
}
