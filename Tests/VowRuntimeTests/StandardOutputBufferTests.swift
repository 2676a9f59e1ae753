// Standard output gathered for a pipe, rule by rule: a flush returns only once what was gathered
// before it is written, even when another thread (the timed flush) took it and is still writing.
// The flush before exit relied on that: without it, a value printed just before the end was lost
// and vow exited with status 0 and no output.
import Dispatch
import Foundation
import XCTest

@testable import VowRuntime

final class StandardOutputBufferTests: XCTestCase {
    /// A pipe whose read end does not block: (read end, write end).
    private func pipeEnds() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        return (fds[0], fds[1])
    }

    /// What the pipe holds now.
    private static func readNow(_ fd: Int32) -> String {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buf, buf.count)
        return n > 0 ? String(decoding: buf[..<n], as: UTF8.self) : ""
    }

    func test_aFlushWaitsForTheWriteAnotherThreadHasUnderWay() throws {
        let (readEnd, writeEnd) = try pipeEnds()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let first = Locked(true)
        // The first write stops inside its batch until released: the timed flush caught mid-write.
        let buffer = StandardOutputBuffer(fd: writeEnd) {
            guard first.withLock({ f in defer { f = false }; return f }) else { return }
            entered.signal()
            release.wait()
        }
        buffer.append("ada\n")
        let firstFlushEnded = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            buffer.flush()
            firstFlushEnded.signal()
        }
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success, "the first flush never began its write")
        // The flush before exit, while the first is still writing.
        let seen = Locked<String?>(nil)
        let lastFlushEnded = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            buffer.flush()
            seen.withLock { $0 = Self.readNow(readEnd) }
            lastFlushEnded.signal()
        }
        // It must not return while the text is not written; it would at once if it did not wait.
        XCTAssertEqual(lastFlushEnded.wait(timeout: .now() + .milliseconds(200)), .timedOut, "a flush returned before what was gathered was written")
        release.signal()
        XCTAssertEqual(lastFlushEnded.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(firstFlushEnded.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(seen.withLock { $0 }, "ada\n")
    }

    func test_batchesAreWrittenInTheOrderTheyWereGathered() throws {
        let (readEnd, writeEnd) = try pipeEnds()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let buffer = StandardOutputBuffer(fd: writeEnd)
        let group = DispatchGroup()
        // Writers append numbered lines and flush from many threads at once; each line must come
        // out whole and the lines of one writer in its order.
        for w in 0..<4 {
            DispatchQueue.global().async(group: group) {
                for k in 0..<200 {
                    buffer.append("\(w) \(k)\n")
                    if k % 7 == 0 { buffer.flush() }
                }
            }
        }
        var text = ""
        var done = false
        while !done {
            done = group.wait(timeout: .now() + .milliseconds(1)) == .success
            text += Self.readNow(readEnd)
        }
        buffer.flush()
        while case let more = Self.readNow(readEnd), !more.isEmpty { text += more }
        var next = [Int](repeating: 0, count: 4)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ").compactMap { Int($0) }
            XCTAssertEqual(parts.count, 2, "a broken line: \(line)")
            guard parts.count == 2 else { continue }
            XCTAssertEqual(parts[1], next[parts[0]], "writer \(parts[0]) out of order")
            next[parts[0]] = parts[1] + 1
        }
        XCTAssertEqual(next, [200, 200, 200, 200])
    }
}
