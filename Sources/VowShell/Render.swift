import Foundation
import VowRuntime
import VowValue

/// Whether lists of records print as tables on a terminal (`:set table on|off`). Thread-safe.
public final class TableSetting: Sendable {
    private let state: Locked<Bool>

    /// A setting, on or off.
    public init(_ on: Bool) { state = Locked(on) }

    /// On: a list of records prints as a table on a terminal.
    public var on: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

/// How results and errors are printed.
public struct Renderer: Sendable {
    /// Colours on (a terminal, unless NO_COLOR or --color never).
    public var colors: Bool
    /// `--json`: one compact JSON line per result.
    public var jsonLines: Bool
    /// Output goes to a terminal: control characters in raw strings are shown escaped, so that
    /// data (a response body, a file) cannot send escape sequences to the terminal.
    public var terminal: Bool
    /// On a terminal, a list of records prints as a table that fits its width (`:set table`).
    public let tables = TableSetting(true)

    /// Makes a renderer.
    public init(colors: Bool, jsonLines: Bool, terminal: Bool = false) {
        self.colors = colors
        self.jsonLines = jsonLines
        self.terminal = terminal
    }

    /// The terminal's columns and rows (standard output's window size; else COLUMNS and LINES;
    /// else 80 by 24).
    public static func terminalSize() -> (columns: Int, rows: Int) {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return (Int(ws.ws_col), Int(max(ws.ws_row, 8))) }
        let env = ProcessInfo.processInfo.environment
        return (env["COLUMNS"].flatMap(Int.init) ?? 80, env["LINES"].flatMap(Int.init) ?? 24)
    }

    /// A result: strings raw, everything else JSON (pretty, coloured on a terminal).
    public func value(_ v: Value) -> String {
        if jsonLines { return JSONWriter.compact(v) }
        // On a terminal a list of records may show as a table: made into values first.
        if terminal, case .opaque(let o as JSONTapeValue) = v { return value(o.value) }
        if case .string(let s) = v { return terminal ? sanitize(s) : s }
        if case .response(let r) = v { return response(r) }
        if let line = download(v) { return line }
        if terminal, tables.on, let rows = TableLayout.rows(v) {
            // A screenful at most: the rest is counted in a last line (`to-json` shows it all).
            let size = Self.terminalSize()
            return TableLayout.render(rows, width: size.columns, maxRows: max(5, size.rows - 4), bold: colors)
        }
        return JSONWriter.pretty(v, colors: colors ? .ansi : nil)
    }

    /// Writes what `value(_:)` gives for `v`, in pieces handed to `send` as they are made: JSON
    /// (a document still in its tape too) is written straight from the value, never held whole
    /// as text.
    public func write(_ v: Value, to send: (UnsafeBufferPointer<UInt8>) -> Void) {
        if jsonLines {
            JSONWriter.write(v, indent: nil, to: send)
            return
        }
        if !terminal, download(v) == nil {
            switch v {
            case .null, .bool, .int, .double, .list, .record, .opaque(is JSONTapeValue), .opaque(is UndefinedValue):
                JSONWriter.write(v, indent: 2, colors: colors ? .ansi : nil, to: send)
                return
            default: break
            }
        }
        var text = value(v)
        text.withUTF8 { send($0) }
    }

    /// What `--output FILE` fulfils with, `{path, bytes, status, url, headers}`, as one line:
    /// `saved x.png (48213 bytes, 200) from URL`; nil for any other value.
    func download(_ v: Value) -> String? {
        guard case .record(let r) = v, r.keys == ["path", "bytes", "status", "url", "headers"],
            case .string(let path)? = r["path"], case .int(let bytes)? = r["bytes"], case .int(let status)? = r["status"],
            case .string(let url)? = r["url"]
        else { return nil }
        return "saved \(sanitize(path)) (\(bytes) bytes, \(status)) from \(sanitize(url))"
    }

    /// What a statement's value writes as it is, when standard output is not a terminal: the
    /// bytes of a binary body (a response whose body is not UTF-8, or bytes), as `curl -o -`
    /// writes them, instead of a description of them. Nil on a terminal, with `--json`, or for
    /// any other value.
    public func rawBytes(_ v: Value) -> [UInt8]? {
        guard !terminal, !jsonLines else { return nil }
        switch v {
        case .bytes(let b): return b
        case .response(let r) where String(validating: r.body, as: UTF8.self) == nil: return r.body
        default: return nil
        }
    }

    /// A response: the status line, the headers (lower-case names), a blank line and the body
    /// (pretty JSON when it parses, else its text, else its size).
    public func response(_ r: HTTPResponse) -> String {
        let bold = colors ? "\u{1B}[1m" : "", dim = colors ? "\u{1B}[2m" : "", reset = colors ? "\u{1B}[0m" : ""
        var out = "\(bold)\(r.version) \(r.status) \(TerminalText.visibleLine(r.statusText))\(reset)\n"
        for h in r.headers { out += "\(dim)\(TerminalText.visibleLine(h.name.lowercased())):\(reset) \(TerminalText.visibleLine(h.value))\n" }
        if r.body.isEmpty { return String(out.dropLast()) }
        out += "\n"
        if let parsed = try? JSON.parse(r.body) {
            out += JSONWriter.pretty(parsed, colors: colors ? .ansi : nil)
        } else if let text = String(validating: r.body, as: UTF8.self) {
            out += sanitize(text)
        } else {
            out += "<\(r.body.count) bytes of binary data>"
            if terminal { out += " (not shown on a terminal: redirect the output to a file, or give --output FILE)" }
        }
        return out
    }

    /// The marks under a stage that rejected: `^` under the whole stage, or, when the error is
    /// about one argument (`Origin.argument`), `-` under the stage and `^` under the argument.
    static func underline(_ o: VowError.Origin, _ bytes: [UInt8], from lo: Int, width: Int) -> String {
        guard let a = o.argument, a.lowerBound >= lo, a.upperBound <= bytes.count else { return String(repeating: "^", count: width) }
        let before = String(decoding: bytes[lo..<a.lowerBound], as: UTF8.self).count
        let inside = String(decoding: bytes[a], as: UTF8.self).count
        guard before + inside <= width else { return String(repeating: "^", count: width) }
        return String(repeating: "-", count: before) + String(repeating: "^", count: inside) + String(repeating: "-", count: width - before - inside)
    }

    /// Text with terminal control characters (other than newline and tab) made visible.
    func sanitize(_ s: String) -> String { TerminalText.visible(s) }

    /// An error: kind and message, the statement with the rejecting stage underlined, the input
    /// it received (shortened), and the stages the rejection skipped.
    public func error(_ e: VowError) -> String {
        if jsonLines {
            return JSONWriter.compact(["error": .record(e.record)])
        }
        let red = colors ? "\u{1B}[1;31m" : "", dim = colors ? "\u{1B}[2m" : "", blue = colors ? "\u{1B}[34m" : "", reset = colors ? "\u{1B}[0m" : ""
        // An error's text holds what servers, files and bodies said: it is always shown with its
        // control characters made visible, wherever it goes.
        var out = "\(red)error[\(e.kind.rawValue)]\(reset): \(TerminalText.visible(e.message))"
        if let o = e.origin {
            let bytes = Array(o.statement.utf8)
            let lo = max(0, min(o.range.lowerBound, bytes.count))
            let hi = max(lo, min(o.range.upperBound, bytes.count))
            // Show the line of the statement that holds the stage.
            var lineStart = lo
            while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
            var lineEnd = lo
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var line = TerminalText.visibleLine(VowError.redactingSecrets(String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)))
            var pad = String(decoding: bytes[lineStart..<lo], as: UTF8.self).count
            var width = max(1, String(decoding: bytes[lo..<min(hi, lineEnd)], as: UTF8.self).count)
            (line, pad, width) = Self.window(line, pad: pad, width: width)
            out += "\n  \(blue)│\(reset) \(line)"
            let label = e.raisedFirst == nil ? "rejected here" : "raised again here"
            out += "\n  \(blue)│\(reset) \(String(repeating: " ", count: pad))\(red)\(Self.underline(o, bytes, from: lo, width: width)) \(label)\(reset)"
            if let first = e.raisedFirst {
                out += "\n  \(blue)=\(reset) raised first by: \(TerminalText.visibleLine(shorten(first.at)))"
            }
            if !o.context.isEmpty { out += "\n  \(blue)=\(reset) in: \(TerminalText.visibleLine(o.context.joined(separator: ", ")))" }
            if let input = o.input, !input.isNull { out += "\n  \(blue)=\(reset) \(dim)input: \(TerminalText.visibleLine(shorten(JSONWriter.compact(input))))\(reset)" }
        }
        if let body = bodyExcerpt(e) { out += "\n  \(blue)=\(reset) body: \(body)" }
        if !e.skipped.isEmpty {
            // A long chain skipped whole is named by its first stages and counted, on one line.
            let shown = e.skipped.prefix(Self.skippedShown).map { shorten(VowError.redactingSecrets($0)) }.joined(separator: ", ")
            let more = e.skipped.count > Self.skippedShown ? " and \(e.skipped.count - Self.skippedShown) more stages" : ""
            out += "\n  \(blue)=\(reset) skipped: \(TerminalText.visibleLine(shown))\(more)"
        }
        return out
    }

    /// The longest line of a statement an error shows whole.
    static let lineLimit = 240

    /// A statement's line as an error shows it, with the underlined stage's column (`pad`) and
    /// width: the whole line when it is short, else a window that starts a little before the
    /// stage, its cut ends marked `…` (a pipeline of 50,000 steps is not printed whole).
    static func window(_ line: String, pad: Int, width: Int) -> (line: String, pad: Int, width: Int) {
        guard line.count > lineLimit else { return (line, pad, width) }
        let chars = Array(line)
        let at = min(pad, chars.count)
        let from = max(0, at - 40)
        let to = min(chars.count, from + lineLimit)
        let head = from > 0 ? "…" : ""
        let tail = to < chars.count ? "…" : ""
        return (head + String(chars[from..<to]) + tail, head.count + at - from, max(1, min(width, to - at)))
    }

    /// The start of an HTTP error's body, as curl --fail-with-body and HTTPie show it: JSON
    /// compact, text on one line, binary as its size; at most 300 characters. Nil for none.
    func bodyExcerpt(_ e: VowError) -> String? {
        guard e.kind == .http, let body = e.details["body"], e.details["status"] != nil else { return nil }
        let text: String
        switch body {
        case .string(let s):
            let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { return nil }
            text = trimmed
        case .record(let r) where r.keys == ["bytes"]:
            return "<\(JSONWriter.compact(r["bytes"] ?? .null)) bytes of binary data>"
        case .null:
            return nil
        default:
            text = JSONWriter.compact(body)
        }
        return shorten(TerminalText.visibleLine(text), max: 300)
    }

    /// How many skipped stages an error report names before it counts the rest.
    static let skippedShown = 12

    func shorten(_ s: String, max: Int = 80) -> String {
        s.count <= max ? s : String(s.prefix(max - 1)) + "…"
    }
}
