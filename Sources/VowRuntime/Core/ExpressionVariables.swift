import VowValue

/// vow's variables inside a JMESPath expression (`let id = echo 7` then `pick 'items[?id ==
/// $id]'`): the expression is given them as JMESPath Community `let` bindings, each value as a
/// JSON literal: `let $id = `7` in (items[?id == $id])`. JMESPath's own `let` inside shadows them.
enum ExpressionVariables {
    /// False when `expression` names no variable for certain: it holds no `$`. Through the
    /// bytes in place (a short string's too): the UTF-8 view's own `contains` goes a byte at a
    /// time through its indices.
    static func mayName(_ expression: String) -> Bool {
        var text = expression
        return text.withUTF8 { $0.contains(UInt8(ascii: "$")) }
    }

    /// The names after a `$` in `expression`, outside its quoted parts ('raw strings', "quoted
    /// identifiers", `literals`), each once, in order; `$` alone (the root) is none.
    static func names(in expression: String) -> [String] {
        // Most expressions name no variable: their bytes are looked through once, not their characters.
        guard mayName(expression) else { return [] }
        var names: [String] = []
        var quote: Character? = nil
        var previous: Character? = nil
        var chars = expression.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? chars.next() {
            pending = nil
            defer { previous = c }
            if let q = quote {
                if c == q && previous != "\\" { quote = nil }
                continue
            }
            if c == "'" || c == "\"" || c == "`" {
                quote = c
                continue
            }
            guard c == "$" else { continue }
            var name = ""
            while let n = chars.next() {
                if n == "_" || n.isASCII && (n.isLetter || n.isNumber && !name.isEmpty) {
                    name.append(n)
                } else {
                    pending = n
                    break
                }
            }
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// `expression` given `values` (name and value, in order) as `let` bindings.
    static func bound(_ expression: String, _ values: [(name: String, value: Value)]) -> String {
        guard !values.isEmpty else { return expression }
        let bindings = values.map { "$\($0.name) = `" + JSONWriter.compact($0.value).replacing("`", with: "\\`") + "`" }
        return "let " + bindings.joined(separator: ", ") + " in (" + expression + ")"
    }
}
