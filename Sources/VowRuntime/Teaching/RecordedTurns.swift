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
        /// The timers set and not yet due after it (`p3 due 1 ms after turn 2`): in node's model
        /// a timer joins the task queue only when it is due.
        public var timers: [String] = []
        /// Sources still pending after it (requests, processes not yet settled), timers apart.
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

    /// A promise as the legend tells it once, so that the turns can call it `p3`.
    public struct LegendEntry: Sendable, Equatable {
        /// The promise.
        public let id: Int
        /// The stage it is (`print 1`), or its name (`delay`).
        public let text: String
        /// The turn it was made in (0: the start; vow's own steps count as the turn before).
        public let madeIn: Int
    }

    /// The turns, the start first.
    public let turns: [Turn]
    /// What each promise the turns name is, in the order they were made.
    public let legend: [LegendEntry]

    /// Builds the turns of `entries` (a tracer's, oldest first).
    public init(_ entries: [Tracer.Entry]) {
        var builder = TurnBuilder(combinatorsIn: entries)
        for e in entries { builder.take(e) }
        builder.closeTurn()
        self.turns = builder.turns
        self.legend = builder.legend
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
