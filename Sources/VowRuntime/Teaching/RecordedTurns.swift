import VowPromises
import VowValue

/// A recorded run, turn by turn: the job each turn ran (which handler, of which promise), what it
/// settled, adopted, printed and queued, and the queues after it. Built from a tracer's events
/// (`Tracer.entries`); `vow --turns`, `:step` and the page of `--html` show it.
public struct RecordedTurns: Sendable {
    /// One turn: a job of the event loop, or (turn 0) what ran before the first job.
    public struct Turn: Sendable {
        /// 0 for the start (the synchronous part), then 1, 2, … in the order jobs ran.
        public let number: Int
        /// The job's number (as `job` in a trace), 0 for the start.
        public let job: Int
        /// True when the job was a task (a timer's callback, an I/O outcome), not a microtask.
        public let isTask: Bool
        /// True for vow's own bookkeeping (an observer waiting for a statement's result, a step
        /// of the runner): a turn JavaScript's twin does not take. Not numbered.
        public let isInternal: Bool
        /// What the turn ran, in a sentence.
        public let title: String
        /// What happened in it, in order: settlements, adoptions, output, jobs queued.
        public var happened: [String] = []
        /// The microtasks waiting after it, oldest first.
        public var microtasks: [String] = []
        /// The tasks waiting after it (timers that fired, I/O that arrived).
        public var tasks: [String] = []
        /// Sources still pending after it (timers, requests, processes not yet settled).
        public var waiting: [String] = []
        /// The promises the job ran for: the one whose handler it ran or that it adopts for or
        /// settles, or for a combinator's reaction the combinators waiting on its input; empty for
        /// the start, a timer's or I/O's callback and vow's own steps.
        public var ranFor: [Int] = []
        /// The promises made in it, oldest first.
        public var made: [Int] = []
        /// The promises that settled in it, in order.
        public var settled: [Settlement] = []
        /// What the program printed in it, each on one line as `happened` shows it.
        public var printed: [String] = []
    }

    /// A promise that settled in a turn, and how.
    public struct Settlement: Sendable, Equatable {
        /// How a promise settled.
        public enum Outcome: Sendable, Equatable {
            /// It fulfilled.
            case fulfilled
            /// It rejected.
            case rejected
            /// It was cancelled.
            case cancelled
        }
        /// The promise.
        public let id: Int
        /// How it settled.
        public let outcome: Outcome
    }

    /// The turns, the start first.
    public let turns: [Turn]

    /// A promise as a reader knows it: `p3 (print 1)`.
    private struct Known {
        var label: String?
        var state = "pending"
        var parents: [Int] = []
        var name: String?
    }

    /// Builds the turns of `entries` (a tracer's, oldest first).
    public init(_ entries: [Tracer.Entry]) {
        var promises: [Int: Known] = [:]
        var pendingSources = Set<Int>()
        var queued: [(job: Int, text: String, isTask: Bool, isInternal: Bool)] = []
        var turns: [Turn] = [Turn(number: 0, job: 0, isTask: false, isInternal: false, title: "start: the statements begin")]
        var numbered = 0
        // The promises a combinator waits on: its observers of them are the reactions
        // JavaScript's `Promise.all` (or race, any, allSettled) attaches.
        var combinatorsOf: [Int: [Int]] = [:]
        for e in entries {
            if case .created(let id, let parents, let name?, _) = e.event, Self.combinators.contains(name) {
                for p in parents { combinatorsOf[p, default: []].append(id) }
            }
        }
        let combinatorInputs = Set(combinatorsOf.keys)
        // The same job is told the same way when it is queued and when it starts. An observer is
        // the program's turn (a combinator's or `each`'s reaction to an input) unless the job
        // says it is vow's own.
        func isInternal(_ j: PromiseJob) -> Bool {
            j.isOwn || (j.kind == .callback && !j.isTask)
        }

        func label(_ id: Int) -> String {
            guard id != 0 else { return "a promise" }
            if let l = promises[id]?.label { return "p\(id) (\(l))" }
            if let n = promises[id]?.name { return "p\(id) (\(n))" }
            return "p\(id)"
        }
        func describe(_ j: PromiseJob) -> String {
            switch j.kind {
            case .reaction:
                let src = promises[j.source]?.state ?? "settled"
                return "\(label(j.target)): its handler reacts to \(label(j.source)), \(src)"
            case .adoptThen:
                let now = promises[j.source]?.state ?? "pending"
                let then = now == "pending"
                    ? "it is pending, so p\(j.target) settles one turn after it does"
                    : "it is \(now) already, so the turn that settles p\(j.target) is queued now"
                return "\(label(j.target)) attaches to \(label(j.source)) (JavaScript's PromiseResolveThenableJob): \(then)"
            case .adoptSettle:
                let src = promises[j.source]?.state ?? "settled"
                return "\(label(j.target)) settles as \(label(j.source)) did (\(src))"
            case .observer:
                let state = promises[j.source]?.state ?? "settled"
                if j.isOwn { return "vow's observer of \(label(j.source)) (waiting for the result)" }
                return combinatorInputs.contains(j.source)
                    ? "the combinator's reaction to \(label(j.source)), \(state)"
                    : "the stage waiting on \(label(j.source)) reacts to it, \(state)"
            case .callback:
                return j.isTask ? "a timer fired or I/O arrived" : "a step of vow's own (it starts the statements, among others)"
            }
        }
        func short(_ j: PromiseJob) -> String {
            switch j.kind {
            case .reaction: return "\(label(j.target)) reacts to p\(j.source)"
            case .adoptThen: return "\(label(j.target)) adopts p\(j.source)"
            case .adoptSettle: return "\(label(j.target)) settles as p\(j.source)"
            case .observer: return "observer of p\(j.source)"
            case .callback: return j.isTask ? "a timer or I/O callback" : "vow's step"
            }
        }
        func closeTurn() {
            var t = turns.removeLast()
            t.microtasks = queued.filter { !$0.isTask && !$0.isInternal }.map { "j\($0.job) \($0.text)" }
            t.tasks = queued.filter(\.isTask).map { "j\($0.job) \($0.text)" }
            // Only the sources still pending are looked at, so a long run stays linear.
            t.waiting = pendingSources.sorted().compactMap { id in
                guard let p = promises[id], p.state == "pending", p.label != nil || p.name != nil else { return nil }
                return label(id)
            }
            turns.append(t)
        }
        for e in entries {
            switch e.event {
            case .created(let id, let parents, let name, let attributes):
                var k = Known()
                k.parents = parents
                k.name = name
                if let info = attributes as? StageTraceInfo { k.label = VowError.redactingSecrets(info.text) }
                promises[id] = k
                if parents.isEmpty { pendingSources.insert(id) }
                turns[turns.count - 1].made.append(id)
            case .labelled(let id, let attributes):
                if let info = attributes as? StageTraceInfo { promises[id, default: Known()].label = VowError.redactingSecrets(info.text) }
            case .handlerAttached:
                break
            case .fulfilled(let id, let value):
                promises[id, default: Known()].state = "fulfilled"
                pendingSources.remove(id)
                let v = (value as? Value).map { " with " + Self.brief(JSONWriter.compact($0)) }
                    ?? (value as? Tracer.LargeValue).map { " with \($0.description)" } ?? ""
                turns[turns.count - 1].happened.append("\(label(id)) fulfils\(v)")
                turns[turns.count - 1].settled.append(Settlement(id: id, outcome: .fulfilled))
            case .rejected(let id, let error):
                pendingSources.remove(id)
                let e = toVowError(error)
                if e.kind == .cancelled {
                    promises[id, default: Known()].state = "cancelled"
                    turns[turns.count - 1].settled.append(Settlement(id: id, outcome: .cancelled))
                } else {
                    promises[id, default: Known()].state = "rejected"
                    turns[turns.count - 1].happened.append("\(label(id)) rejects: \(Self.brief(e.message))")
                    turns[turns.count - 1].settled.append(Settlement(id: id, outcome: .rejected))
                }
            case .adopted(let id, let adopted):
                let how = promises[adopted]?.state ?? "pending"
                let when = how == "pending"
                    ? "\(label(adopted)) is pending: \(label(id)) attaches to it next turn and settles one turn after it does"
                    : "\(label(adopted)) is \(how) already: \(label(id)) settles two turns from now (one turn to attach, one to settle)"
                turns[turns.count - 1].happened.append("\(label(id)) adopts \(label(adopted)), the promise its handler returned; \(when)")
            case .cancelled(let id):
                turns[turns.count - 1].happened.append("\(label(id)) is cancelled")
            case .jobQueued(let j):
                let vows = isInternal(j)
                queued.append((e.job, short(j), j.isTask, vows))
                if !vows && !j.isTask {
                    // A task is queued from outside the turn (a timer's thread, I/O): not its doing.
                    turns[turns.count - 1].happened.append("queues j\(e.job): \(short(j))")
                }
            case .jobStarted(let j):
                let vows = isInternal(j)
                // The step of vow's own that starts the first statements is the start itself.
                if vows, j.kind == .callback, turns.count == 1, turns[0].happened.isEmpty {
                    queued.removeAll { $0.job == e.job }
                    continue
                }
                // The turn before this one ends with this job still in the queue it shows.
                closeTurn()
                queued.removeAll { $0.job == e.job }
                if !vows { numbered += 1 }
                var turn = Turn(number: vows ? 0 : numbered, job: e.job, isTask: j.isTask, isInternal: vows, title: describe(j))
                if !vows {
                    turn.ranFor = j.kind == .observer ? combinatorsOf[j.source] ?? [] : [j.target].filter { $0 != 0 }
                }
                turns.append(turn)
            case .output(let text):
                var t = text
                if t.hasSuffix("\n") { t.removeLast() }
                turns[turns.count - 1].happened.append("prints \(Self.brief(t))")
                turns[turns.count - 1].printed.append(Self.brief(t))
            }
        }
        closeTurn()
        self.turns = turns
    }

    /// The names of the promises combinators make (`StageDefinition.combinesPromises`).
    public static let combinators = StageRegistry.builtins.namesCombiningPromises

    /// `text` on one line, cut at 60 characters: colours (the terminal's SGR sequences) left
    /// out, other control characters shown as escapes.
    public static func brief(_ text: String) -> String {
        var s = ""
        var scalars = text.unicodeScalars[...]
        while let u = scalars.popFirst() {
            if u == "\u{1B}", scalars.first == "[" {
                let rest = scalars.dropFirst()
                if let m = rest.firstIndex(where: { !("0"..."9").contains($0) && $0 != ";" }), rest[m] == "m" {
                    scalars = rest[rest.index(after: m)...]
                    continue
                }
            }
            switch u {
            case "\n": s += "\\n"
            case "\t": s += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7f || (0x80..<0xa0).contains(u.value) {
                    s += "\\u{\(String(u.value, radix: 16))}"
                } else {
                    s.unicodeScalars.append(u)
                }
            }
        }
        return s.count > 60 ? String(s.prefix(59)) + "…" : s
    }
}
