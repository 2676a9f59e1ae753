// The Pratt loop: an expression is a nud (what its first token means) followed by leds (what each
// operator means after what came before), each led taken while its token binds tighter than the
// expression being read. Binding powers are `TokenKind.bindingPower`.

extension Parser {
    /// An expression: a nud, then leds while the next token binds tighter than `bindingPower`.
    mutating func expression(_ bindingPower: Int) throws(JMESPathError) -> P {
        recursion += 1
        defer { recursion -= 1 }
        guard recursion <= Self.maxDepth else { throw tooDeep() }
        let token = current
        advance()
        var left = try nud(token)
        while bindingPower < current.kind.bindingPower {
            let t = current
            advance()
            // Moved, not copied: a chain `a.b.c…` then grows its one array in place.
            left = try led(t, consume left)
        }
        return left
    }

    /// What `t` means at the start of an expression (its null denotation).
    private mutating func nud(_ t: Token) throws(JMESPathError) -> P {
        switch t.kind {
        case .literal(let l):
            return leaf(.literal(l))
        case .rawString(let s):
            return leaf(.literal(.string(s)))
        case .unquotedIdentifier(let s):
            if s == "let", case .variable = current.kind { return try letExpression() }
            return leaf(.field(s))
        case .variable(let name):
            return leaf(.variable(name, slot: variables.lastIndex(of: name)))
        case .root:
            usesRoot = true
            return leaf(.root)
        case .minus, .plus:
            let e = try expression(t.kind.bindingPower)
            let op: ArithmeticOperator
            if case .minus = t.kind { op = .subtract } else { op = .add }
            return try make(.unary(op, e.node), e)
        case .quotedIdentifier(let s):
            if case .lparen = current.kind {
                throw syntax("a quoted identifier cannot name a function", at: t.offset)
            }
            return leaf(.field(s))
        case .current:
            return leaf(.current)
        case .star:
            let right: P
            if case .rbracket = current.kind { right = leaf(.current) } else { right = try projectionRHS(20) }
            return try make(.objectProjection(.current, right.node), right)
        case .filter:
            return try filter(leaf(.current))
        case .lbrace:
            return try multiSelectHash()
        case .lparen:
            let e = try expression(0)
            try expect(.rparen, "to close '('")
            return e
        case .flatten:
            let left = try make(.flatten(.current))
            let right = try projectionRHS(9)
            return try make(.listProjection(left.node, right.node), left, right)
        case .not:
            let e = try expression(45)
            return try make(.not(e.node), e)
        case .lbracket:
            switch current.kind {
            case .number, .colon:
                return try projectIfSlice(leaf(.current), try indexOrSlice())
            case .star where Self.same(lookahead(1), .rbracket):
                advance()
                advance()
                let right = try projectionRHS(20)
                return try make(.listProjection(.current, right.node), right)
            default:
                return try multiSelectList()
            }
        case .number(let n):
            // A bare number is a number literal (`n > 5`): JMESPath has none outside an index or
            // a slice, which never reach here, so this only widens what parses.
            if case .dot = current.kind, case .number = lookahead(1) {
                throw syntax("a bare number is a whole number: write one with a fraction in backticks, as `2.5`", at: t.offset)
            }
            return leaf(.literal(.int(n)))
        case .expref:
            // `&expr` is an argument of a function (`sort_by(@, &n)`), nothing else: it never
            // escapes as a value.
            throw syntax("'&' makes an expression reference, which only a function's argument may be", at: t.offset)
        case .eof:
            throw syntax("unexpected end of expression: expected an expression", at: t.offset)
        default:
            throw syntax("unexpected \(t.kind.display): expected an expression", at: t.offset)
        }
    }

    /// What `t` means after the expression `left` (its left denotation).
    private mutating func led(_ t: Token, _ left: consuming P) throws(JMESPathError) -> P {
        switch t.kind {
        case .dot:
            if case .star = current.kind {
                advance()
                let right = try projectionRHS(40)
                return try make(.objectProjection(left.node, right.node), left, right)
            }
            let right = try dotRHS(40)
            return try chain(consume left, right)
        case .pipe:
            let right = try expression(t.kind.bindingPower)
            return try make(.pipe(left.node, right.node), left, right)
        case .question:
            // The true branch runs to the ':'; the false branch binds as the operator does, but
            // to the right, so `a ? b : c ? d : e` nests and `a ? b : c | d` pipes the whole.
            let yes = try expression(0)
            try expect(.colon, "between the branches of '?'")
            let no = try expression(t.kind.bindingPower - 1)
            return try make(.ternary(left.node, yes.node, no.node), left, yes, no)
        case .or:
            let right = try expression(t.kind.bindingPower)
            return try make(.or(left.node, right.node), left, right)
        case .and:
            let right = try expression(t.kind.bindingPower)
            return try make(.and(left.node, right.node), left, right)
        case .plus, .minus:
            let right = try expression(t.kind.bindingPower)
            let op: ArithmeticOperator
            if case .plus = t.kind { op = .add } else { op = .subtract }
            return try make(.arithmetic(op, left.node, right.node), left, right)
        case .star, .multiply, .divide, .intDivide, .modulo:
            let op: ArithmeticOperator
            switch t.kind {
            case .divide: op = .divide
            case .intDivide: op = .intDivide
            case .modulo: op = .modulo
            default: op = .multiply
            }
            // `*` binds as a wildcard to its left, and as a multiplication to its right.
            let right = try expression(TokenKind.multiply.bindingPower)
            return try make(.arithmetic(op, left.node, right.node), left, right)
        case .eq, .ne, .lt, .lte, .gt, .gte:
            let op: Comparator
            switch t.kind {
            case .eq: op = .eq
            case .ne: op = .ne
            case .lt: op = .lt
            case .lte: op = .lte
            case .gt: op = .gt
            default: op = .gte
            }
            let right = try expression(5)
            return try make(.compare(op, left.node, right.node), left, right)
        case .lparen:
            return try functionCall(left, at: t)
        case .filter:
            return try filter(left)
        case .flatten:
            let flat = try make(.flatten(left.node), left)
            let right = try projectionRHS(9)
            return try make(.listProjection(flat.node, right.node), flat, right)
        case .lbracket:
            switch current.kind {
            case .number, .colon:
                let step = try indexOrSlice()
                // Moved, not copied, as for `.`: a chain `[0][0]…` grows its one array in place.
                return try projectIfSlice(consume left, step)
            default:
                try expect(.star, "or an index after '['")
                try expect(.rbracket, "after '[*'")
                let right = try projectionRHS(20)
                return try make(.listProjection(left.node, right.node), left, right)
            }
        default:
            throw syntax("unexpected \(t.kind.display)", at: t.offset)
        }
    }
}
