// Which expressions over a list a fold (`ListFold`) computes, and their aggregates: the fold
// analysis.

/// Walks an expression searching a list and finds whether it reads the list only through
/// aggregates a fold computes element by element:
///
/// - `length(A)`, `sum(A)` and `avg(A)` where A is the list (`@`) through element-wise steps:
///   projections `[*].x`, filters `[?c]` / `[?c].x`, `map(&x, …)`;
/// - `group_by(A, &key)`, A as above, when its groups' lists are read only through such
///   aggregates: its object's keys (`keys`, `items(…)[*][0]`) as they are, its lists through
///   `items(G)[*]` / `map(&…, items(G))` (`[1]` of each pair), `values(G)[*]`, `G.*` or `G.name`.
///
/// Anything else may be around them (multiselects, arithmetic, comparisons, functions,
/// `from_items`, pipes of their results), as long as nothing else reads the list, a group's list
/// or an element: the expression then gets its plan, with each aggregate replaced by its result's
/// place (`FoldedSite`). The steps and keys, evaluated on each element, may not read `$` or a
/// variable.
struct FoldAnalysis {
    /// A value as the analysis sees it.
    enum Shape: Equatable {
        /// Not made of the list: the same in the rewritten expression.
        case plain
        /// The list itself.
        case stream
        /// `group_by`'s object (the number of the group plan).
        case groups(Int)
        /// `items` of it: pairs of a key and a group's list.
        case pairs(Int)
        /// One such pair.
        case pair(Int)
        /// `values` of it, `G.*`: the groups' lists.
        case groupLists(Int)
        /// One group's list.
        case groupList(Int)
    }

    /// An aggregate of the whole list.
    struct Site {
        let slot: Int
        let reducer: FoldReducer
        let steps: [FoldStep]
    }

    /// A `group_by` over the list, with the aggregates of its groups.
    struct Group {
        let slot: Int
        let steps: [FoldStep]
        let key: Node
        var sites: [Site] = []
    }

    /// What the analysis gives: the expression rewritten, where its aggregates' results go,
    /// and the aggregates.
    struct Plan {
        let rewritten: Node
        let results: FoldResults
        /// How many aggregates there are.
        let slots: Int
        let sites: [Site]
        let groups: [Group]
    }

    /// Raised for what a fold does not compute.
    struct CannotFold: Error {}

    private var sites: [Site] = []
    private var groups: [Group] = []
    /// How many aggregates there are so far (the next one's slot).
    private var slots = 0
    /// Where the rewritten expression reads the results (`FoldedSite`), filled by the fold.
    private let results = FoldResults()

    /// The plan of `root`, or nil when a fold does not compute it. An expression that reads
    /// no aggregate of the list gets none: there is nothing to fold.
    static func plan(_ root: Node) -> Plan? {
        var a = FoldAnalysis()
        guard let (shape, rewritten) = try? a.walk(root, on: .stream), shape == .plain, a.slots > 0 else { return nil }
        return Plan(rewritten: rewritten, results: a.results, slots: a.slots, sites: a.sites, groups: a.groups)
    }

    /// A new slot, and the place in the rewritten tree that reads its result.
    private mutating func place(base: Node?, original: Node) -> (Int, Node) {
        let slot = slots
        slots += 1
        return (slot, .folded(FoldedSite(results: results, slot: slot, base: base, original: original)))
    }

    /// A plain result: the shape must be `.plain`.
    private func plain(_ r: (Shape, Node)) throws(CannotFold) -> Node {
        guard r.0 == .plain else { throw CannotFold() }
        return r.1
    }

    /// `node` as the base of a list and the element-wise steps applied to it, innermost first.
    private func decompose(_ node: Node) -> (base: Node, steps: [FoldStep]) {
        switch node {
        case .listProjection(let left, let right):
            var (b, s) = decompose(left)
            s.append(FoldStep(condition: nil, projection: Self.isCurrent(right) ? nil : right, dropsNull: true))
            return (b, s)
        case .filterProjection(let left, let right, let condition):
            var (b, s) = decompose(left)
            s.append(FoldStep(condition: condition, projection: Self.isCurrent(right) ? nil : right, dropsNull: true))
            return (b, s)
        case .function(.map, let args) where args.count == 2:
            guard case .expref(let body) = args[0] else { return (node, []) }
            var (b, s) = decompose(args[1])
            s.append(FoldStep(condition: nil, projection: body, dropsNull: false))
            return (b, s)
        default:
            return (node, [])
        }
    }

    /// The list `steps` make of `base`, written back as the nodes `decompose` took apart.
    private static func recompose(_ base: Node, _ steps: [FoldStep]) -> Node {
        var n = base
        for s in steps {
            if let c = s.condition {
                n = .filterProjection(n, s.projection ?? .current, condition: c)
            } else if s.dropsNull {
                n = .listProjection(n, s.projection ?? .current)
            } else {
                n = .function(.map, [.expref(s.projection ?? .current), n])
            }
        }
        return n
    }

    private static func isCurrent(_ n: Node) -> Bool {
        if case .current = n { return true }
        return false
    }

    /// The steps, when each reads only its element (no `$`, variable or `let`).
    private func elementWise(_ steps: [FoldStep]) throws(CannotFold) -> [FoldStep] {
        for s in steps {
            if let c = s.condition { try Self.checkElementWise(c) }
            if let p = s.projection { try Self.checkElementWise(p) }
        }
        return steps
    }

    /// Throws when `node` reads anything but its current value and literals.
    static func checkElementWise(_ node: Node) throws(CannotFold) {
        switch node {
        case .root, .variable, .letExpression, .folded: throw CannotFold()
        case .current, .field, .index, .slice, .literal: return
        case .subexpression(let a), .multiSelectList(let a): for n in a { try checkElementWise(n) }
        case .unlessNull(let a), .flatten(let a), .not(let a), .unary(_, let a), .expref(let a): try checkElementWise(a)
        case .listProjection(let a, let b), .objectProjection(let a, let b), .or(let a, let b), .and(let a, let b),
            .compare(_, let a, let b), .arithmetic(_, let a, let b), .pipe(let a, let b):
            try checkElementWise(a)
            try checkElementWise(b)
        case .filterProjection(let a, let b, let c), .ternary(let a, let b, let c):
            try checkElementWise(a)
            try checkElementWise(b)
            try checkElementWise(c)
        case .multiSelectHash(let pairs): for p in pairs { try checkElementWise(p.value) }
        case .function(_, let args): for n in args { try checkElementWise(n) }
        }
    }

    /// The shape of `node`'s value when the current value has shape `current`, and `node`
    /// rewritten.
    mutating func walk(_ node: Node, on current: Shape) throws(CannotFold) -> (Shape, Node) {
        switch node {
        case .current:
            return (current, node)
        case .literal:
            return (.plain, node)
        case .root, .variable, .letExpression, .expref, .folded:
            throw CannotFold()
        case .field:
            switch current {
            case .plain: return (.plain, node)
            case .groups(let g): return (.groupList(g), node)
            default: throw CannotFold()
            }
        case .index(let n):
            switch current {
            case .plain: return (.plain, node)
            case .pair where n == 0 || n == -2: return (.plain, node)
            case .pair(let g) where n == 1 || n == -1: return (.groupList(g), node)
            default: throw CannotFold()
            }
        case .slice:
            guard current == .plain else { throw CannotFold() }
            return (.plain, node)
        case .subexpression(let steps):
            var s = current
            var out: [Node] = []
            for step in steps {
                let (t, n) = try walk(step, on: s)
                s = t
                out.append(n)
            }
            return (s, .subexpression(out))
        case .unlessNull(let step):
            let (s, n) = try walk(step, on: current)
            return (s, .unlessNull(n))
        case .listProjection(let left, let right):
            let (base, l) = try walk(left, on: current)
            let r = try plain(walk(right, on: try Self.elementShape(base)))
            return (.plain, .listProjection(l, r))
        case .objectProjection(let left, let right):
            let (base, l) = try walk(left, on: current)
            let each: Shape
            switch base {
            case .plain: each = .plain
            case .groups(let g): each = .groupList(g)
            default: throw CannotFold()
            }
            return (.plain, .objectProjection(l, try plain(walk(right, on: each))))
        case .filterProjection(let left, let right, let condition):
            let (base, l) = try walk(left, on: current)
            let each = try Self.elementShape(base)
            let c = try plain(walk(condition, on: each))
            return (.plain, .filterProjection(l, try plain(walk(right, on: each)), condition: c))
        case .flatten(let inner):
            return (.plain, .flatten(try plain(walk(inner, on: current))))
        case .multiSelectList(let items):
            var out: [Node] = []
            for item in items { out.append(try plain(walk(item, on: current))) }
            return (.plain, .multiSelectList(out))
        case .multiSelectHash(let pairs):
            var out: [(key: String, value: Node)] = []
            for p in pairs { out.append((p.key, try plain(walk(p.value, on: current)))) }
            return (.plain, .multiSelectHash(out))
        case .or(let a, let b):
            return (.plain, .or(try plain(walk(a, on: current)), try plain(walk(b, on: current))))
        case .and(let a, let b):
            return (.plain, .and(try plain(walk(a, on: current)), try plain(walk(b, on: current))))
        case .compare(let op, let a, let b):
            return (.plain, .compare(op, try plain(walk(a, on: current)), try plain(walk(b, on: current))))
        case .arithmetic(let op, let a, let b):
            return (.plain, .arithmetic(op, try plain(walk(a, on: current)), try plain(walk(b, on: current))))
        case .not(let a):
            return (.plain, .not(try plain(walk(a, on: current))))
        case .unary(let op, let a):
            return (.plain, .unary(op, try plain(walk(a, on: current))))
        case .ternary(let c, let y, let n):
            return (
                .plain,
                .ternary(try plain(walk(c, on: current)), try plain(walk(y, on: current)), try plain(walk(n, on: current)))
            )
        case .pipe(let a, let b):
            let (s, l) = try walk(a, on: current)
            let (t, r) = try walk(b, on: s)
            return (t, .pipe(l, r))
        case .function(let f, let args):
            return try call(node, f, args, on: current)
        }
    }

    /// The shape of each element a projection over a value of shape `base` gets.
    private static func elementShape(_ base: Shape) throws(CannotFold) -> Shape {
        switch base {
        case .plain: return .plain
        case .pairs(let g): return .pair(g)
        case .groupLists(let g): return .groupList(g)
        default: throw CannotFold()
        }
    }

    /// A function call: an aggregate of the list or of a group's list, `group_by` over the
    /// list, `items`/`values`/`keys`/`map` over its groups, or any function of plain values.
    private mutating func call(_ node: Node, _ f: Builtin, _ args: [Node], on current: Shape) throws(CannotFold) -> (Shape, Node) {
        let reducer: FoldReducer? =
            switch f {
            case .length: .length
            case .sum: .sum
            case .avg: .avg
            default: nil
            }
        // What the walk of an aggregate's base found is forgotten when it is not one.
        let before = self
        if let reducer, args.count == 1 {
            let (baseNode, steps) = decompose(args[0])
            let (base, rewrittenBase) = try walk(baseNode, on: current)
            switch base {
            case .stream:
                let checked = try elementWise(steps)
                let (slot, placed) = place(base: nil, original: node)
                sites.append(Site(slot: slot, reducer: reducer, steps: checked))
                return (.plain, placed)
            case .groupList(let g):
                let checked = try elementWise(steps)
                let original = Node.function(f, [Self.recompose(rewrittenBase, checked)])
                let (slot, placed) = place(base: rewrittenBase, original: original)
                groups[g].sites.append(Site(slot: slot, reducer: reducer, steps: checked))
                return (.plain, placed)
            default:
                self = before
            }
        }
        if f == .groupBy, args.count == 2, case .expref(let key) = args[1] {
            let (baseNode, steps) = decompose(args[0])
            let (base, _) = try walk(baseNode, on: current)
            if base == .stream {
                let checked = try elementWise(steps)
                try Self.checkElementWise(key)
                let (slot, placed) = place(base: nil, original: node)
                groups.append(Group(slot: slot, steps: checked, key: key))
                return (.groups(groups.count - 1), placed)
            }
            self = before
        }
        if args.count == 1, f == .items || f == .values || f == .keys {
            let (s, a) = try walk(args[0], on: current)
            if case .groups(let g) = s {
                let shape: Shape = f == .items ? .pairs(g) : f == .values ? .groupLists(g) : .plain
                return (shape, .function(f, [a]))
            }
            guard s == .plain else { throw CannotFold() }
            return (.plain, .function(f, [a]))
        }
        if f == .map, args.count == 2, case .expref(let body) = args[0] {
            let (s, list) = try walk(args[1], on: current)
            let b = try plain(walk(body, on: try Self.elementShape(s)))
            return (.plain, .function(f, [.expref(b), list]))
        }
        // Any other function: of plain values; an expression reference it applies to plain
        // values too.
        var out: [Node] = []
        for arg in args {
            if case .expref(let e) = arg {
                out.append(.expref(try plain(walk(e, on: .plain))))
            } else {
                out.append(try plain(walk(arg, on: current)))
            }
        }
        return (.plain, .function(f, out))
    }
}
