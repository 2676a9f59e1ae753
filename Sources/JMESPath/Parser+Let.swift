// `let $a = x, $b = y in body`: variables bound for the body, looked up by slot.

extension Parser {
    /// After `let` (the current token is a variable): `$a = x, $b = y in body`.
    mutating func letExpression() throws(JMESPathError) -> P {
        var bindings: [P] = []
        var names: [String] = []
        while true {
            guard case .variable(let name) = current.kind else { throw unexpected("in a let: expected a variable ($name)") }
            advance()
            try expect(.assign, "after $\(name) in a let")
            bindings.append(try expression(0))
            names.append(name)
            if case .unquotedIdentifier("in") = current.kind {
                advance()
                break
            }
            guard case .comma = current.kind else { throw unexpected("in a let: expected ',' or 'in'") }
            advance()
        }
        variables += names
        defer { variables.removeLast(names.count) }
        let body = try expression(0)
        let d = 1 + max(body.depth, bindings.map(\.depth).max() ?? 0)
        guard d <= Self.maxDepth else { throw tooDeep() }
        return P(node: .letExpression(bindings.map(\.node), body: body.node), depth: d)
    }
}
