import Foundation
import VowPromises
import VowValue

/// `table [--columns a,b] [--width N]`: a list of records as a table (text).
struct TableStage: ValueStage {
    static let name = "table"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("table")
    static let group = StageGroup.data
    static let synopsis = "table [--columns a,b] [--width N]"
    static let summary = "Draws a list of records as a table of text: one column per key, numbers right-aligned."
    static let help = """
        Fulfils with the input, a list of records, drawn as a table: one column per key (the
        union of the keys in the order they first appear, or --columns), a header and a rule,
        one line per record; numbers right-aligned, lists and records as compact JSON, a missing
        key as an empty cell, control characters made visible. The result is text, the same on
        a terminal and in a pipe; --width N cuts cells (with …) so that every line fits N columns.
        On a terminal a list of records prints as a table without this stage (`:set table off`
        turns that off); use `table` to choose the columns or to draw one in a script's output.
        """
    static let flags = [columns.spec, width.spec]
    /// `--columns a,b`.
    static let columns = Flag.value("columns", value: "a,b", help: "the columns, in this order (a list or comma-separated text)")
    /// `--width N`.
    static let width = Flag.integer("width", help: "cut cells so that each line fits N columns")
    static let examples = [
        StageExample("echo [{name: ann, n: 3}, {name: bob, n: 12}] | table", "name   n\n────  ──\nann    3\nbob   12"),
        StageExample("echo [{a: 1, b: x}, {b: y, c: [1, 2]}] | table --columns c,b", "c      b\n─────  ─\n       x\n[1,2]  y"),
        StageExample("echo [{a: 1}, 2] | table", "error[type]: table: expected a list of records, element 2 is number", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        guard case .list(let items) = input else { throw call.error(.type, "expected a list of records, got \(input.typeName)") }
        if items.isEmpty { return .value(.string("")) }
        guard let rows = TableLayout.rows(input) else {
            let bad = items.firstIndex { if case .record = $0 { return false } else { return true } } ?? 0
            throw call.error(.type, "expected a list of records, element \(bad + 1) is \(items[bad].typeName)")
        }
        var columns: [String]?
        if let c = try args.value(Self.columns) {
            switch c {
            case .list(let l): columns = try l.map { try args.asString($0, "a column") }
            default: columns = try args.asString(c, "--columns").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            guard !(columns ?? []).isEmpty else { throw call.error(.type, "--columns needs at least one column", flag: "columns") }
        }
        var width: Int?
        if let w = try args.value(Self.width) {
            width = w
            guard width! >= 1 else { throw call.error(.type, "--width must be at least 1", flag: "width") }
        }
        return .value(.string(TableLayout.render(rows, columns: columns, width: width)))
    }
}
