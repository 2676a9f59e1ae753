// What an expression that searches a list reads of each of its elements: the demand analysis.

/// The parts of each element of a list that an expression searching the list can see: a tree
/// of object fields, each either needed whole or read only through the fields below it.
///
/// An element projected to its demand (`JMESPathExpression.elementDemand`) gives the search the
/// same value, or the same error, as the element itself. Projected means: a value needed whole,
/// and any value that is not an object, is kept as it is; an object keeps the members whose keys
/// are in the tree (in its own order), each projected to its subtree. A field the expression
/// only reaches is in the tree, so an object stays an object, a null a null and a missing member
/// missing; only the members nothing reaches are left out, and only an object whose members
/// nothing counts, lists, compares, prints or tests for truth loses any.
public struct JMESPathDemand: Sendable, Equatable {
    /// The value here is needed whole (the fields below do not matter).
    public var whole = false
    /// The fields read below here, each with what is read of it.
    public var fields: [String: JMESPathDemand] = [:]

    /// Nothing needed: an object projected to it is `{}`.
    public init() {}

    /// The demand `path` (fields from the element) reaches, made as the path goes.
    mutating func reach(_ path: ArraySlice<String>, whole wholeAtEnd: Bool) {
        if whole { return }
        guard let first = path.first else {
            if wholeAtEnd {
                whole = true
                fields = [:]
            }
            return
        }
        fields[first, default: JMESPathDemand()].reach(path.dropFirst(), whole: wholeAtEnd)
    }
}

extension JMESPathExpression {
    /// What the expression reads of each element of the list it searches, or nil when it may
    /// need an element whole (it prints one, compares one, counts one's members, …), reads `$` or
    /// a variable, or is a form the analysis does not follow. A host that keeps only this of each
    /// element (`JMESPathDemand`) gets the same value or error from `search`.
    public var elementDemand: JMESPathDemand? {
        var analysis = DemandAnalysis()
        guard let result = try? analysis.shape(of: root, on: .list(.element([]))) else { return nil }
        analysis.use(result)
        return analysis.demand.whole ? nil : analysis.demand
    }
}

/// The analysis behind `JMESPathExpression.elementDemand`: the expression is walked once with,
/// in place of values, shapes that say which values come from the elements of the list searched
/// and from where in them. A value the search only passes on, indexes into a list of, or reads a
/// field of, keeps its shape; any other use (a comparison, a function that reads it, truth, the
/// result itself) needs it whole, and its shape's paths are marked so.
struct DemandAnalysis {
    /// A value as the analysis sees it.
    indirect enum Shape {
        /// Nothing of an element, or only parts of one already needed whole: the same in a
        /// search of the projected elements.
        case known
        /// The part of an element at this path of fields (the element itself for none).
        case element([String])
        /// A list of which every element has this shape (the list's length and order the same).
        case list(Shape)
        /// An object of which every member's value has this shape (its keys the same): what
        /// `group_by` makes.
        case object(Shape)
        /// A list of fixed length (a multiselect list; a pair of `items`).
        case tuple([Shape])
        /// An object of fixed keys (a multiselect hash).
        case record([String: Shape])
    }

    /// Raised for what the analysis does not follow: the expression gets no demand.
    struct CannotTell: Error {}

    /// What the elements are read for so far.
    var demand = JMESPathDemand()

    /// Marks every element part `s` holds as needed whole.
    mutating func use(_ s: Shape) {
        switch s {
        case .known: return
        case .element(let path): demand.reach(path[...], whole: true)
        case .list(let t), .object(let t): use(t)
        case .tuple(let ts): for t in ts { use(t) }
        case .record(let d): for t in d.values { use(t) }
        }
    }

    /// `use(s)`, then `.known`: what an operation that reads all of its operand gives.
    mutating func used(_ s: Shape) -> Shape {
        use(s)
        return .known
    }

    /// The shape of `node`'s value when the current value has shape `current`.
    mutating func shape(of node: Node, on current: Shape) throws(CannotTell) -> Shape {
        switch node {
        case .current:
            return current
        case .root, .variable, .letExpression, .expref, .folded:
            throw CannotTell()
        case .field(let name):
            switch current {
            case .element(let path):
                // Reached: kept in the projection, so that it is null or missing as it was.
                let q = path + [name]
                demand.reach(q[...], whole: false)
                return .element(q)
            case .object(let t): return t
            case .record(let d): return d[name] ?? .known
            case .known, .list, .tuple: return .known
            }
        case .subexpression(let steps):
            var s = current
            for step in steps { s = try shape(of: step, on: s) }
            return s
        case .unlessNull(let step):
            return try shape(of: step, on: current)
        case .index(let n):
            switch current {
            case .list(let t): return t
            case .tuple(let ts):
                let i = n >= 0 ? n : ts.count + n
                return ts.indices.contains(i) ? ts[i] : .known
            case .element: return used(current)
            case .known, .object, .record: return .known
            }
        case .slice:
            if case .list = current { return current }
            return used(current)
        case .listProjection(let left, let right):
            let base = try shape(of: left, on: current)
            if case .list(let t) = base { return .list(try shape(of: right, on: t)) }
            return used(try shape(of: right, on: used(base)))
        case .objectProjection(let left, let right):
            let base = try shape(of: left, on: current)
            if case .object(let t) = base { return .list(try shape(of: right, on: t)) }
            return used(try shape(of: right, on: used(base)))
        case .filterProjection(let left, let right, let condition):
            let base = try shape(of: left, on: current)
            if case .list(let t) = base {
                use(try shape(of: condition, on: t))
                return .list(try shape(of: right, on: t))
            }
            let whole = used(base)
            use(try shape(of: condition, on: whole))
            return used(try shape(of: right, on: whole))
        case .flatten(let inner):
            let base = try shape(of: inner, on: current)
            if case .list(.list(let t)) = base { return .list(t) }
            return used(base)
        case .literal:
            return .known
        case .multiSelectList(let items):
            var out: [Shape] = []
            for item in items { out.append(try shape(of: item, on: current)) }
            return .tuple(out)
        case .multiSelectHash(let pairs):
            var out: [String: Shape] = [:]
            var twice = false
            for p in pairs {
                let s = try shape(of: p.value, on: current)
                if let before = out[p.key] {
                    use(before)
                    twice = true
                }
                out[p.key] = s
            }
            // A key written twice: the object holds both, and which a field finds is the host's.
            if twice { return used(.record(out)) }
            return .record(out)
        case .or(let a, let b), .and(let a, let b), .compare(_, let a, let b), .arithmetic(_, let a, let b):
            use(try shape(of: a, on: current))
            use(try shape(of: b, on: current))
            return .known
        case .not(let a), .unary(_, let a):
            return used(try shape(of: a, on: current))
        case .ternary(let condition, let yes, let no):
            use(try shape(of: condition, on: current))
            use(try shape(of: yes, on: current))
            use(try shape(of: no, on: current))
            return .known
        case .pipe(let a, let b):
            return try shape(of: b, on: try shape(of: a, on: current))
        case .function(let f, let args):
            return try call(f, args, on: current)
        }
    }

    /// The shape of a function's value. The functions that pass on elements or read only a
    /// list's length keep the shapes; any other reads all of its arguments.
    private mutating func call(_ f: Builtin, _ args: [Node], on current: Shape) throws(CannotTell) -> Shape {
        switch (f, args.count) {
        case (.length, 1):
            switch try shape(of: args[0], on: current) {
            case .list, .tuple, .object, .record: return .known
            case let s: return used(s)
            }
        case (.reverse, 1), (.toArray, 1):
            let s = try shape(of: args[0], on: current)
            if case .list = s { return s }
            return used(s)
        case (.sortBy, 2), (.groupBy, 2), (.maxBy, 2), (.minBy, 2):
            guard case .expref(let key) = args[1] else { break }
            let s = try shape(of: args[0], on: current)
            guard case .list(let t) = s else {
                use(try shape(of: key, on: used(s)))
                return .known
            }
            use(try shape(of: key, on: t))
            switch f {
            case .sortBy: return s
            case .groupBy: return .object(s)
            default: return t
            }
        case (.map, 2):
            guard case .expref(let e) = args[0] else { break }
            let s = try shape(of: args[1], on: current)
            if case .list(let t) = s { return .list(try shape(of: e, on: t)) }
            return used(try shape(of: e, on: used(s)))
        case (.items, 1), (.values, 1), (.keys, 1):
            let s = try shape(of: args[0], on: current)
            guard case .object(let t) = s else { return used(s) }
            // The keys of `group_by`'s object are the keys its expression gave, needed whole.
            switch f {
            case .items: return .list(.tuple([.known, t]))
            case .values: return .list(t)
            default: return .known
            }
        default:
            break
        }
        for arg in args {
            // An expression reference this analysis has no rule for: applied to what, it cannot tell.
            if case .expref = arg { throw CannotTell() }
            use(try shape(of: arg, on: current))
        }
        return .known
    }
}
