/// A list of records drawn as a table: one column per key (the union of the keys, in the order
/// they first appear, or the columns asked for), a header, a rule, one line per record. Numbers
/// are right-aligned, nested values shown as compact JSON, text with its control characters made
/// visible, a missing key as an empty cell. Cells are cut (with `…`) so that the table fits
/// `width` columns, the widest columns first.
public enum TableLayout {
    /// The records of `value` when it is a non-empty list of records only, else nil.
    public static func rows(_ value: Value) -> [Record]? {
        guard case .list(let items) = value, !items.isEmpty else { return nil }
        var rows: [Record] = []
        rows.reserveCapacity(items.count)
        for item in items {
            guard case .record(let r) = item else { return nil }
            rows.append(r)
        }
        return rows
    }

    /// The columns of `rows`: the union of their keys, in the order they first appear.
    public static func columns(of rows: [Record]) -> [String] {
        var columns: [String] = []
        var seen = Set<String>()
        for r in rows { for k in r.keys where seen.insert(k).inserted { columns.append(k) } }
        return columns
    }

    /// The table text (lines joined by newlines, no final newline). `maxRows` keeps the first
    /// rows and ends with a `… N more rows` line; `width` nil never cuts a cell.
    public static func render(
        _ rows: [Record], columns given: [String]? = nil, width: Int? = nil, maxRows: Int? = nil, bold: Bool = false
    ) -> String {
        let columns = given ?? Self.columns(of: rows)
        let shown = maxRows.map { Array(rows.prefix(max(1, $0))) } ?? rows
        var cells: [[(text: String, number: Bool)]] = shown.map { r in columns.map { cell(r[$0]) } }
        var headers = columns.map { cleaned($0) }
        let gap = 2
        var widths = columns.indices.map { c in
            max(DisplayWidth.of(headers[c]), cells.map { DisplayWidth.of($0[c].text) }.max() ?? 0)
        }
        if let width {
            // Narrow the widest column, one column of text at a time, until the table fits.
            let floor = 3
            while widths.reduce(0, +) + gap * max(0, widths.count - 1) > width,
                let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > floor
            {
                widths[widest] -= 1
            }
            headers = headers.indices.map { DisplayWidth.truncate(headers[$0], to: widths[$0]) }
            cells = cells.map { row in row.indices.map { (DisplayWidth.truncate(row[$0].text, to: widths[$0]), row[$0].number) } }
        }
        func line(_ parts: [(text: String, number: Bool)]) -> String {
            var out = ""
            for (i, p) in parts.enumerated() {
                let pad = String(repeating: " ", count: max(0, widths[i] - DisplayWidth.of(p.text)))
                let last = i == parts.count - 1
                out += p.number ? pad + p.text : (last ? p.text : p.text + pad)
                if !last { out += String(repeating: " ", count: gap) }
            }
            while out.hasSuffix(" ") { out.removeLast() }
            return out
        }
        let numeric = columns.indices.map { c in !cells.isEmpty && cells.allSatisfy { $0[c].number || $0[c].text.isEmpty } }
        var lines = [line(headers.indices.map { (headers[$0], numeric[$0]) })]
        if bold { lines[0] = "\u{1B}[1m" + lines[0] + "\u{1B}[0m" }
        lines.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: String(repeating: " ", count: gap)))
        for row in cells { lines.append(line(row)) }
        if shown.count < rows.count {
            let more = rows.count - shown.count
            lines.append("… \(more) more row\(more == 1 ? "" : "s")")
        }
        return lines.joined(separator: "\n")
    }

    /// A cell: text raw (control characters made visible), numbers as JSON (right-aligned), lists
    /// and records as compact JSON, null and a missing key empty (as nushell shows them).
    static func cell(_ v: Value?) -> (text: String, number: Bool) {
        guard let v else { return ("", false) }
        switch v {
        case .null: return ("", false)
        case .string(let s): return (cleaned(s), false)
        case .int, .double: return (JSONWriter.compact(v), true)
        default: return (cleaned(JSONWriter.compact(v.toJSONValue())), false)
        }
    }

    /// Text with newlines and tabs written `\n`, `\t`, and other control characters as `\u{…}`,
    /// so that a cell stays on its line and cannot move the cursor.
    static func cleaned(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) }) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            switch u.value {
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0..<0x20, 0x7F, 0x80..<0xA0: out += "\\u{\(String(u.value, radix: 16))}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
