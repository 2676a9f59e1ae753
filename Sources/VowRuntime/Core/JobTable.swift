import Foundation
import VowPromises
import VowValue

/// A background job: `pipeline &`.
public struct Job: Sendable {
    /// Its number: `%N`.
    public let id: Int
    /// The statement's text.
    public let statement: String
    /// Its promise (the statement's last stage).
    public let promise: Promise<Value>
    /// When it started.
    public let started: Date
    /// When it settled, once it has.
    public var settled: Date?
    /// True once its settlement has been reported.
    public var reported: Bool = false

    /// `pending`, `fulfilled`, `rejected` or `cancelled`.
    public var state: String {
        switch promise.result {
        case nil: return "pending"
        case .success?: return "fulfilled"
        case .failure(let e)?:
            if let v = e as? VowError, v.kind == .cancelled { return "cancelled" }
            if e is PromiseCancelledError { return "cancelled" }
            return "rejected"
        }
    }
}

/// The session's jobs, numbered from 1. Thread-safe.
public final class JobTable: Sendable {
    private let state = Locked((jobs: [Int: Job](), next: 1))

    /// Adds a job for `promise` and returns its number.
    public func add(statement: String, promise: Promise<Value>) -> Int {
        // `%N | …` chains on the job's promise: cancelling that statement must not cancel the job.
        promise.holdAgainstCancellation()
        return state.withLock { s in
            let id = s.next
            s.next += 1
            s.jobs[id] = Job(id: id, statement: statement, promise: promise, started: Date())
            return id
        }
    }

    /// The job numbered `id`.
    public func job(_ id: Int) -> Job? { state.withLock { $0.jobs[id] } }

    /// Every job, by number.
    public var all: [Job] { state.withLock { s in s.jobs.keys.sorted().map { s.jobs[$0]! } } }

    /// The number of jobs still pending.
    public var pendingCount: Int { state.withLock { s in s.jobs.values.filter { $0.promise.isPending }.count } }

    /// Marks a job settled (and optionally reported).
    public func markSettled(_ id: Int, reported: Bool) {
        state.withLock { s in
            if s.jobs[id]?.settled == nil { s.jobs[id]?.settled = Date() }
            if reported { s.jobs[id]?.reported = true }
        }
    }
}

/// A job handle as a value: `%N` prints as `<job %N state>`.
public struct JobHandle: OpaqueValue {
    /// The job's number.
    public let id: Int
    /// The job's state when the handle was made.
    public let state: String
    /// `job`.
    public var typeName: String { "job" }
    /// `<job %2 pending>`.
    public var displayText: String { "<job %\(id) \(state)>" }
}
