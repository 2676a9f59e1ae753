// Over 400 lines on purpose: the one recursive parser reads as one story (binding powers, nud and
// led for each token); the lexer is Lexer.swift, the tree it builds SyntaxTree.swift.
//
// The Pratt (top-down operator precedence) parser that builds the syntax tree.
//
// Nesting is capped twice: the parser's own recursion and the depth of the tree it builds both
// stop at `Parser.maxDepth`, so neither compiling nor evaluating hostile input can overflow the
// stack. Chains of `.field` and `[index]` steps are kept flat, so long paths cost no depth.

/// Builds the syntax tree from tokens.
struct Parser {
    /// The deepest nesting of expressions (parentheses, brackets, operators) accepted.
    static let maxDepth = 256

    /// A parsed node with the depth of its tree.
    private struct P {
        var node: Node
        var depth: Int
    }

    private let tokens: [Token]
    private var i = 0
    private var recursion = 0
    /// The variables the enclosing `let`s bind, by slot (innermost last).
    private var variables: [String] = []
    /// Whether the expression has a `$`.
    private var usesRoot = false

    /// Compiles `source` into a tree, and says whether it reads `$` (`legacyLiterals`: see
    /// `Lexer.tokenize`).
    static func parse(_ source: String, legacyLiterals: Bool = false) throws(JMESPathError) -> (node: Node, usesRoot: Bool) {
        var p = Parser(tokens: try Lexer.tokenize(source, legacyLiterals: legacyLiterals))
        let e = try p.expression(0)
        guard case .eof = p.current.kind else { throw p.unexpected("after a complete expression") }
        // An unknown function or a wrong number of arguments is said once the whole expression
        // has parsed: a syntax error anywhere in it comes first.
        if let deferred = p.deferred { throw deferred }
        return (e.node, p.usesRoot)
    }

    private init(tokens: [Token]) { self.tokens = tokens }

    /// The first unknown function or wrong number of arguments, said after the whole parse.
    private var deferred: JMESPathError?

    // MARK: token access

    private var current: Token { tokens[i] }

    private func lookahead(_ n: Int) -> TokenKind { tokens[min(i + n, tokens.count - 1)].kind }

    private mutating func advance() { if i < tokens.count - 1 { i += 1 } }

    private func syntax(_ message: String, at offset: Int) -> JMESPathError {
        JMESPathError(kind: .syntax, message: message, offset: offset)
    }

    private func unexpected(_ context: String) -> JMESPathError {
        syntax("unexpected \(current.kind.display) \(context)", at: current.offset)
    }

    private static func same(_ a: TokenKind, _ b: TokenKind) -> Bool {
        switch (a, b) {
        case (.rbracket, .rbracket), (.rparen, .rparen), (.rbrace, .rbrace), (.colon, .colon),
             (.comma, .comma), (.star, .star), (.assign, .assign), (.eof, .eof):
            return true
        default:
            return false
        }
    }

    private mutating func expect(_ k: TokenKind, _ context: String) throws(JMESPathError) {
        guard Self.same(current.kind, k) else {
            throw syntax("expected \(k.display) \(context), found \(current.kind.display)", at: current.offset)
        }
        advance()
    }

    // MARK: node construction with the depth cap

    private func leaf(_ n: Node) -> P { P(node: n, depth: 1) }

    private func make(_ n: Node, _ children: P...) throws(JMESPathError) -> P {
        let d = 1 + (children.map(\.depth).max() ?? 0)
        guard d <= Self.maxDepth else { throw tooDeep() }
        return P(node: n, depth: d)
    }

    private func tooDeep() -> JMESPathError {
        syntax("expression nested too deeply (more than \(Self.maxDepth) levels)", at: current.offset)
    }

    /// `left` followed by the step `right`, kept as one flat chain. `left` is taken, so that its
    /// steps are appended to in place: a chain of n steps is built in linear time, not quadratic.
    /// A step that would make something of a null is wrapped, so that a null ends the chain.
    private func chain(_ given: consuming P, _ step: P) throws(JMESPathError) -> P {
        var left = given
        var right = step
        if !right.node.keepsNull { right.node = .unlessNull(right.node) }
        if case .subexpression(var steps) = left.node {
            left.node = .current  // lets go of the old node: `steps` is now the array's one owner
            steps.append(right.node)
            let d = max(left.depth, right.depth + 1)
            guard d <= Self.maxDepth else { throw tooDeep() }
            return P(node: .subexpression(steps), depth: d)
        }
        return try make(.subexpression([left.node, right.node]), left, right)
    }

    // MARK: Pratt core

    private mutating func expression(_ bindingPower: Int) throws(JMESPathError) -> P {
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

    // MARK: pieces

    /// After `let` (the current token is a variable): `$a = x, $b = y in body`.
    private mutating func letExpression() throws(JMESPathError) -> P {
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

    private mutating func functionCall(_ left: P, at paren: Token) throws(JMESPathError) -> P {
        guard case .field(let name) = left.node else {
            throw syntax("'(' must follow a function name", at: paren.offset)
        }
        let nameOffset = tokens[max(0, i - 2)].offset
        var args: [P] = []
        while true {
            if case .rparen = current.kind { advance(); break }
            if case .expref = current.kind {
                advance()
                let e = try expression(0)
                args.append(try make(.expref(e.node), e))
            } else {
                args.append(try expression(0))
            }
            switch current.kind {
            case .comma:
                advance()
                if case .rparen = current.kind { throw unexpected("in a function call: expected an argument after ','") }
            case .rparen:
                continue
            default:
                throw syntax("expected ',' or ')' in the arguments of \(name)(), found \(current.kind.display)", at: current.offset)
            }
        }
        guard let f = Builtin(rawValue: name) else {
            if deferred == nil { deferred = JMESPathError(kind: .unknownFunction, message: "unknown function \(name)()", offset: nameOffset) }
            return leaf(.current)
        }
        let arity = f.arity
        if args.count < arity.min || args.count > arity.max ?? Int.max {
            let expected: String
            switch arity.max {
            case nil: expected = "at least \(arity.min) argument\(arity.min == 1 ? "" : "s")"
            case arity.min?: expected = "\(arity.min) argument\(arity.min == 1 ? "" : "s")"
            case let most?: expected = "\(arity.min) to \(most) arguments"
            }
            if deferred == nil {
                deferred = JMESPathError(kind: .invalidArity, message: "\(name)() takes \(expected), got \(args.count)", offset: nameOffset)
            }
            return leaf(.current)
        }
        let d = 1 + (args.map(\.depth).max() ?? 0)
        guard d <= Self.maxDepth else { throw tooDeep() }
        return P(node: .function(f, args.map(\.node)), depth: d)
    }

    private mutating func filter(_ left: P) throws(JMESPathError) -> P {
        let condition = try expression(0)
        try expect(.rbracket, "to close the filter '[?'")
        let right: P
        if case .flatten = current.kind { right = leaf(.current) } else { right = try projectionRHS(21) }
        return try make(.filterProjection(left.node, right.node, condition: condition.node), left, right, condition)
    }

    /// After `[` when a number or ':' follows: `[n]` or a slice.
    private mutating func indexOrSlice() throws(JMESPathError) -> P {
        if case .colon = current.kind { return try slice() }
        if case .colon = lookahead(1) { return try slice() }
        guard case .number(let n) = current.kind else { throw unexpected("in an index: expected a number") }
        advance()
        try expect(.rbracket, "after an index")
        return leaf(.index(n))
    }

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

    /// `left[n]` is a plain step; `left[a:b]` starts a projection over the sliced array.
    private mutating func projectIfSlice(_ left: consuming P, _ right: P) throws(JMESPathError) -> P {
        let indexed = try chain(consume left, right)
        guard case .slice = right.node else { return indexed }
        let rhs = try projectionRHS(20)
        return try make(.listProjection(indexed.node, rhs.node), indexed, rhs)
    }

    /// What follows a projection: stops at tokens that bind loosely, or continues with `.`, `[`, `[?`.
    private mutating func projectionRHS(_ bp: Int) throws(JMESPathError) -> P {
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
    private mutating func dotRHS(_ bp: Int) throws(JMESPathError) -> P {
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

    /// After `[`: `[a, b, …]`.
    private mutating func multiSelectList() throws(JMESPathError) -> P {
        var items: [P] = []
        while true {
            items.append(try expression(0))
            if case .rbracket = current.kind { advance(); break }
            try expect(.comma, "or ']' in a multiselect list")
        }
        let d = 1 + (items.map(\.depth).max() ?? 0)
        guard d <= Self.maxDepth else { throw tooDeep() }
        return P(node: .multiSelectList(items.map(\.node)), depth: d)
    }

    /// After `{`: `{key: a, …}`.
    private mutating func multiSelectHash() throws(JMESPathError) -> P {
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
