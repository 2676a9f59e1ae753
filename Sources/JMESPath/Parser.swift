// The Pratt (top-down operator precedence) parser that builds the syntax tree: its state, token
// access and node construction. The Pratt loop with each token's nud and led is Parser+Pratt.swift;
// the constructs it reads are in the other Parser+ files; the lexer is Lexer.swift, the tree it
// builds SyntaxTree.swift.
//
// Nesting is capped twice: the parser's own recursion and the depth of the tree it builds both
// stop at `Parser.maxDepth`, so neither compiling nor evaluating hostile input can overflow the
// stack. Chains of `.field` and `[index]` steps are kept flat, so long paths cost no depth.

/// Builds the syntax tree from tokens.
struct Parser {
    /// The deepest nesting of expressions (parentheses, brackets, operators) accepted.
    static let maxDepth = 256

    /// A parsed node with the depth of its tree.
    struct P {
        var node: Node
        var depth: Int
    }

    /// The tokens being parsed, ending with `.eof`.
    let tokens: [Token]
    /// The index of the current token in `tokens`.
    var i = 0
    /// How deeply `expression` is nested in itself now.
    var recursion = 0
    /// The variables the enclosing `let`s bind, by slot (innermost last).
    var variables: [String] = []
    /// Whether the expression has a `$`.
    var usesRoot = false

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
    var deferred: JMESPathError?

    // MARK: token access

    /// The token being looked at.
    var current: Token { tokens[i] }

    /// The kind of the token `n` after the current one (`.eof` past the end).
    func lookahead(_ n: Int) -> TokenKind { tokens[min(i + n, tokens.count - 1)].kind }

    /// Moves to the next token; stays on the final `.eof`.
    mutating func advance() { if i < tokens.count - 1 { i += 1 } }

    /// A syntax error saying `message` at `offset` in the source.
    func syntax(_ message: String, at offset: Int) -> JMESPathError {
        JMESPathError(kind: .syntax, message: message, offset: offset)
    }

    /// A syntax error naming the current token as unexpected in `context`.
    func unexpected(_ context: String) -> JMESPathError {
        syntax("unexpected \(current.kind.display) \(context)", at: current.offset)
    }

    /// Whether two token kinds are the same, for the punctuation and `.eof` that `expect` looks for.
    static func same(_ a: TokenKind, _ b: TokenKind) -> Bool {
        switch (a, b) {
        case (.rbracket, .rbracket), (.rparen, .rparen), (.rbrace, .rbrace), (.colon, .colon),
             (.comma, .comma), (.star, .star), (.assign, .assign), (.eof, .eof):
            return true
        default:
            return false
        }
    }

    /// Steps over a token of kind `k`, or throws a syntax error naming `context`.
    mutating func expect(_ k: TokenKind, _ context: String) throws(JMESPathError) {
        guard Self.same(current.kind, k) else {
            throw syntax("expected \(k.display) \(context), found \(current.kind.display)", at: current.offset)
        }
        advance()
    }

    // MARK: node construction with the depth cap

    /// A node with no children: depth 1.
    func leaf(_ n: Node) -> P { P(node: n, depth: 1) }

    /// A node over `children`, one deeper than the deepest; throws past `maxDepth`.
    func make(_ n: Node, _ children: P...) throws(JMESPathError) -> P {
        let d = 1 + (children.map(\.depth).max() ?? 0)
        guard d <= Self.maxDepth else { throw tooDeep() }
        return P(node: n, depth: d)
    }

    /// The error for an expression nested deeper than `maxDepth`.
    func tooDeep() -> JMESPathError {
        syntax("expression nested too deeply (more than \(Self.maxDepth) levels)", at: current.offset)
    }

    /// `left` followed by the step `right`, kept as one flat chain. `left` is taken, so that its
    /// steps are appended to in place: a chain of n steps is built in linear time, not quadratic.
    /// A step that would make something of a null is wrapped, so that a null ends the chain.
    func chain(_ given: consuming P, _ step: P) throws(JMESPathError) -> P {
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
}
