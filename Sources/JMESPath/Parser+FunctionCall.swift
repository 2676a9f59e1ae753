// A function call `name(arg, &expr, …)`: its name and number of arguments are checked here,
// against `Builtin`, once the call has parsed.

extension Parser {
    /// After `name(` (the current token is the first argument or `)`): the call, its arguments
    /// parsed, `&expr` kept as an expression reference. An unknown name or a wrong number of
    /// arguments is noted in `deferred` and parses as `@`.
    mutating func functionCall(_ left: P, at paren: Token) throws(JMESPathError) -> P {
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
}
