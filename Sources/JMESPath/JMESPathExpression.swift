// The public entry point: a compiled expression, and a shared compile cache.

/// A compiled JMESPath expression, immutable and safe to share between threads.
///
/// Compile once, search many values: the syntax tree is built in `init` (syntax errors, unknown
/// functions and wrong argument counts are reported there), and `search` only walks it.
public final class JMESPathExpression: Sendable {
    /// The expression's text, as given.
    public let source: String
    let root: Node
    /// Whether the expression reads `$` (otherwise the search does not keep the value for it).
    let usesRoot: Bool
    /// The expression as a chain of object fields and non-negative list indexes (`items[3].name`,
    /// `a.b`, `@`), or nil when it is anything else: a host can then find the value without
    /// building the whole document.
    public let simplePath: [JMESPathStep]?
    /// The expression as a multiselect of simple paths (`{s: status, t: total}`, `[a, b[0]]`),
    /// or nil when it is anything else: a host can find each path's value the same way.
    public let simpleSelection: JMESPathSelection?

    /// Compiles `source`; throws `syntax`, `unknown-function`, `invalid-arity` (and `invalid-value`
    /// for a slice step of 0) with the character offset of the culprit. With `legacyLiterals`, a
    /// backtick literal that is not JSON is a string (`` `foo` `` is `"foo"`), as before JEP-12
    /// made it an error.
    public init(_ source: String, legacyLiterals: Bool = false) throws(JMESPathError) {
        self.source = source
        (self.root, self.usesRoot) = try Parser.parse(source, legacyLiterals: legacyLiterals)
        self.simplePath = JMESPathStep.path(of: root)
        self.simpleSelection = simplePath == nil ? JMESPathSelection.of(root) : nil
    }

    /// Evaluates the expression against `value` (which `$` then names); throws `invalid-type` or
    /// `invalid-value` when a function gets data it cannot use, `not-a-number` when arithmetic
    /// does, `undefined-variable` for a `$name` no `let` binds. Lookups that find nothing give
    /// the host's null.
    public func search<V: JMESPathValue>(_ value: V) throws(JMESPathError) -> V {
        try root.evaluate(value, Environment(root: usesRoot ? [value] : []))
    }

    /// The largest number of expressions the shared cache keeps.
    static let cacheCapacity = 512

    private struct Cache {
        var entries: [String: JMESPathExpression] = [:]
        /// Insertion order, for evicting the oldest entry.
        var order: [String] = []
        var head = 0
        /// The expression found or made last: a stage run on many inputs, or a long pipeline of
        /// the same stage, asks for the same text again, and comparing it costs less than
        /// hashing it.
        var last: JMESPathExpression? = nil
    }

    private static let cache = Locked(Cache())

    /// A compiled expression from a bounded, thread-safe cache, so that a host evaluating the same
    /// text over many values compiles it once. Errors are not cached.
    public static func cached(_ source: String) throws(JMESPathError) -> JMESPathExpression {
        if let hit = cache.withLock({ c -> JMESPathExpression? in
            if let last = c.last, last.source == source { return last }
            let found = c.entries[source]
            if found != nil { c.last = found }
            return found
        }) { return hit }
        let compiled = try JMESPathExpression(source)
        return cache.withLock { c in
            if let raced = c.entries[source] { return raced }
            if c.order.count < cacheCapacity {
                c.order.append(source)
            } else {
                c.entries[c.order[c.head]] = nil
                c.order[c.head] = source
                c.head = (c.head + 1) % cacheCapacity
            }
            c.entries[source] = compiled
            c.last = compiled
            return compiled
        }
    }

    /// How many expressions the shared cache holds (for tests).
    static var cachedCount: Int { cache.withLock { $0.entries.count } }
}

/// One step of a simple path: an object field, or a list position counted from the start.
public enum JMESPathStep: Sendable, Equatable {
    /// `name`: the member of that name of an object; null on anything else.
    case field(String)
    /// `[n]` with n ≥ 0: the element at n of a list; null on anything else or past the end.
    case index(Int)

    /// The steps of `node`, when it is a chain of fields and non-negative indexes.
    static func path(of node: Node) -> [JMESPathStep]? {
        switch node {
        case .current: return []
        case .field(let name): return [.field(name)]
        case .index(let n): return n >= 0 ? [.index(n)] : nil
        case .subexpression(let nodes):
            var steps: [JMESPathStep] = []
            for n in nodes {
                guard let more = path(of: n) else { return nil }
                steps += more
            }
            return steps
        default: return nil
        }
    }
}
