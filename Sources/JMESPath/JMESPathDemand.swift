// What of a document an expression can look at, so that a reader can build only that.

/// The part of a value an expression can observe: a reader may replace everything else by a
/// stand-in of the same type (an empty object, list or string, zero) without changing the
/// expression's result.
///
/// Found by walking the expression from its result back to its input: a field needs that member,
/// an index that element, a projection the same part of every element; anything that looks at a
/// whole value (a comparison, arithmetic, a function, truthiness) needs all of it. A list keeps
/// its length and an object the members asked for, so types, nulls and positions stay what they
/// were. `$` reads the input from wherever it stands, and a `$name` the value its `let` bound:
/// what they need is added to the input's, and to what the binding's expression needs.
public indirect enum JMESPathDemand: Sendable, Equatable {
    /// Nothing but the value's type (and whether it is null).
    case none
    /// All of the value.
    case all
    /// Parts of an object or a list.
    case parts(JMESPathParts)

    /// What both `self` and `other` need.
    public func union(_ other: JMESPathDemand) -> JMESPathDemand {
        switch (self, other) {
        case (.all, _), (_, .all): return .all
        case (.none, let d), (let d, .none): return d
        case (.parts(let a), .parts(let b)):
            var fields = a.fields
            for (k, d) in b.fields { fields[k] = fields[k].map { $0.union(d) } ?? d }
            var indexes = a.indexes
            for (i, d) in b.indexes { indexes[i] = indexes[i].map { $0.union(d) } ?? d }
            return .parts(fields: fields, indexes: indexes, every: a.every.union(b.every))
        }
    }

    /// What an element of a list needs when the list is needed as `self`.
    var element: JMESPathDemand {
        switch self {
        case .none, .all: return self
        case .parts(let p):
            var d = p.every
            for e in p.indexes.values { d = d.union(e) }
            for e in p.fields.values { d = d.union(e) }
            return d
        }
    }

    /// Every member of an object, or every element of a list, needing `d`.
    static func each(_ d: JMESPathDemand) -> JMESPathDemand {
        .parts(fields: [:], indexes: [:], every: d)
    }

    /// The deepest demand kept: a demand that would reach deeper asks for all of the value at
    /// that depth instead. No document is that deep (the readers stop at 512 levels), so nothing
    /// is built that the expression could look at and is not; and a chain of 50,000 steps makes
    /// a demand whose walks (`union`, equality, its release) stay shallow.
    static let maxDepth = 1024

    /// Parts of an object or a list, or all of the value when the parts would be deeper than
    /// `maxDepth`.
    static func parts(fields: [String: JMESPathDemand], indexes: [Int: JMESPathDemand], every: JMESPathDemand) -> JMESPathDemand {
        let p = JMESPathParts(fields: fields, indexes: indexes, every: every)
        return p.depth > maxDepth ? .all : .parts(p)
    }

    /// How many levels of parts the demand has (0 for `.none` and `.all`).
    var depth: Int {
        if case .parts(let p) = self { return p.depth }
        return 0
    }

    /// What the input of the whole expression `node` needs for its result to be needed as `result`.
    static func of(_ node: Node, result: JMESPathDemand) -> JMESPathDemand {
        var state = Uses()
        return of(node, result: result, &state).union(state.root)
    }

    /// What `$` and the variables are needed as, gathered while walking the tree.
    struct Uses {
        /// What the expression's input is needed as through `$`.
        var root = JMESPathDemand.none
        /// What each variable's value is needed as, by slot, within the `let`s being walked.
        var variables: [Int: JMESPathDemand] = [:]
        /// How many slots the enclosing `let`s bind.
        var bound = 0
    }

    /// What `node`'s input needs for its result to be needed as `result`; uses of `$` and of
    /// variables are added to `uses`.
    static func of(_ node: Node, result: JMESPathDemand, _ uses: inout Uses) -> JMESPathDemand {
        switch node {
        case .current:
            return result
        case .unlessNull(let step):
            return of(step, result: result, &uses)
        case .root:
            uses.root = uses.root.union(result)
            return .none
        case .variable(_, let slot):
            if let slot { uses.variables[slot] = (uses.variables[slot] ?? .none).union(result) }
            return .none
        case .letExpression(let bindings, let body):
            // The body first, to learn what each binding's value is needed as there; the
            // bindings take the slots after those of the enclosing lets, and are evaluated on
            // this input, in the enclosing scope.
            let first = uses.bound
            uses.bound += bindings.count
            var d = of(body, result: result, &uses)
            uses.bound = first
            for (k, binding) in bindings.enumerated() {
                let needed = uses.variables.removeValue(forKey: first + k) ?? .none
                d = d.union(of(binding, result: needed, &uses))
            }
            return d
        case .field(let name):
            return .parts(fields: [name: result], indexes: [:], every: .none)
        case .subexpression(let steps):
            var d = result
            for s in steps.reversed() { d = of(s, result: d, &uses) }
            return d
        case .index(let n):
            if n < 0 { return each(result) }  // counted from the end: every position must stay
            return .parts(fields: [:], indexes: [n: result], every: .none)
        case .slice:
            return each(result.element)
        case .listProjection(let left, let right):
            return of(left, result: each(of(right, result: result.element, &uses)), &uses)
        case .objectProjection(let left, let right):
            return of(left, result: each(of(right, result: result.element, &uses)), &uses)
        case .filterProjection(let left, let right, let condition):
            let element = of(condition, result: .all, &uses).union(of(right, result: result.element, &uses))
            return of(left, result: each(element), &uses)
        case .flatten(let inner):
            // An element is either kept as it is or replaced by its own elements.
            let e = result.element
            return of(inner, result: each(e.union(each(e))), &uses)
        case .literal:
            return .none
        case .multiSelectList(let items):
            var d = JMESPathDemand.none
            for (i, item) in items.enumerated() {
                let needed: JMESPathDemand
                switch result {
                case .none: needed = .none
                case .all: needed = .all
                case .parts(let p): needed = (p.indexes[i] ?? .none).union(p.every)
                }
                d = d.union(of(item, result: needed, &uses))
            }
            return d
        case .multiSelectHash(let pairs):
            var d = JMESPathDemand.none
            for pair in pairs {
                let needed: JMESPathDemand
                switch result {
                case .none: needed = .none
                case .all: needed = .all
                case .parts(let p): needed = (p.fields[pair.key] ?? .none).union(p.every)
                }
                d = d.union(of(pair.value, result: needed, &uses))
            }
            return d
        case .or(let a, let b), .and(let a, let b):
            // The left side's truthiness decides, and either side may be the result.
            return of(a, result: .all, &uses).union(of(b, result: result, &uses))
        case .not(let a):
            return of(a, result: .all, &uses)
        case .compare(_, let a, let b), .arithmetic(_, let a, let b):
            return of(a, result: .all, &uses).union(of(b, result: .all, &uses))
        case .unary(_, let a):
            return of(a, result: .all, &uses)
        case .ternary(let condition, let yes, let no):
            return of(condition, result: .all, &uses).union(of(yes, result: result, &uses)).union(of(no, result: result, &uses))
        case .pipe(let left, let right):
            return of(left, result: of(right, result: result, &uses), &uses)
        case .expref(let e):
            // Applied to anything by the function; its `$` and variables still count.
            _ = of(e, result: .all, &uses)
            return .all
        case .function(_, let args):
            var d = JMESPathDemand.none
            for arg in args { d = d.union(of(arg, result: .all, &uses)) }
            return d
        }
    }
}

/// The parts of an object or a list that are needed.
public struct JMESPathParts: Sendable, Equatable {
    /// Members of an object, by name (with what each needs).
    public let fields: [String: JMESPathDemand]
    /// Elements of a list, by position from the start.
    public let indexes: [Int: JMESPathDemand]
    /// What every member or element needs, besides the above (`.none`: an object keeps only
    /// the members named, a list keeps every element as a stand-in).
    public let every: JMESPathDemand
    /// How many levels of parts these are, themselves included.
    public let depth: Int

    init(fields: [String: JMESPathDemand], indexes: [Int: JMESPathDemand], every: JMESPathDemand) {
        self.fields = fields
        self.indexes = indexes
        self.every = every
        var deepest = every.depth
        for d in fields.values { deepest = max(deepest, d.depth) }
        for d in indexes.values { deepest = max(deepest, d.depth) }
        depth = 1 + deepest
    }
}
