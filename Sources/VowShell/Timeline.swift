import VowPromises
import VowRuntime
import VowValue

/// `:timeline`: the promises of the last statement as a terminal Gantt chart.
public enum Timeline {
    /// One stage promise's bar: its label, when it was made and settled, and how.
    struct Row {
        /// The promise.
        let id: Int
        var label: String
        let start: UInt64
        var end: UInt64?
        var outcome: Character = "…"
    }

    /// One row per stage promise: a bar from creation to settlement, scaled to `width` columns,
    /// coloured by outcome (green fulfilled, red rejected, yellow cancelled) and marked ✓ ✗ ⊘.
    /// Work the recording spared (`UnrecordedWork`) is named below the chart.
    public static func render(_ entries: [Tracer.Entry], width: Int, colors: Bool) -> String {
        noting(UnrecordedWork.notes(entries), below: draw(rows(entries), width: width, colors: colors))
    }

    /// `chart` with `notes` below it, a line each.
    static func noting(_ notes: [String], below chart: String) -> String {
        notes.isEmpty ? chart : chart + "\n" + notes.map { "not drawn: " + $0 }.joined(separator: "\n")
    }

    /// The rows of the stage promises of `entries`, in the order they were made (also the
    /// timeline of `--html`'s page).
    static func rows(_ entries: [Tracer.Entry]) -> [Row] {
        var rows: [Row] = []
        var index: [Int: Int] = [:]
        var createdAt: [Int: UInt64] = [:]
        // How promises that have no row yet settled: one made already settled (`resolve 4`) is
        // labelled with its stage after its settlement was recorded.
        var settledEarly: [Int: (end: UInt64, outcome: Character)] = [:]
        func addRow(_ id: Int, _ attributes: (any Sendable)?, start: UInt64) {
            guard let info = attributes as? StageTraceInfo else { return }
            if let i = index[id] {
                // Labelled again (`then X` names the promise X made for it): the later name wins.
                rows[i].label = VowError.redactingSecrets(info.text)
                return
            }
            index[id] = rows.count
            var row = Row(id: id, label: VowError.redactingSecrets(info.text), start: start)
            if let early = settledEarly[id] {
                row.end = early.end
                row.outcome = early.outcome
            }
            rows.append(row)
        }
        func settle(_ id: Int, at micros: UInt64, _ outcome: Character) {
            guard let i = index[id] else {
                if settledEarly[id] == nil { settledEarly[id] = (micros, outcome) }
                return
            }
            if rows[i].end == nil {
                rows[i].end = micros
                rows[i].outcome = outcome
            }
        }
        for e in entries {
            switch e.event {
            case .created(let id, _, _, let attributes):
                createdAt[id] = e.micros
                addRow(id, attributes, start: e.micros)
            case .labelled(let id, let attributes):
                // A promise made inside a stage became the stage's: its bar starts at its creation.
                addRow(id, attributes, start: createdAt[id] ?? e.micros)
            case .fulfilled(let id, _):
                settle(id, at: e.micros, "✓")
            case .rejected(let id, let error):
                settle(id, at: e.micros, toVowError(error).kind == .cancelled ? "⊘" : "✗")
            case .cancelled(let id):
                if let i = index[id] { rows[i].outcome = "⊘"; if rows[i].end == nil { rows[i].end = e.micros } }
            default: break
            }
        }
        return rows
    }

    /// `rows` drawn as text, `width` columns wide.
    static func draw(_ rows: [Row], width: Int, colors: Bool) -> String {
        guard let t0 = rows.map(\.start).min() else { return "no timeline: the last statement made no promises" }
        let t1 = max(rows.map { $0.end ?? $0.start }.max() ?? t0, t0 + 1)
        let labelWidth = min(30, max(8, rows.map(\.label.count).max() ?? 8))
        let barWidth = max(10, width - labelWidth - 14)
        func col(_ t: UInt64) -> Int { Int(Double(t - t0) / Double(t1 - t0) * Double(barWidth - 1)) }
        func ms(_ micros: UInt64) -> String {
            micros >= 10_000 ? "\(micros / 1000)ms" : String(format: "%.1fms", Double(micros) / 1000)
        }
        var out = ""
        for r in rows {
            let label = r.label.count > labelWidth ? String(r.label.prefix(labelWidth - 1)) + "…" : r.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
            let a = col(r.start), b = max(a, col(r.end ?? t1))
            let bar = String(repeating: " ", count: a) + String(repeating: "█", count: b - a + 1)
            let colour: String
            switch r.outcome {
            case "✓": colour = "\u{1B}[32m"
            case "✗": colour = "\u{1B}[31m"
            case "⊘": colour = "\u{1B}[33m"
            default: colour = "\u{1B}[2m"
            }
            let took = r.end.map { ms($0 - r.start) } ?? "pending"
            let padded = bar.padding(toLength: barWidth, withPad: " ", startingAt: 0)
            out += "\(label) │\(colors ? colour : "")\(padded)\(colors ? "\u{1B}[0m" : "") \(r.outcome) \(took)\n"
        }
        let axisLeft = "0", axisRight = ms(t1 - t0)
        out += String(repeating: " ", count: labelWidth) + " └" + String(repeating: "─", count: barWidth) + "\n"
        out += String(repeating: " ", count: labelWidth + 2) + axisLeft
            + String(repeating: " ", count: max(1, barWidth - axisLeft.count - axisRight.count)) + axisRight
        return out
    }
}
