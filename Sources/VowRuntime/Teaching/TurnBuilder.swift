import VowPromises
import VowValue

/// Builds `RecordedTurns` from a tracer's events, one event at a time: what each turn ran,
/// settled, adopted, printed and queued.
struct TurnBuilder {
    /// A promise as a reader knows it: `p3 (print 1)`.
    struct Known {
        var label: String?
        var state = "pending"
        var parents: [Int] = []
        var name: String?
    }

    var promises: [Int: Known] = [:]
    var pendingSources = Set<Int>()
    var queued: [(job: Int, text: String, isTask: Bool, isInternal: Bool)] = []
    var turns: [RecordedTurns.Turn] = [RecordedTurns.Turn(number: 0, job: 0, isTask: false, isInternal: false, title: "start: the statements begin")]
    var numbered = 0
    /// The promises whose timers are due: their tasks are queued.
    var dueTimers = Set<Int>()
    /// The timers set (`delay`): the promise each fulfils, its wait and the turn that set it.
    var timers: [(id: Int, ms: Double, turn: Int)] = []
    /// Every promise with the turn it was made in (0: the start), in the order made.
    var made: [(id: Int, turn: Int)] = []
    /// How the promise each adopter took on stood, when that promise was made before the record
    /// began (it has no number of its own: 0).
    var adoptedUnknown: [Int: String] = [:]
    /// The promises a combinator waits on: its observers of them are the reactions
    /// JavaScript's `Promise.all` (or race, any, allSettled) attaches.
    let combinatorsOf: [Int: [Int]]
    let combinatorInputs: Set<Int>

    /// A builder that knows which promises of `entries` combinators wait on.
    init(combinatorsIn entries: [Tracer.Entry]) {
        var combinatorsOf: [Int: [Int]] = [:]
        for e in entries {
            if case .created(let id, let parents, let name?, _) = e.event, RecordedTurns.combinators.contains(name) {
                for p in parents { combinatorsOf[p, default: []].append(id) }
            }
        }
        self.combinatorsOf = combinatorsOf
        self.combinatorInputs = Set(combinatorsOf.keys)
    }

    // The same job is told the same way when it is queued and when it starts. An observer is
    // the program's turn (a combinator's or `each`'s reaction to an input) unless the job
    // says it is vow's own.
    /// True for a job of vow's own, not the program's.
    func isInternal(_ j: PromiseJob) -> Bool {
        j.isOwn || (j.kind == .callback && !j.isTask)
    }

    /// `p3`: a promise as the lines of a turn name it (the legend says what each one is).
    func label(_ id: Int) -> String {
        id == 0 ? "a promise" : "p\(id)"
    }
    /// `p3 (print 1)`, or `p3` when nothing names it: the promise a turn ran for, in its title.
    func fullLabel(_ id: Int) -> String {
        guard id != 0 else { return "a promise" }
        if let l = promises[id]?.label { return "p\(id) (\(l))" }
        if let n = promises[id]?.name { return "p\(id) (\(n))" }
        return "p\(id)"
    }
    /// What the legend says of each promise that has a stage's text or a name, in the order
    /// they were made.
    var legend: [RecordedTurns.LegendEntry] {
        made.compactMap { id, turn in
            guard let p = promises[id], let text = p.label ?? p.name else { return nil }
            return RecordedTurns.LegendEntry(id: id, text: text, madeIn: turn)
        }
    }
    /// A job in words, as the turn it starts is titled.
    func describe(_ j: PromiseJob) -> String {
        switch j.kind {
        case .reaction:
            let src = promises[j.source]?.state ?? "settled"
            return "\(fullLabel(j.target)): its handler reacts to \(label(j.source)), \(src)"
        case .adoptThen:
            let now = promises[j.source]?.state ?? (j.source == 0 ? adoptedUnknown[j.target] : nil) ?? "pending"
            let then = now == "pending"
                ? "it is pending, so p\(j.target) settles one turn after it does"
                : "it is \(now) already, so the turn that settles p\(j.target) is queued now"
            return "\(fullLabel(j.target)) attaches to \(label(j.source)) (JavaScript's PromiseResolveThenableJob): \(then)"
        case .adoptSettle:
            let was = j.source == 0 ? adoptedUnknown[j.target].flatMap { $0 == "pending" ? nil : $0 } : nil
            let src = promises[j.source]?.state ?? was ?? "settled"
            return "\(fullLabel(j.target)) settles as \(label(j.source)) did (\(src))"
        case .thenable:
            return "\(fullLabel(j.target)) calls the then of the thenable it was resolved with (JavaScript's NewPromiseResolveThenableJob): it settles as that then resolves it"
        case .observer:
            let state = promises[j.source]?.state ?? "settled"
            if j.isOwn { return "vow's observer of \(fullLabel(j.source)) (waiting for the result)" }
            return combinatorInputs.contains(j.source)
                ? "the combinator's reaction to \(fullLabel(j.source)), \(state)"
                : "the stage waiting on \(fullLabel(j.source)) reacts to it, \(state)"
        case .callback:
            if j.isTask, j.source != 0 { return "the timer of \(fullLabel(j.source)) fired" }
            return j.isTask ? "a timer fired or I/O arrived" : "a step of vow's own (it starts the statements, among others)"
        }
    }
    /// A job in a few words, as the queues list it.
    func short(_ j: PromiseJob) -> String {
        switch j.kind {
        case .reaction: return "\(label(j.target)) reacts to p\(j.source)"
        case .adoptThen: return "\(label(j.target)) adopts p\(j.source)"
        case .adoptSettle: return "\(label(j.target)) settles as p\(j.source)"
        case .thenable: return "\(label(j.target)) calls a thenable's then"
        case .observer: return "observer of p\(j.source)"
        case .callback:
            if j.isTask, j.source != 0 { return "the timer of \(label(j.source))" }
            return j.isTask ? "a timer or I/O callback" : "vow's step"
        }
    }
    /// Ends the turn under way: the queues as they stand, and the promises still waited on.
    mutating func closeTurn() {
        var t = turns.removeLast()
        t.microtasks = queued.filter { !$0.isTask && !$0.isInternal }.map { "j\($0.job) \($0.text)" }
        t.tasks = queued.filter(\.isTask).map { "j\($0.job) \($0.text)" }
        // Only the timers and sources still pending are looked at, so a long run stays linear.
        timers.removeAll { promises[$0.id]?.state != "pending" || dueTimers.contains($0.id) }
        let timed = Set(timers.map(\.id)).union(dueTimers)
        t.timers = timers.map { tm in
            let ms = tm.ms == tm.ms.rounded() ? String(Int(tm.ms)) : String(tm.ms)
            return "\(label(tm.id)) due \(ms) ms after " + (tm.turn == 0 ? "the start" : "turn \(tm.turn)")
        }
        t.waiting = pendingSources.sorted().compactMap { id in
            guard !timed.contains(id), let p = promises[id], p.state == "pending", p.label != nil || p.name != nil else { return nil }
            return label(id)
        }
        turns.append(t)
    }

    /// Takes one event into the turn it happened in (a job starting closes the turn before it).
    mutating func take(_ e: Tracer.Entry) {
        switch e.event {
        case .created(let id, let parents, let name, let attributes):
            var k = Known()
            k.parents = parents
            k.name = name
            if let info = attributes as? StageTraceInfo { k.label = VowError.redactingSecrets(info.text) }
            promises[id] = k
            if parents.isEmpty { pendingSources.insert(id) }
            turns[turns.count - 1].made.append(id)
            made.append((id, turns[turns.count - 1].number))
        case .labelled(let id, let attributes):
            if let info = attributes as? StageTraceInfo { promises[id, default: Known()].label = VowError.redactingSecrets(info.text) }
        case .handlerAttached:
            break
        case .fulfilled(let id, let value):
            promises[id, default: Known()].state = "fulfilled"
            pendingSources.remove(id)
            let v = (value as? Value).map { " with " + RecordedTurns.brief(JSONWriter.compact($0)) }
                ?? (value as? Tracer.LargeValue).map { " with \($0.description)" } ?? ""
            turns[turns.count - 1].happened.append("\(label(id)) fulfils\(v)")
            turns[turns.count - 1].settled.append(RecordedTurns.Settlement(id: id, outcome: .fulfilled))
        case .rejected(let id, let error):
            pendingSources.remove(id)
            let e = toVowError(error)
            if e.kind == .cancelled {
                promises[id, default: Known()].state = "cancelled"
                turns[turns.count - 1].settled.append(RecordedTurns.Settlement(id: id, outcome: .cancelled))
            } else {
                promises[id, default: Known()].state = "rejected"
                turns[turns.count - 1].happened.append("\(label(id)) rejects: \(RecordedTurns.brief(e.message))")
                turns[turns.count - 1].settled.append(RecordedTurns.Settlement(id: id, outcome: .rejected))
            }
        case .adopted(let id, let adopted, let state):
            // A promise made before the record began (an earlier statement's `let`) is known
            // only by how the event says it stood.
            let how = promises[adopted]?.state ?? state.rawValue
            if adopted == 0 { adoptedUnknown[id] = state.rawValue }
            let when = how == "pending"
                ? "\(label(adopted)) is pending: \(label(id)) attaches to it next turn and settles one turn after it does"
                : "\(label(adopted)) is \(how) already: \(label(id)) settles two turns from now (one turn to attach, one to settle)"
            turns[turns.count - 1].happened.append("\(label(id)) adopts \(label(adopted)), the promise its handler returned; \(when)")
        case .cancelled(let id):
            turns[turns.count - 1].happened.append("\(label(id)) is cancelled")
        case .timerSet(let id, let ms):
            timers.append((id, ms, turns[turns.count - 1].number))
        case .jobQueued(let j):
            if j.kind == .callback, j.isTask, j.source != 0 { dueTimers.insert(j.source) }
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
                return
            }
            // A later statement's start (the REPL's next line) is a start of its own.
            if j.kind == .callback, j.isOwn, !j.isTask {
                closeTurn()
                queued.removeAll { $0.job == e.job }
                turns.append(RecordedTurns.Turn(number: 0, job: e.job, isTask: false, isInternal: false, title: "start: the statements begin"))
                return
            }
            // The turn before this one ends with this job still in the queue it shows.
            closeTurn()
            queued.removeAll { $0.job == e.job }
            if !vows { numbered += 1 }
            var turn = RecordedTurns.Turn(number: vows ? 0 : numbered, job: e.job, isTask: j.isTask, isInternal: vows, title: describe(j))
            if !vows {
                turn.ranFor = j.kind == .observer ? combinatorsOf[j.source] ?? [] : [j.target].filter { $0 != 0 }
            }
            turns.append(turn)
        case .output(let text):
            var t = text
            if t.hasSuffix("\n") { t.removeLast() }
            turns[turns.count - 1].happened.append("prints \(RecordedTurns.brief(t))")
            turns[turns.count - 1].printed.append(RecordedTurns.brief(t))
        }
    }
}
