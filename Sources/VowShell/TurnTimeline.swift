import VowPromises
import VowRuntime

/// `:timeline --turns`: every job of the run on a turn axis, as text. One row per promise (its
/// label as `:timeline` names it), one column per turn (numbered as `vow --turns` numbers them),
/// a mark where the promise's job ran and where it settled, the output in the turn that wrote
/// it, and the tasks (timers, I/O) told from the microtasks.
public enum TurnTimeline {
    /// What a cell shows.
    enum Mark: Equatable {
        /// Nothing: the promise did not exist yet, or had settled.
        case none
        /// The promise exists and has not settled.
        case pending
        /// A job of the promise ran in the turn (a handler, a step of adoption, a combinator's
        /// reaction to one of its inputs) and did not settle it.
        case ran
        /// The promise settled in the turn.
        case settled(RecordedTurns.Settlement.Outcome)
    }

    /// One column: a turn as `vow --turns` shows it.
    struct Column {
        /// `s` for the start, `v` for a step of vow's own, else the turn's number.
        let title: String
        /// The turn.
        let turn: RecordedTurns.Turn
    }

    /// One promise's row.
    struct Row {
        let id: Int
        /// `p3 print 1`: the promise's number and its label.
        let label: String
        /// One mark per column.
        var marks: [Mark]
    }

    /// The chart before it is drawn: the columns, the rows, and what each column printed.
    struct Chart {
        var columns: [Column]
        var rows: [Row]
    }

    /// Draws the turns of `entries` (a tracer's `wholeRun`), `width` columns wide at most.
    /// Work the recording spared (`UnrecordedWork`) is named below the chart.
    public static func render(_ entries: [Tracer.Entry], width: Int, colors: Bool) -> String {
        Timeline.noting(UnrecordedWork.notes(entries), below: draw(chart(entries), width: width, colors: colors))
    }

    /// The chart of `entries`: a column for each turn `TurnView.shown` shows, a row for each
    /// stage promise, each promise a turn ran a job for and each that a numbered turn settled,
    /// in the order they were made.
    static func chart(_ entries: [Tracer.Entry]) -> Chart {
        let all = RecordedTurns(entries).turns
        var labels: [Int: String] = [:]
        for r in Timeline.rows(entries) { labels[r.id] = r.label }
        var names: [Int: String] = [:]
        for e in entries {
            if case .created(let id, _, let name?, _) = e.event { names[id] = name }
        }
        // Where each promise was made and settled, as the index of a shown column: a promise made
        // in a step that is not shown (vow's own, which only queued) is pending from the next one.
        var columns: [Column] = []
        var madeAt: [Int: Int] = [:]
        var settledAt: [Int: (column: Int, outcome: RecordedTurns.Settlement.Outcome)] = [:]
        var ranAt: [Int: Set<Int>] = [:]
        var madeUnshown: [Int] = []
        // Promises without a stage that a turn of the program settled (a timer's, say) get a row.
        var settledInATurn = Set<Int>()
        for t in all {
            guard TurnView.isShown(t) else {
                madeUnshown += t.made
                continue
            }
            let c = columns.count
            columns.append(Column(title: t.isInternal ? "v" : t.number == 0 ? "s" : String(t.number), turn: t))
            for id in madeUnshown + t.made where madeAt[id] == nil { madeAt[id] = c }
            madeUnshown = []
            for s in t.settled where settledAt[s.id] == nil {
                settledAt[s.id] = (c, s.outcome)
                if t.number > 0 { settledInATurn.insert(s.id) }
            }
            for id in t.ranFor { ranAt[id, default: []].insert(c) }
        }
        let ids = Set(labels.keys).union(ranAt.keys).union(settledInATurn).sorted()
        let rows = ids.map { id -> Row in
            let label = "p\(id) " + RecordedTurns.brief(labels[id] ?? names[id] ?? "promise")
            let start = madeAt[id] ?? 0
            var marks = [Mark](repeating: .none, count: columns.count)
            for c in columns.indices {
                if let s = settledAt[id], s.column == c {
                    marks[c] = .settled(s.outcome)
                } else if ranAt[id]?.contains(c) == true {
                    marks[c] = .ran
                } else if c >= start, c < settledAt[id]?.column ?? columns.count {
                    marks[c] = .pending
                }
            }
            return Row(id: id, label: label, marks: marks)
        }
        return Chart(columns: columns, rows: rows)
    }

    /// The most columns drawn; a longer run shows its first and last turns and says how many it
    /// left out between them.
    static let maxColumns = 240
    /// The most rows drawn in one band of columns; more show the first and the last.
    static let maxRows = 60

    /// `chart` as text, `width` columns wide at most: the columns in bands that fit, each band's
    /// rows those with something in it.
    static func draw(_ chart: Chart, width: Int, colors: Bool) -> String {
        guard !chart.columns.isEmpty else { return "no turns: nothing was recorded" }
        var columns = Array(chart.columns.indices)
        var leftOut: (after: Int, count: Int)?
        if columns.count > maxColumns {
            let count = columns.count - maxColumns
            leftOut = (maxColumns / 2, count)
            columns.removeSubrange(maxColumns / 2..<(maxColumns / 2 + count))
        }
        let cell = max(2, chart.columns.map(\.title.count).max() ?? 1) + 1
        // Room for eight columns at least, narrowing the labels down to eight characters.
        let labelWidth = max(8, min(28, chart.rows.map(\.label.count).max() ?? 8, width - 2 - 8 * cell))
        let perBand = max(1, (width - labelWidth - 2) / cell)
        func paint(_ s: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
        func pad(_ s: String) -> String {
            s.count > labelWidth ? String(s.prefix(labelWidth - 1)) + "…" : s.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
        }
        func right(_ s: String) -> String { String(repeating: " ", count: max(0, cell - s.count)) + s }
        func line(_ s: String) -> String {
            var s = Substring(s)
            while s.last == " " { s = s.dropLast() }
            return s + "\n"
        }
        func symbol(_ m: Mark) -> String {
            switch m {
            case .none: return right("")
            case .pending: return paint(right("─"), "2")
            case .ran: return paint(right("●"), "1;34")
            case .settled(.fulfilled): return paint(right("✓"), "32")
            case .settled(.rejected): return paint(right("✗"), "31")
            case .settled(.cancelled): return paint(right("⊘"), "33")
            }
        }
        // Prose, wrapped at spaces to the width.
        func prose(_ text: String) -> String {
            var lines: [String] = []
            var current = ""
            for word in text.split(separator: " ") {
                if !current.isEmpty, current.count + 1 + word.count > width {
                    lines.append(current)
                    current = ""
                }
                current += (current.isEmpty ? "" : " ") + word
            }
            return (lines + [current]).joined(separator: "\n") + "\n"
        }
        let tasks = chart.columns.filter { $0.turn.isTask }.count
        let count = "\(chart.columns.filter { $0.turn.number > 0 }.count) turns" + (tasks > 0 ? ", \(tasks) of them tasks" : "")
        var out = prose("Every job of the run by turn, numbered as `vow --turns` numbers them (\(count)).")
        out += prose("● its job ran · ✓ fulfilled · ✗ rejected · ⊘ cancelled · ─ pending")
        out += prose("s the start · v a step of vow's own · T a task (timer, I/O) · others microtasks")
        var notes: [String] = []
        var bands: [[Int]] = []
        var i = 0
        while i < columns.count {
            let end = min(columns.count, i + perBand)
            var band = Array(columns[i..<end])
            if let l = leftOut, let k = band.firstIndex(where: { $0 >= l.after }), k > 0, band[k - 1] < l.after {
                band = Array(band[..<k])
            }
            bands.append(band)
            i += band.count
        }
        for band in bands {
            if let l = leftOut, band.first == l.after + l.count {
                out += "\n" + prose("… \(l.count) turns left out here, from \(name(of: l.after, chart)) to \(name(of: l.after + l.count - 1, chart)) (`vow --turns` shows every one)")
            }
            out += "\n" + pad("turn") + "  " + band.map { right(chart.columns[$0].title) }.joined() + "\n"
            if band.contains(where: { chart.columns[$0].turn.isTask }) {
                out += line(pad("task") + "  " + band.map { chart.columns[$0].turn.isTask ? right("T") : right("") }.joined())
            }
            var rows = chart.rows.filter { r in band.contains { r.marks[$0] != .none } }
            var hidden = 0
            if rows.count > maxRows {
                hidden = rows.count - maxRows
                rows.removeSubrange(maxRows / 2..<(maxRows / 2 + hidden))
            }
            for (n, r) in rows.enumerated() {
                if hidden > 0, n == maxRows / 2 { out += "… \(hidden) promises left out here\n" }
                out += line(pad(r.label) + "  " + band.map { symbol(r.marks[$0]) }.joined())
            }
            // What each turn printed: in its cell when it fits, else a note below the chart.
            if band.contains(where: { !chart.columns[$0].turn.printed.isEmpty }) {
                out += line(pad("prints") + "  " + band.map { c -> String in
                    let printed = chart.columns[c].turn.printed
                    if printed.isEmpty { return right("") }
                    if printed.count == 1, printed[0].count < cell, !printed[0].isEmpty { return right(printed[0]) }
                    notes += printed.map { "\(name(of: c, chart)) prints \($0)" }
                    return right("▪")
                }.joined())
            }
        }
        if !notes.isEmpty {
            out += "\n▪ what did not fit:\n" + notes.map { note in
                "  " + (note.count > width - 2 ? String(note.prefix(width - 3)) + "…" : note) + "\n"
            }.joined()
        }
        return String(out.dropLast())
    }

    /// Column `c` in words: `turn 3`, `the start`, `vow's step after turn 3`.
    static func name(of c: Int, _ chart: Chart) -> String {
        let t = chart.columns[c].turn
        if !t.isInternal { return t.number == 0 ? "the start" : "turn \(t.number)" }
        let before = chart.columns[..<c].last(where: { !$0.turn.isInternal })?.turn.number ?? 0
        return before == 0 ? "vow's step after the start" : "vow's step after turn \(before)"
    }
}
