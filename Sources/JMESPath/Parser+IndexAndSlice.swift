// Brackets holding numbers: an index `[n]` and a slice `[start:stop:step]`.

extension Parser {
    /// After `[` when a number or ':' follows: `[n]` or a slice.
    mutating func indexOrSlice() throws(JMESPathError) -> P {
        if case .colon = current.kind { return try slice() }
        if case .colon = lookahead(1) { return try slice() }
        guard case .number(let n) = current.kind else { throw unexpected("in an index: expected a number") }
        advance()
        try expect(.rbracket, "after an index")
        return leaf(.index(n))
    }

    /// After `[` when a slice follows: `[start:stop:step]`, any part left out.
    private mutating func slice() throws(JMESPathError) -> P {
        var parts: [Int?] = [nil, nil, nil]
        var k = 0
        while true {
            switch current.kind {
            case .rbracket:
                advance()
                if parts[2] == 0 {
                    throw JMESPathError(kind: .invalidValue, message: "slice step cannot be 0", offset: current.offset)
                }
                return leaf(.slice(parts[0], parts[1], parts[2]))
            case .colon:
                k += 1
                if k == 3 { throw syntax("a slice has at most two ':'", at: current.offset) }
                advance()
            case .number(let n):
                if parts[k] != nil { throw unexpected("in a slice: expected ':' or ']'") }
                parts[k] = n
                advance()
            default:
                throw unexpected("in a slice: expected a number, ':' or ']'")
            }
        }
    }
}
