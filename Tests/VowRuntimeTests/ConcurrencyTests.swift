// The runtime's thread-safe parts, used from many threads at once. These tests check results;
// under ThreadSanitizer (scripts/sanitize thread) they also prove the locking.
import Dispatch
import VowPromises
import VowSyntax
import VowValue
import XCTest

@testable import VowRuntime

/// Collects a session's output.
private final class Collected: Sendable {
    let text = Locked("")
    func append(_ s: String) { text.withLock { $0 += s } }
    var value: String { text.withLock { $0 } }
}

/// Starts `source`, one pipeline, in `session` and waits for its outcome from this thread.
private func settle(_ source: String, in session: Session) throws -> Result<Value, any Error> {
    let text = SourceText(source, name: "<test>")
    let program = try Parser.parse(text)
    guard case .pipeline(let promise, _) = StatementStarter(session: session).start(program.statements[0], in: text) else {
        throw VowError(.syntax, "not a pipeline")
    }
    let done = DispatchSemaphore(value: 0)
    promise.whenSettled { _ in done.signal() }
    done.wait()
    return promise.result!
}

/// Starts every statement of `source` in `session` and returns what the pipelines settle with,
/// in order.
private func runStatements(_ source: String, in session: Session) async throws -> [Result<Value, any Error>] {
    let text = SourceText(source, name: "<test>")
    let program = try Parser.parse(text)
    let interpreter = StatementStarter(session: session)
    XCTAssertTrue(interpreter.check(program).isEmpty, "\(interpreter.check(program))")
    var results: [Result<Value, any Error>] = []
    for statement in program.statements {
        if case .pipeline(let promise, _) = interpreter.start(statement, in: text) {
            do { results.append(.success(try await promise.value)) } catch { results.append(.failure(error)) }
        }
    }
    return results
}

final class ConcurrencyTests: XCTestCase {
    func test_sessionsOnManyThreadsEachGetTheirOwnResults() {
        let count = 16
        let outcomes = Locked([Int: String]())
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let session = Session(output: OutputSink { _ in })
            let r = try? settle("echo [\(i), 1, 2] | each (delay 1ms | then format \"<{}>\") --limit 2 | to-json", in: session)
            if case .success(.string(let s))? = r { outcomes.withLock { $0[i] = s } }
            session.close()
        }
        let got = outcomes.withLock { $0 }
        XCTAssertEqual(got.count, count)
        for i in 0..<count { XCTAssertEqual(got[i], "[\"<\(i)>\",\"<1>\",\"<2>\"]") }
    }

    func test_outputSinkKeepsEachPieceWhole() {
        let out = Collected()
        let sink = OutputSink(out.append)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in 0..<200 { sink.emit("<\(t):\(i)>\n") }
        }
        let lines = out.value.split(separator: "\n")
        XCTAssertEqual(lines.count, 1600)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("<") && $0.hasSuffix(">") && $0.dropFirst().allSatisfy { $0 != "<" } })
        XCTAssertEqual(Set(lines).count, 1600)
    }

    func test_jobTableNumbersJobsUniquelyFromManyThreads() {
        let table = JobTable()
        let ids = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in 0..<50 {
                let id = table.add(statement: "job \(t).\(i)", promise: Promise.resolve(.int(i)))
                ids.withLock { $0.append(id) }
                _ = table.all.count
                table.markSettled(id, reported: i % 2 == 0)
            }
        }
        XCTAssertEqual(ids.withLock { $0.sorted() }, Array(1...400))
        XCTAssertEqual(table.all.map(\.id), Array(1...400))
        XCTAssertEqual(table.pendingCount, 0)
        XCTAssertEqual(table.all.filter(\.reported).count, 200)
    }

    func test_closeCancelsWhatTheSessionStillHasPending() async throws {
        let session = Session(output: OutputSink { _ in })
        let text = SourceText("let slow = delay 1h 1\ndelay 1h 2 &\nlet quick = echo 3", name: "<test>")
        let interpreter = StatementStarter(session: session)
        let started = interpreter.start(try Parser.parse(text).statements, in: text)
        guard case .job(_, let job, _) = started[1] else { return XCTFail("\(started[1])") }
        let slow = session.onExecutor { session.globals["slow"] }
        guard case .promise(let bound)? = slow else { return XCTFail("slow is not a promise") }
        XCTAssertTrue(bound.isPending)
        XCTAssertTrue(job.isPending)
        session.close()
        XCTAssertFalse(bound.isPending)
        XCTAssertFalse(job.isPending)
        for p in [bound, job] {
            do {
                _ = try await p.value
                XCTFail("a pending promise fulfilled after close")
            } catch {
                XCTAssertEqual(toVowError(error).kind, .cancelled, "\(error)")
            }
        }
        // What had settled keeps its value; new requests reject.
        guard case .promise(let quick)? = session.onExecutor({ session.globals["quick"] }) else { return XCTFail() }
        let value = try await quick.value
        XCTAssertEqual(value, .int(3))
    }

    func test_closeCancelsAPromiseWhoseNameWasBoundAgain() throws {
        let session = Session(output: OutputSink { _ in })
        let first = SourceText("let v = delay 1h 1 | then echo 2", name: "<test>")
        _ = StatementStarter(session: session).start(try Parser.parse(first).statements, in: first)
        guard case .promise(let firstPromise)? = session.onExecutor({ session.globals["v"] }) else { return XCTFail("v is not a promise") }
        let second = SourceText("let v = 2", name: "<test>")
        _ = StatementStarter(session: session).start(try Parser.parse(second).statements, in: second)
        session.onExecutor {}
        XCTAssertTrue(firstPromise.isPending, "rebinding does not cancel: the first promise runs on")
        session.close()
        guard case .failure(let e)? = firstPromise.result else { return XCTFail("still pending after close") }
        XCTAssertEqual(toVowError(e).kind, .cancelled, "\(e)")
    }

    func test_closeReturnsAfterTheHandlersTheCancellationSetOff() throws {
        let printed = Locked("")
        let session = Session(output: OutputSink { _ in })
        let text = SourceText("let slow = delay 1h 1", name: "<test>")
        _ = StatementStarter(session: session).start(try Parser.parse(text).statements, in: text)
        guard case .promise(let slow)? = session.onExecutor({ session.globals["slow"] }) else { return XCTFail("slow is not a promise") }
        slow.whenSettled(on: session.executor) { r in
            usleep(50_000)
            printed.withLock { $0 += "saw \(r)" }
        }
        XCTAssertEqual(printed.withLock { $0 }, "")
        session.close()
        XCTAssertTrue(printed.withLock { $0 }.hasPrefix("saw failure"), "the handler ran before close returned: \(printed.withLock { $0 })")
    }

    func test_aLetBoundPromiseIsSharedAcrossStatementsStartedFromManyThreads() async throws {
        let session = Session(output: OutputSink { _ in })
        _ = try await runStatements("let base = delay 5ms 10", in: session)
        let sums = try await withThrowingTaskGroup(of: Value.self) { group in
            for i in 0..<20 {
                group.addTask {
                    let r = try await runStatements("$base | then format \"{}+\(i)\"", in: session)
                    return try r[0].get()
                }
            }
            var all: [String] = []
            for try await v in group { if case .string(let s) = v { all.append(s) } }
            return all
        }
        XCTAssertEqual(Set(sums), Set((0..<20).map { "10+\($0)" }))
        session.close()
    }
}
