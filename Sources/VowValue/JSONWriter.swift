/// Colours for pretty JSON on a terminal.
public struct JSONColors: Sendable {
    /// Object keys.
    public var key: String
    /// Strings.
    public var string: String
    /// Numbers.
    public var number: String
    /// true, false, null.
    public var literal: String
    /// Reset.
    public var reset: String
    /// The default ANSI palette.
    public static let ansi = JSONColors(key: "\u{1B}[34;1m", string: "\u{1B}[32m", number: "\u{1B}[36m", literal: "\u{1B}[33m", reset: "\u{1B}[0m")
}

/// Writes `Value`s as JSON: compact, or pretty with optional colours.
///
/// Integers print without `.0`; other numbers as the shortest text that reads back the same
/// (non-finite numbers print as null); control characters, DEL, C1 controls, U+2028/2029 and the bidirectional controls are
/// escaped so that a string can never inject terminal escapes (`JSONText`). A document read into
/// a tape and never made into values (`JSONTapeValue`) is written from the tape, the same bytes.
public enum JSONWriter {
    /// One line, no spaces.
    public static func compact(_ v: Value) -> String {
        text(v, layout: JSONLayout(indent: nil, colors: nil))
    }

    /// Indented with `indent` spaces, optionally coloured.
    public static func pretty(_ v: Value, indent: Int = 2, colors: JSONColors? = nil) -> String {
        text(v, layout: JSONLayout(indent: indent, colors: colors))
    }

    /// Writes `v` as JSON (pretty when `indent` is given, compact otherwise) in pieces of about
    /// 64 KiB, each handed to `send` as it fills: a large value is never held whole as text.
    public static func write(
        _ v: Value, indent: Int?, colors: JSONColors? = nil, to send: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        withoutActuallyEscaping(send) { send in
            var out = JSONOutput(send: send)
            defer { out.release() }
            write(v, into: &out, layout: JSONLayout(indent: indent, colors: colors), level: 0)
            out.flush()
        }
    }

    private static func text(_ v: Value, layout: JSONLayout) -> String {
        var out = JSONOutput()
        defer { out.release() }
        write(v, into: &out, layout: layout, level: 0)
        return String(decoding: UnsafeBufferPointer(start: out.base, count: out.count), as: UTF8.self)
    }

    static func write(_ v: Value, into out: inout JSONOutput, layout: JSONLayout, level: Int) {
        switch v {
        case .null: layout.literal(JSONText.null, into: &out)
        case .bool(let b): layout.literal(b ? JSONText.trueText : JSONText.falseText, into: &out)
        case .int(let i):
            layout.paint(layout.colors?.number, into: &out) { JSONText.writeInt(i, into: &$0) }
        case .double(let d):
            layout.paint(layout.colors?.number, into: &out) { JSONText.writeDouble(d, into: &$0) }
        case .string(let s):
            layout.paint(layout.colors?.string, into: &out) { JSONText.writeString(s, into: &$0) }
        case .list(let l):
            layout.container(UInt8(ascii: "["), UInt8(ascii: "]"), count: l.count, level: level, into: &out) { i, out in
                write(l[i], into: &out, layout: layout, level: level + 1)
            }
        case .record(let r):
            // `undefined` leaves its key out, as JSON.stringify does.
            if r.values.contains(where: \.isUndefined) {
                var kept = Record()
                for (i, k) in r.keys.enumerated() where !r.values[i].isUndefined { kept[k] = r.values[i] }
                write(.record(kept), into: &out, layout: layout, level: level)
                return
            }
            layout.container(UInt8(ascii: "{"), UInt8(ascii: "}"), count: r.count, level: level, into: &out) { i, out in
                layout.key(r.keys[i], into: &out)
                write(r.values[i], into: &out, layout: layout, level: level + 1)
            }
        case .opaque(let o as JSONTapeValue):
            o.write(into: &out, layout: layout, level: level)
        case .opaque(is UndefinedValue):
            // On its own, as console.log shows it; in a list, null, as JSON.stringify writes it.
            layout.literal(level == 0 ? Array("undefined".utf8) : JSONText.null, into: &out)
        case .bytes, .response, .opaque:
            write(v.toJSONValue(), into: &out, layout: layout, level: level)
        }
    }
}

/// How a writer lays JSON out: compact or indented, with colours or without.
struct JSONLayout {
    /// Spaces a level, or nil for one line.
    let indent: Int?
    /// Colours, or nil.
    let colors: JSONColors?

    /// Writes `body` between a colour and the reset, when there are colours.
    @inline(__always) func paint(_ color: String?, into out: inout JSONOutput, _ body: (inout JSONOutput) -> Void) {
        if let color { out.append(color) }
        body(&out)
        if color != nil, let reset = colors?.reset { out.append(reset) }
    }

    /// `null`, `true` or `false`, painted as a literal.
    @inline(__always) func literal(_ text: [UInt8], into out: inout JSONOutput) {
        paint(colors?.literal, into: &out) { JSONText.writeLiteral(text, into: &$0) }
    }

    /// A new line indented for `level`, when indenting.
    @inline(__always) func newline(_ level: Int, into out: inout JSONOutput) {
        guard let indent else { return }
        out.newline(spaces: indent &* level)
    }

    /// A list or an object of `count` members: `open`, each member (`member(i, &out)`) on a line
    /// of its own one level deeper, separated by commas, then `close` on its own line; empty, the
    /// two brackets alone.
    @inline(__always) func container(
        _ open: UInt8, _ close: UInt8, count: Int, level: Int, into out: inout JSONOutput,
        _ member: (Int, inout JSONOutput) -> Void
    ) {
        out.append(open)
        if count == 0 {
            out.append(close)
            return
        }
        for i in 0..<count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            newline(level + 1, into: &out)
            member(i, &out)
            out.checkpoint()
        }
        newline(level, into: &out)
        out.append(close)
    }

    /// The key of an object's member and its colon.
    @inline(__always) func key(_ key: String, into out: inout JSONOutput) {
        paint(colors?.key, into: &out) { JSONText.writeString(key, into: &$0) }
        colon(into: &out)
    }

    /// The colon after a key, and a space when indenting.
    @inline(__always) func colon(into out: inout JSONOutput) {
        out.append(UInt8(ascii: ":"))
        if indent != nil { out.append(0x20) }
    }
}

extension Value {
    /// The value as plain JSON data: bytes become text (or `{bytes, base64}`), a response a record
    /// `{status, statusText, version, url, headers, elapsed, body}`, a document still in its
    /// tape the values it holds, any other opaque value its display text.
    public func toJSONValue() -> Value {
        switch self {
        case .bytes(let b):
            if let s = String(validating: b, as: UTF8.self) { return .string(s) }
            return ["bytes": .int(b.count)]
        case .response(let r):
            let headers = r.headerRecord()
            let body: Value = (try? JSON.parse(r.body)) ?? Value.bytes(r.body).toJSONValue()
            var record: Record = [
                "status": .int(r.status), "statusText": .string(r.statusText), "version": .string(r.version), "url": .string(r.url),
                "headers": .record(headers), "elapsed": .double(r.elapsed), "body": body,
            ]
            if let how = r.cache { record["cache"] = .string(how) }
            return .record(record)
        case .opaque(let o as JSONTapeValue): return o.value
        case .opaque(is UndefinedValue): return .null
        case .opaque(let o): return .string(o.displayText)
        default: return self
        }
    }
}
