// The syntax tree a compiled expression keeps: what the parser builds, the interpreter walks and
// the demand analysis reads.

/// A compiled expression's syntax tree.
indirect enum Node: Sendable {
    /// `@`: the current node.
    case current
    /// `$`: the value the search started from.
    case root
    /// `name` or `"name"`: an object field.
    case field(String)
    /// `a.b[0].c`: each step applied to the result of the previous one. A null ends the chain:
    /// steps that would make something of a null (`a.[b]`, `a.f(@)`) are `unlessNull`.
    case subexpression([Node])
    /// A step of a chain that gives something other than null on a null (a multiselect, a
    /// function): null when its input is.
    case unlessNull(Node)
    /// `[n]` (negative counts from the end).
    case index(Int)
    /// `[start:stop:step]`, on a list or a string.
    case slice(Int?, Int?, Int?)
    /// `left[*]right`, `left[]right`, `left[1:2]right`: right applied to each element of left
    /// (to the whole of a sliced string).
    case listProjection(Node, Node)
    /// `left.*right`: right applied to each value of the object left.
    case objectProjection(Node, Node)
    /// `left[?condition]right`.
    case filterProjection(Node, Node, condition: Node)
    /// `left[]`: one level of arrays merged.
    case flatten(Node)
    /// A backtick literal or a raw string.
    case literal(Literal)
    /// `[a, b]`.
    case multiSelectList([Node])
    /// `{k: a, l: b}`.
    case multiSelectHash([(key: String, value: Node)])
    /// `a || b`.
    case or(Node, Node)
    /// `a && b`.
    case and(Node, Node)
    /// `!a`.
    case not(Node)
    /// `a == b` and the other comparisons.
    case compare(Comparator, Node, Node)
    /// `a + b` and the other binary arithmetic operators.
    case arithmetic(ArithmeticOperator, Node, Node)
    /// `-a` (`.subtract`) and `+a` (`.add`).
    case unary(ArithmeticOperator, Node)
    /// `condition ? a : b`.
    case ternary(Node, Node, Node)
    /// `a | b`.
    case pipe(Node, Node)
    /// `&expr`: an expression passed unevaluated to a function.
    case expref(Node)
    /// `name(args…)`.
    case function(Builtin, [Node])
    /// `let $a = x, $b = y in body`: the bindings are evaluated in the enclosing scope, then
    /// body with them visible. Variables live in slots numbered from the outermost `let`, so
    /// the bindings take the slots after the enclosing ones.
    case letExpression([Node], body: Node)
    /// `$name`, resolved at compile time to its slot; `nil` when no enclosing `let` binds it
    /// (an `undefined-variable` error when evaluated).
    case variable(String, slot: Int?)
    /// What a fold (`ListFold`) computed of a list as its elements came: only in the copy of a
    /// tree a fold evaluates at its end, never in one the parser builds.
    case folded(FoldedSite)
}

extension Node {
    /// Whether the node gives null whenever its input is null (a field, an index, a slice, a
    /// projection or flattening of one), so that a chain needs no check before it.
    var keepsNull: Bool {
        switch self {
        case .current, .field, .index, .slice, .unlessNull:
            return true
        case .subexpression(let steps):
            return steps.first?.keepsNull ?? true
        case .listProjection(let left, _), .objectProjection(let left, _), .filterProjection(let left, _, _), .flatten(let left):
            return left.keepsNull
        default:
            return false
        }
    }
}

/// A comparison operator.
enum Comparator: Sendable { case eq, ne, lt, lte, gt, gte }

/// An arithmetic operator: `+`, `-` (or `−`), `*` (or `×`), `/` (or `÷`), `//`, `%`.
enum ArithmeticOperator: Sendable {
    case add, subtract, multiply, divide, intDivide, modulo

    /// How the operator is written, for error messages.
    var symbol: String {
        switch self {
        case .add: return "+"
        case .subtract: return "-"
        case .multiply: return "*"
        case .divide: return "/"
        case .intDivide: return "//"
        case .modulo: return "%"
        }
    }
}
