import Foundation
import TestSupport
import XCTest

@testable import VowRuntime
@testable import VowShell
import VowValue

/// Streams: sources (fetch, run, read, stdin), consumers (each, take, write, the statement's
/// printing, every other stage as a list), backpressure and stopping, against the fixture
/// server's dripping routes and real processes and files.
final class StreamTests: ServerTestCase {
    func test_serverSentEventsArriveAsRecords() throws {
        let before = Self.server.hits("sse-resumed")
        let r = vow(#"fetch "$base/sse?n=5&ms=20&retry=30" --stream | to-json"#)
        XCTAssertEqual(r.status, 0, r.err)
        let events = try XCTUnwrap(try JSON.parse(r.out).listValue)
        XCTAssertEqual(events.count, 5)
        XCTAssertEqual(events[0], ["event": "tick", "id": "1", "data": ["i": 1], "retry": 30] as Value)
        // The server asked to be reconnected to (retry): once the response ended, the client
        // asked again with Last-Event-ID 5, and the server's 204 ended the stream.
        XCTAssertEqual(Self.server.hits("sse-resumed"), before + 1)
        // Two data lines are joined before parsing; data that is not JSON stays text.
        XCTAssertEqual(events[2].recordValue?["data"], ["i": 3, "two": "lines"] as Value)
        XCTAssertEqual(events[3].recordValue?["data"], "plain text")
        XCTAssertEqual(events[4].recordValue?["id"], "5")
    }

    /// A connection that breaks is resumed after `retry` milliseconds with Last-Event-ID: no
    /// event is lost or repeated.
    func test_aBrokenEventStreamIsResumedFromTheLastEventID() {
        let before = Self.server.hits("sse-resumed")
        assertOutput(#"fetch "$base/sse?n=5&ms=5&retry=20&drop=2" --stream | pick '[*].id' | to-json"#, #"["1","2","3","4","5"]"#)
        // Broken after 2 and after 4; ended after 5, then told there is no more (204).
        XCTAssertEqual(Self.server.hits("sse-resumed"), before + 3)
        // Without retry the server did not ask: a broken connection ends the stream with the error.
        let broken = vow(#"fetch "$base/sse?n=5&ms=5&drop=2" --stream | to-json"#)
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.err.contains("error[network]"), broken.err)
        // A server that keeps breaking the connection before any event: vow gives up.
        let stuck = vow(#"fetch "$base/sse?n=5&ms=5&retry=5&drop=2&stuck=1" --stream | to-json"#)
        XCTAssertEqual(stuck.status, 1)
        XCTAssertTrue(stuck.err.contains("closed 6 times in a row without an event"), stuck.err)
    }

    func test_ndjsonValuesAreHandledByEach() {
        assertOutput(#"fetch "$base/ndjson?n=4&ms=20" --stream | each (pick id) | to-json"#, "[1,2,3,4]")
        // Named instead of by Content-Type: the same body as text lines.
        assertOutput(#"fetch "$base/ndjson?n=2&ms=10" --stream text | to-json"#, #"["{\"id\": 1, \"name\": \"item 1\"}","{\"id\": 2, \"name\": \"item 2\"}"]"#)
    }

    func test_takeStopsTheStreamAndTheServerSeesTheConnectionClosed() {
        let before = Self.server.hits("sse-abandoned")
        assertOutput(#"fetch "$base/sse?n=100&ms=100" --stream | take 2 | pick '[*].data' | to-json"#, #"[{"i":1},{"i":2}]"#)
        // The server stops dripping because the client closed the connection, not because the
        // 100 events were sent.
        let deadline = Date().addingTimeInterval(5)
        while Self.server.hits("sse-abandoned") == before && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(Self.server.hits("sse-abandoned"), before + 1)
    }

    func test_theFirstItemIsHandledBeforeTheResponseEnds() {
        // Each item is printed by the statement as it arrives: the first line comes a whole
        // server interval (400 ms) before the second, so long before the response ends.
        let times = VowRuntime.Locked([Date]())
        let status = runVow(
            #"fetch "$base/ndjson?n=3&ms=400" --stream | each (pick id | print)"#, variables: ["base": .string(base)],
            out: { _ in times.withLock { $0.append(Date()) } }, err: { _ in })
        XCTAssertEqual(status, 0)
        let t = times.withLock { $0 }
        XCTAssertGreaterThanOrEqual(t.count, 3)
        XCTAssertGreaterThan(t[2].timeIntervalSince(t[0]), 0.6, "the items were printed as they arrived")
    }

    func test_aStatementPrintsAStreamItemByItem() {
        assertOutput(#"run printf "a\nb\nc\n" --stream"#, "a\nb\nc")
        let r = vow(#"run sh -c "echo 1; echo 2; exit 3" --stream"#)
        XCTAssertEqual(r.out, "1\n2\n")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[process]: sh exited with status 3"), r.err)
    }

    func test_printWritesTheItemsAsTheyArrive() {
        assertOutput(#"run printf "a\nb\n" --stream | print | len"#, "a\nb\n2")
        // With an argument, print gets the list, as every other stage does.
        assertOutput(#"run printf "a\nb\n" --stream | print "{}" | len"#, "[\"a\",\"b\"]\n2")
    }

    func test_otherStagesGetTheItemsAsAList() {
        assertOutput(#"run printf "x\ny\n" --stream | len"#, "2")
        assertOutput(#"run printf "1\n2\n" --stream | pick '[1]'"#, "2")
    }

    func test_writeWritesALinePerItem() throws {
        let path = NSTemporaryDirectory() + "vow-stream-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        assertOutput(#"fetch "$base/ndjson?n=3&ms=10" --stream | write "\#(path)" | to-json"#, "3")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines, [#"{"id":1,"name":"item 1"}"#, #"{"id":2,"name":"item 2"}"#, #"{"id":3,"name":"item 3"}"#])
    }

    func test_aStreamOverALargeFileRunsInBoundedMemory() throws {
        let path = NSTemporaryDirectory() + "vow-stream-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        let padding = String(repeating: "x", count: 200)
        for block in 0..<200 {
            var text = ""
            for i in 0..<1000 { text += #"{"id": \#(block * 1000 + i), "pad": "\#(padding)"}"# + "\n" }
            handle.write(Data(text.utf8))
        }
        try handle.close()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThan(size, 40_000_000)
        let baseline = Self.residentBytes()
        let peak = VowRuntime.Locked(baseline)
        let sampling = VowRuntime.Locked(true)
        let sampler = Thread {
            while sampling.withLock({ $0 }) {
                let now = StreamTests.residentBytes()
                peak.withLock { $0 = max($0, now) }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        sampler.start()
        let r = vow("read \(path) --stream | each (json | pick id) | len")
        sampling.withLock { $0 = false }
        XCTAssertEqual(r.out, "200000\n", r.err)
        let growth = peak.withLock { $0 } - baseline
        XCTAssertLessThan(growth, size / 2, "peak growth \(growth) bytes for a file of \(size)")
    }

    func test_readAndStdinErrorsAreNamed() {
        let r = vow("read /nonexistent/file --stream | len")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[io]: cannot read /nonexistent/file: no such file or directory"), r.err)
    }

    func test_aRejectionInEachStopsTheProcess() throws {
        let marker = "vow-stream-\(UUID().uuidString.prefix(8))"
        let r = vow(#"run sh -c ': \#(marker); i=0; while true; do i=$((i+1)); echo $i; done' --stream | each (then reject "no {}")"#)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[user]: no 1"), r.err)
        // The endless process was killed, not left running.
        try assertNoProcess(marker)
    }

    /// `timeout` bounds a stream too: one still running at the deadline ends with the timeout
    /// error, located at `timeout`, after the items that came in time, and its process is
    /// killed. In JavaScript mode the stream runs on, as the twin's does.
    func test_timeoutEndsAStreamThatOutlivesItAndStopsItsSource() throws {
        let marker = "vow-stream-\(UUID().uuidString.prefix(8))"
        let r = vow(#"run sh -c ': \#(marker); i=0; while true; do i=$((i+1)); echo $i; sleep 0.05; done' --stream | timeout 300ms | each print"#)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[timeout]: timed out after 300ms"), r.err)
        XCTAssertTrue(r.err.contains("skipped: each print"), r.err)
        XCTAssertTrue(r.out.hasPrefix("1\n2\n"), r.out)
        try assertNoProcess(marker)
        // A stream that ends in time is not cut.
        assertOutput(#"run printf 'a\nb\n' --stream | timeout 2s | to-json"#, #"["a","b"]"#)
        let js = runVow(#"run sh -c 'for i in 1 2 3; do echo $i; sleep 0.05; done' --stream | timeout 60ms | len"#, javaScript: true)
        XCTAssertEqual(js.out, "3\n", js.err)
    }

    func test_aFailingStatusRejectsBeforeAnyItem() {
        let r = vow(#"fetch "$base/status/503" --stream"#)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[http]: 503"), r.err)
    }

    /// The process's resident size.
    static func residentBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        return (Int(s.split(separator: " ")[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    // MARK: The twin

    /// A stream in the twin is an async iterable: the sources are async generators, `each` and
    /// `take` read them with `for await`, any other stage gets the items collected, and a
    /// statement prints them one by one. node running the twin prints what `vow --js` prints.
    func test_theTwinsStreamsPrintWhatVowPrints() throws {
        let file = NSTemporaryDirectory() + "vow-twin-stream-\(UUID().uuidString).txt"
        try "alpha\nbeta\r\ngamma".write(toFile: file, atomically: true, encoding: .utf8)
        defer { for f in [file, file + ".out", file + ".json"] { try? FileManager.default.removeItem(atPath: f) } }
        let program = """
            fetch "\(base)/sse?n=4&ms=10" --stream | each pick data | to-json
            fetch "\(base)/sse?n=5&ms=10" --stream | to-json
            fetch "\(base)/ndjson?n=3&ms=10" --stream | each (pick id) | to-json
            fetch "\(base)/ndjson?n=2&ms=10" --stream text | len
            fetch "\(base)/sse?n=100&ms=50" --stream | take 2 | pick '[*].id' | to-json
            read \(file) --stream | each format "<{}>" | to-json
            read \(file) --stream
            read \(file) | lines | len
            run printf 'a\\nb\\n' --stream | print | len
            run printf 'w1\\nw2\\n' --stream | write \(file).out | then read \(file).out | lines | to-json
            echo {a: [1, 2]} | write \(file).json | then read \(file).json | json | pick a | to-json
            run seq 1 1000000000 --stream | take 2 | to-json
            run sh -c 'echo partial; exit 4' --stream | each print | catch pick message
            echo 5 | each len | catch pick message
            env VOW_SURELY_UNSET_VARIABLE | to-json
            run seq 1 1000000000 --stream | where "to_number(@) > `15`" | take 2 | to-json
            echo [{n: 1}, {n: 5}] | where 'n > `2`' | to-json
            """
        let vowRun = runVow(program, javaScript: true)
        XCTAssertEqual(vowRun.status, 0, vowRun.err)
        XCTAssertEqual(vowRun.out.split(separator: "\n").count, 22, vowRun.out)
        let node = try runTwin(program, name: "streams")
        XCTAssertEqual(node.out, vowRun.out)
        XCTAssertEqual(node.status, 0)
    }

    /// Asserts that no process whose command line holds `marker` is left (within 2 s).
    func assertNoProcess(_ marker: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var left = ""
        for _ in 0..<40 {
            left = try runCommand("pgrep", ["-f", marker]).out
            if left.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertEqual(left, "", "the process still runs", file: file, line: line)
    }
}
