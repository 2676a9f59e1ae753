// An expression over a list computed as the list's elements come, one at a time, keeping only
// what its aggregates need of them: the fold.

/// An expression searching a list, computed while the list's elements come one at a time,
/// without keeping them: the counts, sums and averages it takes of the list (or of each group
/// of `group_by` over it) are added up element by element, and at the end the expression is
/// evaluated with those results in their places (`FoldAnalysis` says which expressions can be,
/// and finds their aggregates).
///
/// The value, or the error, is the one `search` gives on the whole list: each aggregate reads
/// the elements in the order the search would, and keeps the first error the search would
/// meet in it (a step of its argument over every element before the next step, the function's
/// own check last), which is thrown only if the end's evaluation reaches that aggregate.
///
/// Not Sendable: one owner adds the elements, then `finish` evaluates.
public final class ListFold {
    /// The expression with its aggregates replaced by the places of their results.
    private let rewritten: Node
    /// Where the results go, read by the rewritten expression's `FoldedSite`s.
    private let results: FoldResults
    /// How many aggregates there are.
    private let slots: Int
    /// The aggregates of the whole list.
    private var sites: [SiteFold]
    /// The `group_by`s over the list, each with the aggregates of its groups.
    private var groups: [GroupFold]
    /// How many elements were added.
    public private(set) var count = 0

    /// The fold of `expression`, or nil when the expression reads the list other than through
    /// aggregates this fold computes (`FoldAnalysis`).
    public init?(_ expression: JMESPathExpression) {
        guard !expression.usesRoot, let plan = FoldAnalysis.plan(expression.root) else { return nil }
        rewritten = plan.rewritten
        results = plan.results
        slots = plan.slots
        sites = plan.sites.map(SiteFold.init)
        groups = plan.groups.map { GroupFold($0) }
    }

    /// Whether `expression` has a fold: what `init` would check, without making one.
    public static func folds(_ expression: JMESPathExpression) -> Bool {
        !expression.usesRoot && FoldAnalysis.plan(expression.root) != nil
    }

    /// Adds the next element of the list.
    public func add<V: JMESPathValue>(_ element: V) {
        count += 1
        for i in sites.indices { sites[i].add(element) }
        for i in groups.indices { groups[i].add(element) }
    }

    /// The expression's value on the list of the elements added (its host's value), or the
    /// error its search gives. The fold is spent.
    public func finish<V: JMESPathValue>(_: V.Type) throws(JMESPathError) -> V {
        var outcomes = [[FoldOutcome]](repeating: [], count: slots)
        for site in sites { outcomes[site.slot] = [site.state.outcome] }
        for group in groups {
            outcomes[group.slot] = [group.outcome]
            for s in group.sites { outcomes[s.slot] = s.perGroup.map(\.outcome) }
        }
        results.outcomes = outcomes
        defer { results.outcomes = [] }
        return try rewritten.evaluate(V.jmesNull, Environment(root: []))
    }
}

/// What a fold computed for one aggregate: its value, or the first error its search meets.
enum FoldOutcome: Sendable {
    case value(Literal)
    case failure(JMESPathError)
}

/// The results of a fold, by aggregate and, for the aggregates of `group_by`'s groups, by group;
/// filled by `ListFold.finish` for the one evaluation that reads them.
///
/// Sendable as a syntax tree must be: it is written and read only by the fold's owner, in
/// `finish`, while nothing else holds the rewritten tree.
final class FoldResults: @unchecked Sendable {
    var outcomes: [[FoldOutcome]] = []
}

/// An aggregate's place in the rewritten expression (`Node.folded`).
final class FoldedSite: Sendable {
    let results: FoldResults
    /// The aggregate's index in the results.
    let slot: Int
    /// For an aggregate of each group: what, from the place's current value, gives the group's
    /// list, which the rewritten `group_by` made the group's number. nil: of the whole list.
    let base: Node?
    /// The aggregate as written, for a base that gives anything but a group's number (`a.b`
    /// of a `group_by`, when no group has that key, gives null, and the aggregate says what it
    /// says of null).
    let original: Node

    init(results: FoldResults, slot: Int, base: Node?, original: Node) {
        self.results = results
        self.slot = slot
        self.base = base
        self.original = original
    }

    func evaluate<V: JMESPathValue>(_ v: V, _ env: Environment) throws(JMESPathError) -> V {
        let outcomes = results.outcomes[slot]
        var at = 0
        if let base {
            let g = try base.evaluate(v, env)
            guard g.jmesKind == .number, let i = g.jmesInt, outcomes.indices.contains(i) else { return try original.evaluate(v, env) }
            at = i
        }
        switch outcomes[at] {
        case .value(let l): return l.value(V.self)
        case .failure(let e): throw e
        }
    }
}

/// One step of an aggregate's argument, applied to each element of the list before it: a
/// projection (`[*].x`, nulls left out), a filter (`[?c]`, `[?c].x`), or `map(&x, …)` (nulls kept).
struct FoldStep: Sendable {
    let condition: Node?
    let projection: Node?
    let dropsNull: Bool
}

/// An element's way through steps, keeping the first error the search would meet: the search
/// applies each step to every element before the next step, so an error of an earlier step
/// comes first whatever element it is at; within a step, the first element's. The level after
/// the last step is the function's own check of the list it gets.
struct StepProgress {
    /// The earliest level that failed so far (levels from it on need not run), or past all.
    var cut = Int.max
    var error: JMESPathError?

    mutating func fail(_ e: JMESPathError, at level: Int) {
        guard level < cut else { return }
        cut = level
        error = e
    }

    /// `x` through `steps`: nil when a step leaves it out or fails, or a failed level before
    /// the end makes the rest moot.
    mutating func run<V: JMESPathValue>(_ x: V, _ steps: [FoldStep]) -> V? {
        var y = x
        let env = Environment(root: [])
        for j in 0..<min(steps.count, cut) {
            let s = steps[j]
            do {
                if let c = s.condition, !isTruthy(try c.evaluate(y, env)) { return nil }
                if let p = s.projection { y = try p.evaluate(y, env) }
            } catch {
                fail(error, at: j)
                return nil
            }
            if s.dropsNull, y.jmesKind == .null { return nil }
        }
        return steps.count < cut ? y : nil
    }
}

/// What an aggregate does with the list its argument makes.
enum FoldReducer: Sendable {
    case length, sum, avg

    var builtin: Builtin {
        switch self {
        case .length: return .length
        case .sum: return .sum
        case .avg: return .avg
        }
    }
}

/// An aggregate's running state over the list its argument makes.
struct ReducerState {
    let reducer: FoldReducer
    let steps: [FoldStep]
    var progress = StepProgress()
    /// Elements that reached the function (their index in its list).
    var n = 0
    var sum = RunningSum()

    init(_ reducer: FoldReducer, _ steps: [FoldStep]) {
        self.reducer = reducer
        self.steps = steps
    }

    mutating func add<V: JMESPathValue>(_ element: V) {
        guard let y = progress.run(element, steps) else { return }
        if reducer != .length {
            guard y.jmesKind == .number else {
                progress.fail(reducer.builtin.typeError(0, "an array of numbers", "an array with \(kindName(y)) at index \(n)"), at: steps.count)
                return
            }
            // As `sum` and `avg` add, in the list's order.
            sum.add(y)
        }
        n += 1
    }

    var outcome: FoldOutcome {
        if let e = progress.error { return .failure(e) }
        switch reducer {
        case .length: return .value(.int(n))
        case .sum: return .value(sum.literal)
        case .avg: return .value(n == 0 ? .null : .double(sum.total / Double(n)))
        }
    }
}

/// An aggregate of the whole list.
struct SiteFold {
    let slot: Int
    var state: ReducerState

    init(_ plan: FoldAnalysis.Site) {
        slot = plan.slot
        state = ReducerState(plan.reducer, plan.steps)
    }

    mutating func add<V: JMESPathValue>(_ element: V) { state.add(element) }
}

/// `group_by(L, &key)` over the list: its groups' keys in the order they first come, and the
/// aggregates of each group's list.
struct GroupFold {
    let slot: Int
    let steps: [FoldStep]
    let key: Node
    var progress = StepProgress()
    /// Elements that reached `group_by` (their index in its list).
    var n = 0
    var order = GroupOrder()
    /// The aggregates of each group.
    var sites: [GroupSiteFold]

    init(_ plan: FoldAnalysis.Group) {
        slot = plan.slot
        steps = plan.steps
        key = plan.key
        sites = plan.sites.map { GroupSiteFold(slot: $0.slot, reducer: $0.reducer, steps: $0.steps) }
    }

    mutating func add<V: JMESPathValue>(_ element: V) {
        guard let y = progress.run(element, steps) else { return }
        let i = n
        n += 1
        let k: V
        do { k = try key.evaluate(y, Environment(root: [])) } catch {
            progress.fail(error, at: steps.count)
            return
        }
        let g: Int
        switch k.jmesKind {
        case .null:
            return
        case .string:
            let isNew: Bool
            (g, isNew) = order.group(k.jmesString ?? "")
            if isNew { for s in sites.indices { sites[s].perGroup.append(ReducerState(sites[s].reducer, sites[s].steps)) } }
        default:
            progress.fail(GroupOrder.keyError(k, element: i), at: steps.count)
            return
        }
        for s in sites.indices { sites[s].perGroup[g].add(y) }
    }

    /// The rewritten `group_by`'s value: each group's key, with its number for its list.
    var outcome: FoldOutcome {
        if let e = progress.error { return .failure(e) }
        return .value(.object(order.keys.enumerated().map { (key: $0.element, value: .int($0.offset)) }))
    }
}

/// An aggregate of each group of a `group_by`.
struct GroupSiteFold {
    let slot: Int
    let reducer: FoldReducer
    let steps: [FoldStep]
    var perGroup: [ReducerState] = []
}
