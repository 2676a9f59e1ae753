import VowPromises
import VowRuntime
import VowValue

/// `vow --html FILE` and `:timeline --html FILE`: a recorded run as one self-contained web page
/// for a class. The page holds the run as JSON (`data`) and draws, with its own script and
/// style (`HTMLPageAssets`), the promise graph, the turn stepper and the timeline. Nothing in
/// it is fetched from the network. docs/teaching.md tells what the page shows.
public enum HTMLPage {
    /// The whole page of the run recorded in `entries` (a tracer's, oldest first), titled `title`,
    /// with the program's JavaScript twin beside the turns when `twin` is given (as
    /// `Runner.twinForPage` writes it: each stage marked with where it is in the source).
    public static func render(_ entries: [Tracer.Entry], title: String, twin: String? = nil) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>vow · \(escapeHTML(title))</title>
        <style>
        \(HTMLPageAssets.style)
        </style>
        </head>
        <body>
        \(HTMLPageAssets.body)
        <script type="application/json" id="vow-data">\(scriptSafeJSON(data(entries, title: title, twin: twin)))</script>
        <script>
        \(HTMLPageAssets.script)
        </script>
        </body>
        </html>

        """
    }

    /// Writes the page of `entries` (and `twin`, see `render`) to `path`, replacing the file whole.
    public static func write(_ entries: [Tracer.Entry], title: String, twin: String? = nil, to path: String) throws(VowError) {
        let writer = try FileWriter(path)
        do {
            try writer.write(Array(render(entries, title: title, twin: twin).utf8))
        } catch {
            writer.abandon()
            throw toVowError(error)
        }
        try writer.commit()
    }

    /// `text` with the characters that mean something in HTML written as references.
    static func escapeHTML(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters have no business in a title: shown as U+FFFD.
                if c.value < 0x20 || (0x7F...0x9F).contains(c.value) { out += "\u{FFFD}" } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    /// `value` as compact JSON that can sit inside a `<script>` element: `<`, `>` and `&` are
    /// written as `\u003c`, `\u003e` and `\u0026` (they only occur inside strings), so no
    /// `</script>` or `<!--` can end or change the element; control characters and U+2028/9
    /// are escaped by the JSON writer already.
    static func scriptSafeJSON(_ value: Value) -> String {
        var out: [UInt8] = []
        let json = JSONWriter.compact(value).utf8
        out.reserveCapacity(json.count + json.count / 16)
        for b in json {
            switch b {
            case UInt8(ascii: "<"): out += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): out += Array("\\u003e".utf8)
            case UInt8(ascii: "&"): out += Array("\\u0026".utf8)
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What the page knows of one promise.
    private struct Node {
        let id: Int
        var name: String?
        var label: String?
        var state = "pending"
        var outcome: String?
        let created: UInt64
        let createdTurn: Int
        /// Where its stage is in the source (0 when it has none).
        var line = 0, column = 0
        var settled: UInt64?
        var settledTurn: Int?
    }

    /// The run as the page's JSON: `promises` (id, label, name, state, outcome, created/settled
    /// times and turns), `edges` (from, to, kind: chain, adopt, input, or starts: a chain a handler started), `turns` (the turns
    /// `TurnView.shown` shows, each with the promises its job touched and those it settled, what
    /// it printed, the timers not yet due, and `upTo`: the last step its "after" takes in),
    /// `timeline` (the stage promises' bars, with the turns they were made and settled in) and
    /// `title`. Times are microseconds from the first
    /// event; a turn's `seq` counts every turn (vow's own included), as `createdTurn` does.
    static func data(_ entries: [Tracer.Entry], title: String, twin: String? = nil) -> Value {
        let t0 = entries.first?.micros ?? 0
        var nodes: [Int: Node] = [:]
        var order: [Int] = []
        var edges: [(from: Int, to: Int, kind: String)] = []
        var edgeSet = Set<[Int]>()
        func addEdge(_ from: Int, _ to: Int, _ kind: String) {
            guard from != 0, to != 0, from != to, edgeSet.insert([from, to]).inserted else { return }
            edges.append((from, to, kind))
        }
        var seq = 0
        // The promise whose handler the running job runs (0 for none), and the chains handlers
        // started: (that promise, the chain's first promise).
        var handlerOf = 0
        var startedBy: [(from: Int, to: Int)] = []
        // The promises left out of the graph (no JavaScript promise), each to the one it passed on.
        var alias: [Int: Int] = [:]
        var seqOfJob: [Int: Int] = [0: 0]
        var timeOfTurn: [Int: UInt64] = [0: 0]
        var touched: [Int: [Int]] = [:]
        var settledIn: [Int: [Int]] = [:]
        func settle(_ id: Int, _ state: String, _ outcome: String?, at micros: UInt64) {
            guard var n = nodes[id], n.settled == nil || state == "cancelled" else { return }
            if n.settled == nil {
                n.settled = micros - t0
                n.settledTurn = seq
                settledIn[seq, default: []].append(id)
            }
            n.state = state
            if let outcome { n.outcome = outcome }
            nodes[id] = n
        }
        for e in entries {
            let record = Tracer.record(e)
            switch e.event {
            case .created(let id, let parents, let name, _):
                nodes[id] = Node(id: id, name: name, label: record["text"]?.stringValue, created: e.micros - t0, createdTurn: seq)
                nodes[id]?.line = record["line"]?.intValue ?? 0
                nodes[id]?.column = record["column"]?.intValue ?? 0
                order.append(id)
                let combines = parents.count > 1 || name.map { RecordedTurns.combinators.contains($0) } == true
                for p in parents { addEdge(p, id, combines ? "input" : "chain") }
                // A chain a handler starts (a statement of `do`) hangs from the promise whose
                // handler started it.
                if parents.isEmpty, handlerOf != 0 { startedBy.append((handlerOf, id)) }
            case .labelled(let id, _):
                if let text = record["text"]?.stringValue { nodes[id]?.label = text }
                if let line = record["line"]?.intValue, let column = record["column"]?.intValue {
                    nodes[id]?.line = line
                    nodes[id]?.column = column
                }
            case .handlerAttached(let id, let child):
                if nodes[child] != nil { addEdge(id, child, "chain") }
            case .adopted(let id, let adopted, _):
                addEdge(adopted, id, "adopt")
            case .fulfilled(let id, _):
                settle(id, "fulfilled", record["value"].map { brief(JSONWriter.compact($0)) }, at: e.micros)
            case .rejected(let id, let error):
                let e2 = toVowError(error)
                settle(id, e2.kind == .cancelled ? "cancelled" : "rejected", brief(e2.message), at: e.micros)
            case .cancelled(let id):
                settle(id, "cancelled", nil, at: e.micros)
            case .jobStarted(let j):
                handlerOf = j.kind == .reaction ? j.target : 0
                seq += 1
                seqOfJob[e.job] = seq
                timeOfTurn[seq] = e.micros - t0
                touched[seq] = [j.source, j.target].filter { $0 != 0 && nodes[$0] != nil }
            case .jobQueued, .output, .timerSet:
                break
            }
        }
        // Only a chain that nothing else joins: one the handler returned is adopted already.
        for (from, to) in startedBy where !edges.contains(where: { $0.to == to || $0.from == to }) { addEdge(from, to, "starts") }
        // A promise with neither a stage nor a name that only passes a value along the chain
        // (`$x | …` reading a `let`) is no promise of the JavaScript: its edges are joined.
        for id in order {
            guard let n = nodes[id], n.name == nil, n.label == nil else { continue }
            let into = edges.filter { $0.to == id }, out = edges.filter { $0.from == id }
            guard into.count == 1, into[0].kind == "chain", !out.isEmpty, out.allSatisfy({ $0.kind == "chain" }) else { continue }
            edges.removeAll { $0.to == id || $0.from == id }
            for o in out { edges.append((into[0].from, o.to, "chain")) }
            nodes[id] = nil
            alias[id] = alias[into[0].from] ?? into[0].from
        }
        // The turns name the promise it passed along instead (a line that says the same twice
        // then, as "p2 fulfils" for both, is told once).
        func aliased(_ text: String) -> String {
            guard !alias.isEmpty else { return text }
            var out = "", i = text.startIndex
            while i < text.endIndex {
                if text[i] == "p", i == text.startIndex || !text[text.index(before: i)].isLetter {
                    let digits = text[text.index(after: i)...].prefix { $0.isASCII && $0.isNumber }
                    if let n = Int(digits), let to = alias[n] {
                        out += "p\(to)"
                        i = digits.endIndex
                        continue
                    }
                }
                out.append(text[i])
                i = text.index(after: i)
            }
            return out
        }
        func aliased(_ lines: [String]) -> [String] {
            var seen = Set<String>()
            return lines.map(aliased).filter { seen.insert($0).inserted }
        }
        let promises: [Value] = order.compactMap { id in
            guard let n = nodes[id] else { return nil }
            return .record([
                "id": .int(n.id),
                "label": n.label.map { .string($0) } ?? .null,
                "name": n.name.map { .string($0) } ?? .null,
                "state": .string(n.state),
                "outcome": n.outcome.map { .string($0) } ?? .null,
                "created": .int(Int(n.created)),
                "createdTurn": .int(n.createdTurn),
                "line": .int(n.line),
                "column": .int(n.column),
                "settled": n.settled.map { .int(Int($0)) } ?? .null,
                "settledTurn": n.settledTurn.map { .int($0) } ?? .null,
            ])
        }
        let shown = TurnView.shown(RecordedTurns(entries))
        let seqs = shown.map { seqOfJob[$0.job] ?? 0 }
        let turns: [Value] = shown.enumerated().map { i, t in
            let s = seqs[i]
            // What the page shows "after this turn" takes in the steps of vow's own not shown
            // before the next turn (the start's own step among them).
            let upTo = i + 1 < seqs.count ? max(s, seqs[i + 1] - 1) : seq
            return .record([
                "upTo": .int(upTo),
                "printed": .list(t.printed.map { .string($0) }),
                "timers": .list(aliased(t.timers).map { .string($0) }),
                "seq": .int(s),
                "number": .int(t.number),
                "job": .int(t.job),
                "task": .bool(t.isTask),
                "internal": .bool(t.isInternal),
                "title": .string(aliased(t.title)),
                "happened": .list(aliased(t.happened).map { .string($0) }),
                "microtasks": .list(aliased(t.microtasks).map { .string($0) }),
                "tasks": .list(aliased(t.tasks).map { .string($0) }),
                "waiting": .list(aliased(t.waiting).map { .string($0) }),
                "touched": .list((touched[s] ?? []).map { .int(alias[$0] ?? $0) }),
                "ranFor": .list(t.ranFor.map { .int(alias[$0] ?? $0) }),
                "settled": .list((settledIn[s] ?? []).map { .int(alias[$0] ?? $0) }),
                "t": .int(Int(timeOfTurn[s] ?? 0)),
            ])
        }
        let timeline: [Value] = Timeline.rows(entries).map { r in
            let outcome: String
            switch r.outcome {
            case "✓": outcome = "fulfilled"
            case "✗": outcome = "rejected"
            case "⊘": outcome = "cancelled"
            default: outcome = "pending"
            }
            return .record([
                "id": .int(r.id),
                "label": .string(r.label),
                "createdTurn": nodes[r.id].map { .int($0.createdTurn) } ?? .int(0),
                "settledTurn": nodes[r.id]?.settledTurn.map { .int($0) } ?? .null,
                "start": .int(Int(r.start - t0)),
                "end": r.end.map { .int(Int($0 - t0)) } ?? .null,
                "outcome": .string(outcome),
            ])
        }
        return .record([
            "title": .string(title),
            "promises": .list(promises),
            "edges": .list(edges.map { .record(["from": .int($0.from), "to": .int($0.to), "kind": .string($0.kind)]) }),
            "turns": .list(turns),
            "timeline": .list(timeline),
            "end": .int(Int((entries.last?.micros ?? t0) - t0)),
            "twin": twin.map { .string($0) } ?? .null,
        ])
    }

    /// `text` cut at 120 characters.
    private static func brief(_ text: String) -> String {
        text.count > 120 ? String(text.prefix(119)) + "…" : text
    }
}
