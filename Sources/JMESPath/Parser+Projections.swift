// Projections (`[*]`, `*`, `[]`, `[?…]`, a slice) and what may follow them or a `.`: the right-hand
// side that is evaluated for each element.

extension Parser {
    /// After `[?`: the condition, `]`, then what is projected over the elements that pass.
    mutating func filter(_ left: P) throws(JMESPathError) -> P {
        let condition = try expression(0)
        try expect(.rbracket, "to close the filter '[?'")
        let right: P
        if case .flatten = current.kind { right = leaf(.current) } else { right = try projectionRHS(21) }
        return try make(.filterProjection(left.node, right.node, condition: condition.node), left, right, condition)
    }

    /// `left[n]` is a plain step; `left[a:b]` starts a projection over the sliced array.
    mutating func projectIfSlice(_ left: consuming P, _ right: P) throws(JMESPathError) -> P {
        let indexed = try chain(consume left, right)
        guard case .slice = right.node else { return indexed }
        let rhs = try projectionRHS(20)
        return try make(.listProjection(indexed.node, rhs.node), indexed, rhs)
    }

    /// What follows a projection: stops at tokens that bind loosely, or continues with `.`, `[`, `[?`.
    mutating func projectionRHS(_ bp: Int) throws(JMESPathError) -> P {
        if current.kind.bindingPower < 10 { return leaf(.current) }
        switch current.kind {
        case .lbracket, .filter:
            return try expression(bp)
        case .dot:
            advance()
            return try dotRHS(bp)
        default:
            throw unexpected("after a projection: expected '.', '[', '[?', '|' or the end")
        }
    }

    /// What follows `.`: an identifier, `*`, a multiselect list or hash.
    mutating func dotRHS(_ bp: Int) throws(JMESPathError) -> P {
        switch current.kind {
        case .unquotedIdentifier, .quotedIdentifier, .star:
            return try expression(bp)
        case .lbracket:
            advance()
            return try multiSelectList()
        case .lbrace:
            advance()
            return try multiSelectHash()
        default:
            throw unexpected("after '.': expected an identifier, '*', '[' or '{'")
        }
    }
}
