import Foundation
import VowPromises
import VowValue
import VowHTTP

/// Records promise events through the promise core's observer hook: in memory (for `:timeline`)
/// and, optionally, as JSON Lines to a file (`--trace FILE`, `:trace on`). docs/trace-format.md
/// documents the lines.
///
/// Sendable: all it records is in `state`, touched only under its lock; `origin` and `memoryLimit`
/// never change.
public final class Tracer: PromiseObserver, @unchecked Sendable {
    /// One recorded event and its time in microseconds since the tracer started.
    public struct Entry: Sendable {
        /// Microseconds since the tracer started (monotonic).
        public let micros: UInt64
        /// The event.
        public let event: PromiseEvent
        /// For `jobQueued` and `jobStarted`: the job's number, counting from 1 in the order
        /// jobs were queued (the same number in both events of one job); 0 otherwise.
        public let job: Int
        /// Counts the events recorded, from 0 (`since(_:)` finds a mark's events by it).
        let sequence: Int
    }

    /// A point in the record, from `mark()`: `since(_:)` returns the events recorded after it.
    public struct Mark: Sendable {
        let sequence: Int
        let nextJob: Int
    }

    /// What a large value of an earlier statement is kept as when `condensesEarlier` is set: a
    /// sentence that says what it was (`a list of 5000 items`).
    public struct LargeValue: Sendable, CustomStringConvertible {
        /// The sentence.
        public let description: String
    }

    private struct State {
        var entries: [Entry] = []
        var file: FileHandle?
        var path: String?
        /// The numbers of the jobs queued and not yet started.
        var queuedJobs: [ObjectIdentifier: Int] = [:]
        var nextJob = 1
        var keepsWholeRun = false
        var condensesEarlier = false
        /// How many items of streams the batches kept whole hold, in this statement.
        var batchItemsKept = 0
        var sparesLargeWork = false
        var wantsEveryPromise = false

        /// Tells the promise core whether large work may go unrecorded now.
        func apply() {
            PromiseObservation.sparesLargeWork = sparesLargeWork && file == nil && !wantsEveryPromise
        }
        /// The events of the statements before the current one, when the whole run is kept.
        var earlier: [Entry] = []
        var sequence = 0
    }

    private let state = Locked(State())
    private let origin = DispatchTime.now().uptimeNanoseconds
    /// Keep at most this many events in memory (the oldest are dropped).
    let memoryLimit = 200_000

    /// Where the values of the statements before are condensed (`condensesEarlier`), a
    /// statement's own events after its first this many are too: a fan-out in the REPL kept
    /// every response it fetched until the next statement (153 MB for 20,000 responses where
    /// a script keeps 31 MB), and a chart of so many events shows none of their values.
    static let keptWhole = 10_000

    /// A tracer that only records in memory.
    public init() {}

    /// Starts writing JSON Lines to `path` (truncating it); throws when it cannot be created.
    public func startFile(_ path: String) throws {
        // Opened where it is, truncated: the events go to it as they happen, and a device
        // (`--trace /dev/null`, `/dev/stderr`) is written through. (Foundation's createFile
        // writes a new file and renames it over the name, which replaced the device itself.)
        let fd = open(FileName.system(path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw VowError(.io, "cannot create the trace file \(path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        state.withLock {
            try? $0.file?.close()
            $0.file = handle
            $0.path = path
            $0.apply()
        }
    }

    /// Stops writing to the file; returns its path.
    @discardableResult
    public func stopFile() -> String? {
        state.withLock { s in
            try? s.file?.synchronize()
            try? s.file?.close()
            s.file = nil
            let path = s.path
            s.path = nil
            s.apply()
            return path
        }
    }

    /// Forgets the events kept in memory (at the start of each statement); jobs are numbered
    /// from 1 again. When the whole run is kept, the events are set aside for `wholeRun` instead
    /// and the numbering goes on.
    public func clearMemory() {
        state.withLock { s in
            if s.keepsWholeRun {
                if s.earlier.count + s.entries.count > memoryLimit { s.earlier.removeFirst(min(s.earlier.count, s.entries.count)) }
                s.earlier += s.condensesEarlier ? s.entries.map(Self.condensed) : s.entries
            } else {
                s.nextJob = 1
            }
            s.entries.removeAll(keepingCapacity: true)
            s.batchItemsKept = 0
        }
    }

    /// Forgets every event kept so far, the whole run's included, and numbers jobs from 1 again.
    public func forgetAll() {
        state.withLock { s in
            s.entries.removeAll(keepingCapacity: true)
            s.earlier.removeAll()
            s.nextJob = 1
        }
    }

    /// The events of every statement of the run so far (`entries` holds the last statement's
    /// only), when `keepsWholeRun` was set before the run.
    public var wholeRun: [Entry] { state.withLock { $0.earlier + $0.entries } }

    /// The point the record has reached: `since(_:)` returns what is recorded after it. Set
    /// `keepsWholeRun` first, so that the jobs' numbering goes on across statements.
    public func mark() -> Mark {
        state.withLock { Mark(sequence: $0.sequence, nextJob: $0.nextJob) }
    }

    /// The events of the whole run recorded after `mark` (as many as are still kept), their jobs
    /// numbered from 1 at the mark, as if the record had started there (a job queued before it
    /// has number 0).
    public func since(_ mark: Mark) -> [Entry] {
        let base = mark.nextJob - 1
        return Self.numberedFromOne(wholeRun.filter { $0.sequence >= mark.sequence }.map { e in
            Entry(micros: e.micros, event: e.event, job: e.job > base ? e.job - base : 0, sequence: e.sequence)
        })
    }

    /// `entries` with their promises numbered from p1, in the order they were made, as a view
    /// of one statement or one run shows them however many promises the session made before
    /// (`:step` after `:load` starts at p1, not p35). A promise made before them (an earlier
    /// statement's `let`) is 0: "a promise".
    public static func numberedFromOne(_ entries: [Entry]) -> [Entry] {
        var first = Int.max
        for e in entries { if case .created(let id, _, _, _) = e.event, id > 0 { first = min(first, id) } }
        guard first != Int.max, first > 1 else { return entries }
        let base = first - 1
        func n(_ id: Int) -> Int { id > base ? id - base : 0 }
        return entries.map { e in
            let event: PromiseEvent
            switch e.event {
            case .created(let id, let parents, let name, let attributes): event = .created(id: n(id), parents: parents.map(n), name: name, attributes: attributes)
            case .handlerAttached(let id, let child): event = .handlerAttached(id: n(id), child: n(child))
            case .fulfilled(let id, let value): event = .fulfilled(id: n(id), value: value)
            case .rejected(let id, let error): event = .rejected(id: n(id), error: error)
            case .adopted(let id, let adopted, let state): event = .adopted(id: n(id), adopted: n(adopted), adoptedState: state)
            case .cancelled(let id): event = .cancelled(id: n(id))
            case .timerSet(let id, let ms): event = .timerSet(id: n(id), milliseconds: ms)
            case .labelled(let id, let attributes): event = .labelled(id: n(id), attributes: attributes)
            case .jobQueued(let j): event = .jobQueued(PromiseJob(key: j.key, kind: j.kind, source: n(j.source), target: n(j.target), isTask: j.isTask, isOwn: j.isOwn))
            case .jobStarted(let j): event = .jobStarted(PromiseJob(key: j.key, kind: j.kind, source: n(j.source), target: n(j.target), isTask: j.isTask, isOwn: j.isOwn))
            default: event = e.event
            }
            return Entry(micros: e.micros, event: event, job: e.job, sequence: e.sequence)
        }
    }

    /// When true, the values of the statements `clearMemory` sets aside are kept only when they
    /// are small, and otherwise as a `LargeValue` that says what they were: the REPL keeps the
    /// events of the whole session (for `:timeline --turns`) without keeping every large
    /// document it fetched alive.
    public var condensesEarlier: Bool {
        get { state.withLock { $0.condensesEarlier } }
        set { state.withLock { $0.condensesEarlier = newValue } }
    }

    /// `e` with a large value left out (`condensesEarlier`).
    static func condensed(_ e: Entry) -> Entry {
        // A batch of a stream's items (`next`) is a list of them.
        guard case .fulfilled(let id, let value) = e.event, let v = (value as? Value) ?? (value as? [Value]).map(Value.list),
            let what = largeValue(v)
        else { return e }
        return Entry(micros: e.micros, event: .fulfilled(id: id, value: LargeValue(description: what)), job: e.job, sequence: e.sequence)
    }

    /// Nil when `v` is small (at most 256 parts, no string or bytes longer than 1024, no
    /// response or opaque value such as a stream), else what it is in a few words. Looks at no more than 256 parts, so a large value costs no more than
    /// a small one.
    static func largeValue(_ v: Value) -> String? {
        var budget = 256
        func small(_ v: Value) -> Bool {
            budget -= 1
            guard budget >= 0 else { return false }
            switch v {
            case .string(let s): return s.utf8.count <= 1024
            case .bytes(let b): return b.count <= 1024
            case .list(let l): return l.count <= budget && l.allSatisfy(small)
            case .record(let r): return r.count <= budget && r.values.allSatisfy(small)
            case .response, .opaque: return false
            default: return true
            }
        }
        if small(v) { return nil }
        switch v {
        case .string(let s): return "a string of \(s.count) characters"
        case .bytes(let b): return "\(b.count) bytes"
        case .list(let l): return "a list of \(l.count) items"
        case .record(let r): return "a record of \(r.count) keys"
        case .response: return "a response"
        case .opaque(let o): return "a " + o.typeName
        default: return "a large value"
        }
    }

    /// When true, work too large to be drawn (over `PromiseObservation.smallWork` items) runs as
    /// it would with no observer, making no promise an item, and is noted (`UnrecordedWork`):
    /// the REPL records every statement for `:timeline`, and a large one should run as fast
    /// there as in a script. Not while a trace file is written or `wantsEveryPromise`.
    public var sparesLargeWork: Bool {
        get { state.withLock { $0.sparesLargeWork } }
        set { state.withLock { $0.sparesLargeWork = newValue; $0.apply() } }
    }

    /// When true, every promise is recorded even where `sparesLargeWork` (`:step`, which shows
    /// each turn).
    public var wantsEveryPromise: Bool {
        get { state.withLock { $0.wantsEveryPromise } }
        set { state.withLock { $0.wantsEveryPromise = newValue; $0.apply() } }
    }

    /// When true, `clearMemory` sets the events it forgets aside for `wholeRun` and the jobs'
    /// numbering goes on across statements (`vow --html`).
    public var keepsWholeRun: Bool {
        get { state.withLock { $0.keepsWholeRun } }
        set { state.withLock { $0.keepsWholeRun = newValue } }
    }

    /// The events kept in memory.
    public var entries: [Entry] { state.withLock { $0.entries } }

    /// Receives one event from the promise core.
    public func promiseEvent(_ event: PromiseEvent) {
        let micros = (DispatchTime.now().uptimeNanoseconds &- origin) / 1000
        state.withLock { s in
            var job = 0
            switch event {
            case .jobQueued(let j):
                job = s.nextJob
                s.nextJob += 1
                s.queuedJobs[j.key] = job
            case .jobStarted(let j):
                if let n = s.queuedJobs.removeValue(forKey: j.key) {
                    job = n
                } else {
                    job = s.nextJob
                    s.nextJob += 1
                }
            default: break
            }
            var entry = Entry(micros: micros, event: event, job: job, sequence: s.sequence)
            if s.condensesEarlier, s.entries.count >= Self.keptWhole { entry = Self.condensed(entry) }
            // The batches of a stream's items (`ValueStream.next`) past its first `smallWork`
            // items are kept as sentences: a stream of 200,000 lines is a few hundred events,
            // and kept whole they kept every line until the next statement.
            if s.condensesEarlier, case .fulfilled(let id, let batch as [Value]) = entry.event {
                if s.batchItemsKept + batch.count > PromiseObservation.smallWork {
                    entry = Entry(
                        micros: micros, event: .fulfilled(id: id, value: LargeValue(description: "a list of \(batch.count) items")),
                        job: job, sequence: entry.sequence)
                } else {
                    s.batchItemsKept += batch.count
                }
            }
            s.sequence += 1
            if s.entries.count >= memoryLimit { s.entries.removeFirst(s.entries.count / 2) }
            s.entries.append(entry)
            if let file = s.file {
                file.write(Data((JSONWriter.compact(.record(Self.record(entry))) + "\n").utf8))
            }
        }
    }

    /// The stage fields of a stage promise: its name, text (secrets masked) and position.
    static func addStage(_ attributes: (any Sendable)?, to r: inout Record) {
        guard let info = attributes as? StageTraceInfo else { return }
        r["stage"] = .string(info.stage)
        r["text"] = .string(VowError.redactingSecrets(info.text))
        r["line"] = .int(info.line)
        r["column"] = .int(info.column)
    }

    /// The trace line of an entry (see docs/trace-format.md).
    public static func record(_ e: Entry) -> Record {
        var r: Record = ["t": .int(Int(e.micros))]
        switch e.event {
        case .created(let id, let parents, let name, let attributes):
            r["event"] = "created"
            r["id"] = .int(id)
            r["parents"] = .list(parents.map { .int($0) })
            r["name"] = name.map { .string($0) } ?? .null
            addStage(attributes, to: &r)
        case .handlerAttached(let id, let child):
            r["event"] = "handler-attached"
            r["id"] = .int(id)
            r["child"] = .int(child)
        case .fulfilled(let id, let value):
            r["event"] = "fulfilled"
            r["id"] = .int(id)
            var v: Value = (value as? Value) ?? .string(String(describing: value))
            if case .response(let r) = v, case .record(var response) = v.toJSONValue() {
                // Cookies a server sets are secrets too.
                response["headers"] = .record(r.headerRecord(redacting: isSecretHeader))
                v = .record(response)
            }
            let text = JSONWriter.compact(v)
            if text.count > 200 {
                r["value"] = .string(String(text.prefix(199)) + "…")
                r["truncated"] = true
            } else {
                r["value"] = v.toJSONValue()
            }
        case .rejected(let id, let error):
            r["event"] = "rejected"
            r["id"] = .int(id)
            let e = toVowError(error)
            r["error"] = ["kind": .string(e.kind.rawValue), "message": .string(e.message)]
        case .adopted(let id, let adopted, _):
            r["event"] = "adopted"
            r["id"] = .int(id)
            r["adopted"] = .int(adopted)
        case .cancelled(let id):
            r["event"] = "cancelled"
            r["id"] = .int(id)
        case .timerSet(let id, let ms):
            r["event"] = "timer-set"
            r["id"] = .int(id)
            r["ms"] = ms == ms.rounded() ? .int(Int(ms)) : .double(ms)
        case .labelled(let id, let attributes):
            r["event"] = "labelled"
            r["id"] = .int(id)
            addStage(attributes, to: &r)
        case .jobQueued(let j), .jobStarted(let j):
            if case .jobQueued = e.event { r["event"] = "job-queued" } else { r["event"] = "job-started" }
            r["job"] = .int(e.job)
            r["kind"] = .string(j.kind.rawValue)
            r["task"] = .bool(j.isTask)
            if j.source != 0 { r["source"] = .int(j.source) }
            if j.target != 0 { r["target"] = .int(j.target) }
            if j.isOwn { r["own"] = .bool(true) }
        case .output(let text):
            r["event"] = "output"
            r["text"] = .string(text)
        }
        return r
    }
}
