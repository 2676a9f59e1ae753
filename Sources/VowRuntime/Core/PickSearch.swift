import JMESPath
import VowHTTP
import VowValue

/// JMESPath searches on values, with responses read through their body.
public enum Pick {
    /// Searches `value` (a response's parsed body) with the compiled, cached expression.
    public static func search(_ expression: String, in value: Value) throws -> Value {
        let expr: JMESPathExpression
        do { expr = try JMESPathExpression.cached(expression) } catch { throw pickError(error, expression) }
        // A list of responses whose bodies are JSON is searched in one tape of their bodies.
        if let tape = bodiesTape(value) {
            do { return try tape.search(expr) } catch { throw pickError(error, expression) }
        }
        let searched = try body(value)
        do { return try expr.search(searched) } catch { throw pickError(error, expression) }
    }

    /// A list of responses (`each fetch …`), every body JSON, as one tape of the list of their
    /// bodies (`JSONLinesTape`): what `pick` searches, without making values of every body (a
    /// body of 1 KB is several as values, and all of them were made before the search began).
    /// nil when an element is not a response or a body is not one JSON document as the reader
    /// reads it: `body` then reads the list, and says which body is not JSON.
    static func bodiesTape(_ v: Value) -> JSONTape? {
        guard case .list(let items) = v, case .response? = items.first else { return nil }
        let lines = JSONLinesTape()
        for item in items {
            guard case .response(let r) = item, r.body.withUnsafeBufferPointer({ lines.append($0) }) else { return nil }
        }
        return lines.finish()
    }

    /// Searches as `search` does, and reads text as `pick` does: text that holds a JSON object or
    /// list (`read users.json`, `stdin`) is searched as that JSON, as a response's body is; other
    /// text is searched as a string, and a search of it that finds nothing (null: `pick a` on
    /// `hello`) rejects, saying what the text starts with and how to read it, instead of giving
    /// null. `stage` names the stage in the error.
    public static func searchReadingText(_ expression: String, in value: Value, stage: String) throws -> Value {
        guard case .string(let text) = value else { return try search(expression, in: value) }
        if let parsed = jsonText(text) { return try search(expression, in: parsed) }
        let found = try search(expression, in: value)
        guard found.isNull else { return found }
        throw VowError(
            .type,
            "\(stage): '\(expression)' finds nothing in text: the input is text, not JSON (\(textStart(text))); `| json` reads JSON text, `| lines` splits text into lines",
            details: ["expression": .string(expression)])
    }

    /// The JSON in `text` when its first character but white space is `{` or `[` and the whole
    /// parses; nil for any other text.
    public static func jsonText(_ text: String) -> Value? {
        guard opensObjectOrList(text) else { return nil }
        return try? JSON.parse(text)
    }

    /// Whether the first character of `text` but white space is `{` or `[` (`jsonText`'s test).
    static func opensObjectOrList(_ text: String) -> Bool {
        guard let first = text.utf8.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// How an error shows the start of some text: `it starts "…"`, its first line cut at 60
    /// characters, or `it is empty`.
    static func textStart(_ text: String) -> String {
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return "it is empty" }
        let cut = line.count > 60 ? line.prefix(60) + "…" : line
        return "it starts \"\(cut)\""
    }

    /// Searches a document's tape with the compiled, cached expression. With `keepingTape`
    /// (the value goes straight to the printer), a result that holds objects or lists of the
    /// tape stays in it (`JSONTapeValue`) and is printed from it.
    public static func search(_ expression: String, in tape: JSONTape, keepingTape: Bool) throws -> Value {
        let expr: JMESPathExpression
        do { expr = try JMESPathExpression.cached(expression) } catch { throw pickError(error, expression) }
        do {
            guard keepingTape else { return try tape.search(expr) }
            let result = try tape.searchKeepingTape(expr)
            let kept = JSONTapeValue(tape: tape, result: result)
            return result.holdsTapeContainer ? .opaque(kept) : kept.value
        } catch {
            throw pickError(error, expression)
        }
    }

    /// What `pick` searches: a response's JSON body, else the value itself. A response whose body
    /// is not JSON (an HTML page, an empty body) rejects with kind `json`, naming its content type
    /// and showing the start of the body, rather than giving null.
    public static func body(_ v: Value) throws -> Value {
        // A list of responses (`each fetch …`) is searched as the list of their bodies.
        // Known by its first element: a pick on any other list pays nothing.
        if case .list(let items) = v, case .response? = items.first {
            return .list(try items.map(body))
        }
        guard case .response(let r) = v else { return v }
        do {
            return try JSON.parse(r.body)
        } catch {
            let type = r.header("Content-Type") ?? "none"
            let start: String
            if r.body.isEmpty {
                start = "the body is empty"
            } else if let text = String(validating: r.body.prefix(200), as: UTF8.self) ?? String(validating: r.body.prefix(197), as: UTF8.self) {
                let line = text.split(whereSeparator: \.isNewline).prefix(3).joined(separator: " ")
                start = "it starts: " + String(line.prefix(120)) + (r.body.count > 120 ? "…" : "")
            } else {
                start = "it is \(r.body.count) bytes of binary data"
            }
            var d = Record()
            d["contentType"] = .string(type)
            d["status"] = .int(r.status)
            d["url"] = .string(redactURL(r.url))
            throw VowError(.json, "pick: the body is not JSON (Content-Type: \(type)); \(start) — \(r.method) \(redactURL(r.url))", details: d)
        }
    }

    /// What `each`, `keys` and `values` read: a response's JSON body (or its text), else the value.
    public static func target(_ v: Value) -> Value {
        if case .response(let r) = v {
            if let parsed = try? JSON.parse(r.body) { return parsed }
            return .string(String(decoding: r.body, as: UTF8.self))
        }
        return v
    }

    static func pickError(_ e: JMESPathError, _ expression: String) -> VowError {
        var d = Record()
        d["reason"] = .string(e.kind.rawValue)
        d["expression"] = .string(expression)
        let length = expression.count
        let named =
            length <= excerptLength
            ? "'\(expression)'"
            : "'\(expression.prefix(excerptLength / 2))…' (\(length) characters\(e.offset.map { ", the culprit at character \($0)" } ?? ""))"
        var msg = "\(e.kind.rawValue): \(e.message) in \(named)"
        if e.kind == .syntax, let hint = habitHint(expression) { msg += "; \(hint)" }
        if let off = e.offset {
            d["offset"] = .int(off)
            let (shown, caret) = excerpt(expression, around: off)
            msg += "\n    \(shown)\n    \(String(repeating: " ", count: caret))^"
        }
        return VowError(.pick, msg, details: d)
    }

    /// What an expression that does not parse may have meant, written as a jq or JavaScript
    /// user would: jq's leading dots (`.[0]`, `.name`, `.[] | .a`) and bare numbers in a
    /// comparison (`age > 30`, a literal in JMESPath: `` `30` ``). The JMESPath form is given
    /// when it parses; nil when neither habit is seen.
    static func habitHint(_ expression: String) -> String? {
        var rewritten = expression.replacingOccurrences(of: ".[]", with: "[*]")
        // A dot that starts a path: at the start, or after `|`, `(`, `[`, `,`, `{`, `:`, a space.
        rewritten = rewritten.replacing(/(^|[\s|(\[,{:])\.(?=[\[A-Za-z_"])/) { $0.output.1 + "" }
        // jq's `.[] | .name` maps over the list: JMESPath's projection `[*].name`.
        rewritten = rewritten.replacing(/\[\*\]\s*\|\s*(?=[A-Za-z_"])/) { _ in "[*]." }
        let dotted = rewritten != expression
        // A bare number after a comparison is a JSON literal in JMESPath.
        let numbered = rewritten.replacing(/([<>=!]=?\s*)(-?[0-9]+(?:\.[0-9]+)?)(?![0-9`])/) { $0.output.1 + "`" + $0.output.2 + "`" }
        let literals = numbered != rewritten
        guard dotted || literals else { return nil }
        var said: [String] = []
        if dotted { said.append("a path has no leading dot in JMESPath (jq's `.[0]` is `[0]`, `.[]` is `[*]`)") }
        if literals { said.append("a number is a literal in backticks (`30`)") }
        if expression.contains("select(") { said.append("jq's select(…) is a filter, `[?…]`") }
        if (try? JMESPathExpression.cached(numbered)) != nil {
            let quoted = numbered.contains("'") ? "\"\(numbered)\"" : "'\(numbered)'"
            return said.joined(separator: "; ") + ": write \(quoted)"
        }
        return said.joined(separator: "; ")
    }

    /// The longest expression an error shows whole.
    static let excerptLength = 120

    /// `expression` as an error shows it, with the column of the character at `offset` in what
    /// is shown: the whole expression when it is short, else a window around `offset`, its cut
    /// ends marked `…` (an expression of 50,000 steps is not printed whole, twice).
    static func excerpt(_ expression: String, around offset: Int) -> (text: String, caret: Int) {
        let chars = Array(expression)
        guard chars.count > excerptLength else { return (expression, min(offset, chars.count)) }
        let at = max(0, min(offset, chars.count))
        let from = max(0, at - excerptLength / 2)
        let to = min(chars.count, from + excerptLength)
        let head = from > 0 ? "…" : ""
        let tail = to < chars.count ? "…" : ""
        return (head + String(chars[from..<to]) + tail, head.count + at - from)
    }
}
