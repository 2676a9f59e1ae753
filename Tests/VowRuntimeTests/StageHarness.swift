// Runs one pipeline in a session of its own, without the shell: what a stage's own tests use to
// hold it to its behaviour (its value, its error and where the error points), as a command's
// tests in other shells call it on a value. No process, no terminal, no printer.
import Foundation
import VowPromises
import VowSyntax
import VowValue
import XCTest

@testable import VowRuntime

/// What one pipeline gave: its value or its error (origin and skipped stages filled in, as the
/// shell reports them), and what its stages printed.
struct StageOutcome {
    /// The value, or the error as reported.
    let result: Result<Value, VowError>
    /// What `print` and the like wrote.
    let printed: String

    /// The value, or a test failure naming the error.
    func value(file: StaticString = #filePath, line: UInt = #line) throws -> Value {
        switch result {
        case .success(let v): return v
        case .failure(let e):
            XCTFail("rejected: \(e.message)", file: file, line: line)
            throw e
        }
    }

    /// The error, or nil when the pipeline fulfilled.
    var error: VowError? {
        if case .failure(let e) = result { return e }
        return nil
    }

    /// The source text the error underlines as the argument at fault, or nil.
    func culprit(in source: String) -> String? {
        guard let o = error?.origin, let a = o.argument else { return nil }
        let bytes = Array(o.statement.utf8)
        return String(decoding: bytes[a], as: UTF8.self)
    }
}

/// Runs `source` (one pipeline) on `input` in a new session and waits for it to settle.
func runStage(_ source: String, input: Value = .null, timeout: TimeInterval = 10) throws -> StageOutcome {
    let printed = Locked("")
    let session = Session(output: OutputSink { s in printed.withLock { $0 += s } })
    let text = SourceText(source)
    let pipeline = try Parser.parsePipeline(text)
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<Result<Value, VowError>?>(nil)
    session.executor.enqueue {
        let scope = Scope(session: session)
        let site = Site(source: text, statement: pipeline.span, context: [])
        let (promise, run) = Evaluator(session: session).pipeline(pipeline, input: input, scope: scope, site: site)
        promise.whenSettled(on: session.executor) { r in
            outcome.withLock {
                $0 = r.mapError { e in
                    var reported = run.annotate(e)
                    if reported.skipped.isEmpty { reported.skipped = run.skipped(after: reported) }
                    return reported
                }
            }
            done.signal()
        }
    }
    guard done.wait(timeout: .now() + timeout) == .success, let result = outcome.withLock({ $0 }) else {
        throw VowError(.timeout, "\(source) did not settle within \(timeout)s")
    }
    return StageOutcome(result: result, printed: printed.withLock { $0 })
}
