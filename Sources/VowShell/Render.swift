import VowRuntime
import VowValue

/// How results and errors are printed.
public struct Renderer: Sendable {
    /// Colours on (a terminal, unless NO_COLOR or --color never).
    public var colors: Bool
    /// `--json`: one compact JSON line per result.
    public var jsonLines: Bool

    /// Makes a renderer.
    public init(colors: Bool, jsonLines: Bool) {
        self.colors = colors
        self.jsonLines = jsonLines
    }

    /// A result: strings raw, everything else JSON (pretty, coloured on a terminal).
    public func value(_ v: Value) -> String {
        if jsonLines { return JSONWriter.compact(v) }
        if case .string(let s) = v { return s }
        return JSONWriter.pretty(v, colors: colors ? .ansi : nil)
    }

    /// An error: kind and message, the statement with the rejecting stage underlined, the input
    /// it received (shortened), and the stages the rejection skipped.
    public func error(_ e: VowError) -> String {
        if jsonLines {
            return JSONWriter.compact(["error": .record(e.record)])
        }
        let red = colors ? "\u{1B}[1;31m" : "", dim = colors ? "\u{1B}[2m" : "", blue = colors ? "\u{1B}[34m" : "", reset = colors ? "\u{1B}[0m" : ""
        var out = "\(red)error[\(e.kind.rawValue)]\(reset): \(e.message)"
        if let o = e.origin {
            let bytes = Array(o.statement.utf8)
            let lo = max(0, min(o.range.lowerBound, bytes.count))
            let hi = max(lo, min(o.range.upperBound, bytes.count))
            // Show the line of the statement that holds the stage.
            var lineStart = lo
            while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
            var lineEnd = lo
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
            let pad = String(decoding: bytes[lineStart..<lo], as: UTF8.self).count
            let width = max(1, String(decoding: bytes[lo..<min(hi, lineEnd)], as: UTF8.self).count)
            out += "\n  \(blue)│\(reset) \(line)"
            out += "\n  \(blue)│\(reset) \(String(repeating: " ", count: pad))\(red)\(String(repeating: "^", count: width)) rejected here\(reset)"
            if !o.context.isEmpty { out += "\n  \(blue)=\(reset) in: \(o.context.joined(separator: ", "))" }
            if let input = o.input, !input.isNull { out += "\n  \(blue)=\(reset) \(dim)input: \(shorten(JSONWriter.compact(input)))\(reset)" }
        }
        if !e.skipped.isEmpty { out += "\n  \(blue)=\(reset) skipped: \(e.skipped.joined(separator: ", "))" }
        return out
    }

    func shorten(_ s: String, max: Int = 80) -> String {
        s.count <= max ? s : String(s.prefix(max - 1)) + "…"
    }
}
