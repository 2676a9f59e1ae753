import JMESPath
import VowHTTP
import VowValue

/// JMESPath searches on values, with responses read through their body.
public enum Pick {
    /// Searches `value` (a response's parsed body) with the compiled, cached expression.
    public static func search(_ expression: String, in value: Value) throws -> Value {
        let expr: JMESPathExpression
        do { expr = try JMESPathExpression.cached(expression) } catch { throw pickError(error, expression) }
        let searched = try body(value)
        do { return try expr.search(searched) } catch { throw pickError(error, expression) }
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
        if let off = e.offset {
            d["offset"] = .int(off)
            let (shown, caret) = excerpt(expression, around: off)
            msg += "\n    \(shown)\n    \(String(repeating: " ", count: caret))^"
        }
        return VowError(.pick, msg, details: d)
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
