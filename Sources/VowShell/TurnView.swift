import VowRuntime

/// `vow --turns` and `:step`: a recorded run drawn turn by turn, as text.
public enum TurnView {
    /// One turn as lines of text: its number and job, what happened, and the queues after it.
    public static func render(_ turn: RecordedTurns.Turn, colors: Bool) -> String {
        func bold(_ s: String) -> String { colors ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
        func dim(_ s: String) -> String { colors ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
        var out: String
        if turn.isInternal {
            out = dim("vow") + "  " + dim(turn.title) + "\n"
        } else if turn.number == 0 {
            out = bold("start") + "  " + turn.title + "\n"
        } else {
            let kind = turn.isTask ? "task" : "microtask"
            out = bold("turn \(turn.number)") + "  " + dim("j\(turn.job), a \(kind)") + ": " + turn.title + "\n"
        }
        for h in turn.happened { out += "    \(h)\n" }
        out += dim("    microtasks: " + (turn.microtasks.isEmpty ? "none" : turn.microtasks.joined(separator: " · "))) + "\n"
        if !turn.tasks.isEmpty { out += dim("    tasks: " + turn.tasks.joined(separator: " · ")) + "\n" }
        if !turn.timers.isEmpty { out += dim("    timers: " + turn.timers.joined(separator: " · ")) + "\n" }
        if !turn.waiting.isEmpty { out += dim("    waiting: " + turn.waiting.joined(separator: " · ")) + "\n" }
        return out
    }

    /// Every turn of `turns`, one after another, after the legend of its promises; vow's own
    /// bookkeeping only where it did something the program can see (settled a promise, printed).
    public static func render(_ turns: RecordedTurns, colors: Bool) -> String {
        legend(turns, colors: colors) + shown(turns).map { render($0, colors: colors) }.joined(separator: "\n")
    }

    /// The promises the turns name, once: `p3  print 1`, and the turn a later one was made in;
    /// empty when there are none.
    public static func legend(_ turns: RecordedTurns, colors: Bool) -> String {
        guard !turns.legend.isEmpty else { return "" }
        func dim(_ s: String) -> String { colors ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
        let width = turns.legend.map { "p\($0.id)".count }.max() ?? 2
        var out = "promises\n"
        for e in turns.legend {
            let id = "p\(e.id)"
            let made = e.madeIn == 0 ? "" : dim("  (made in turn \(e.madeIn))")
            out += "  " + id + String(repeating: " ", count: width - id.count) + "  " + RecordedTurns.brief(e.text) + made + "\n"
        }
        return out + "\n"
    }

    /// The turns worth showing: every turn of the program, and vow's own where something happened.
    public static func shown(_ turns: RecordedTurns) -> [RecordedTurns.Turn] {
        turns.turns.filter(isShown)
    }

    /// Whether `shown` shows `turn`: a turn of the program (but a later start where nothing
    /// happened), or vow's own where something happened.
    public static func isShown(_ turn: RecordedTurns.Turn) -> Bool {
        // A later statement's start where nothing happened (`:timeline` itself) is left out.
        if turn.number == 0, turn.job != 0, turn.happened.isEmpty { return false }
        return !turn.isInternal || turn.happened.contains { !$0.hasPrefix("queues ") }
    }
}
