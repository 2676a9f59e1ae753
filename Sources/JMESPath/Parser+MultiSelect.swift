// Multiselect lists `[a, b]` and hashes `{key: a}`: several expressions evaluated against the same
// value, gathered into an array or an object.

extension Parser {
    /// After `[`: `[a, b, …]`.
    mutating func multiSelectList() throws(JMESPathError) -> P {
        var items: [P] = []
        while true {
            // A bare number is a literal elsewhere (`n > 5`), but not as an element here: `[0]`
            // after a dot (`foo.[0]`) reads as an index, and JMESPath makes it an error.
            if case .number = current.kind {
                switch lookahead(1) {
                case .comma, .rbracket: throw unexpected("in a multiselect list: a number here is written in backticks (`0`)")
                default: break
                }
            }
            items.append(try expression(0))
            if case .rbracket = current.kind { advance(); break }
            try expect(.comma, "or ']' in a multiselect list")
        }
        let d = 1 + (items.map(\.depth).max() ?? 0)
        guard d <= Self.maxDepth else { throw tooDeep() }
        return P(node: .multiSelectList(items.map(\.node)), depth: d)
    }

    /// After `{`: `{key: a, …}`.
    mutating func multiSelectHash() throws(JMESPathError) -> P {
        var pairs: [(key: String, value: Node)] = []
        var depth = 1
        while true {
            let key: String
            switch current.kind {
            case .unquotedIdentifier(let s), .quotedIdentifier(let s): key = s
            default: throw unexpected("in a multiselect hash: expected a key")
            }
            advance()
            try expect(.colon, "after the key '\(key)'")
            let v = try expression(0)
            pairs.append((key, v.node))
            depth = max(depth, v.depth + 1)
            switch current.kind {
            case .comma: advance()
            case .rbrace:
                advance()
                guard depth <= Self.maxDepth else { throw tooDeep() }
                return P(node: .multiSelectHash(pairs), depth: depth)
            default:
                throw unexpected("in a multiselect hash: expected ',' or '}'")
            }
        }
    }
}
