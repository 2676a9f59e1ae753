// The table of built-in functions: their names, their number of arguments, how a call's
// arguments are evaluated and checked, and which file's functions a call goes to.
//
// Names and arity are resolved at compile time (unknown-function, invalid-arity); argument types
// depend on the data and are checked at evaluation time (invalid-type), every argument's type
// before any value is looked at (invalid-value).

/// A built-in function: JMESPath Community's, and vow's own (`round`, `now`, `to_iso8601`,
/// `from_iso8601`, `matches`, `regex_replace`).
enum Builtin: String, Sendable {
    case abs, avg, ceil, contains, floor, join, keys, length, map, max, merge, min, reverse, sort, sum, type, values
    case endsWith = "ends_with", maxBy = "max_by", minBy = "min_by", notNull = "not_null"
    case sortBy = "sort_by", startsWith = "starts_with", toArray = "to_array"
    case toNumber = "to_number", toString = "to_string"
    case groupBy = "group_by", items, fromItems = "from_items", zip
    case lower, upper, trim, trimLeft = "trim_left", trimRight = "trim_right", split, replace
    case padLeft = "pad_left", padRight = "pad_right", findFirst = "find_first", findLast = "find_last"
    case round, now, toISO8601 = "to_iso8601", fromISO8601 = "from_iso8601", matches, regexReplace = "regex_replace"

    /// The number of arguments: from `min` to `max`, or at least `min` when `max` is nil.
    var arity: (min: Int, max: Int?) {
        switch self {
        case .now:
            return (0, 0)
        case .abs, .avg, .ceil, .floor, .keys, .length, .max, .min, .reverse, .sort, .sum, .type, .values,
             .toArray, .toNumber, .toString, .items, .fromItems, .lower, .upper, .toISO8601, .fromISO8601:
            return (1, 1)
        case .round, .trim, .trimLeft, .trimRight:
            return (1, 2)
        case .contains, .endsWith, .startsWith, .join, .map, .maxBy, .minBy, .sortBy, .groupBy, .matches:
            return (2, 2)
        case .split, .padLeft, .padRight:
            return (2, 3)
        case .findFirst, .findLast:
            return (2, 4)
        case .regexReplace:
            return (3, 3)
        case .replace:
            return (3, 4)
        case .merge, .notNull, .zip:
            return (1, nil)
        }
    }

    /// An evaluated argument: a value, or an unevaluated `&expression`.
    enum Arg<V: JMESPathValue> {
        case value(V)
        case expref(Node)
    }

    /// Calls the function with `args` evaluated against `current` in `env`.
    func call<V: JMESPathValue>(_ argNodes: [Node], on current: V, _ env: Environment) throws(JMESPathError) -> V {
        // `length([?condition])`: the elements the filter keeps, counted without making their list.
        if self == .length, argNodes.count == 1, case .filterProjection(let left, .current, let condition) = argNodes[0] {
            let base = try left.evaluate(current, env)
            if base.jmesKind == .array {
                var kept = 0
                try base.jmesForEachElement { (e: V) throws(JMESPathError) in
                    // As the filter: the condition on every element, then a null one left out.
                    if isTruthy(try condition.evaluate(e, env)), e.jmesKind != .null { kept += 1 }
                }
                return .jmesInt(kept)
            }
        }
        var args: [Arg<V>] = []
        args.reserveCapacity(argNodes.count)
        for n in argNodes {
            if case .expref(let e) = n { args.append(.expref(e)) } else { args.append(.value(try n.evaluate(current, env))) }
        }
        switch self {
        case .groupBy, .items, .fromItems, .zip:
            return try applyCollection(args, env)
        case .lower, .upper, .trim, .trimLeft, .trimRight, .split, .replace, .padLeft, .padRight, .findFirst, .findLast:
            return try applyString(args)
        case .now, .toISO8601, .fromISO8601:
            return try applyTime(args)
        case .matches, .regexReplace:
            return try applyRegex(args)
        default:
            return try apply(args, env)
        }
    }

    // MARK: argument access with type errors

    func typeError(_ n: Int, _ expected: String, _ got: String) -> JMESPathError {
        JMESPathError(kind: .invalidType,
                      message: "\(rawValue)() argument \(n + 1) must be \(expected), got \(got)")
    }

    func describe<V: JMESPathValue>(_ a: Arg<V>) -> String {
        switch a {
        case .expref: return "an expression reference"
        case .value(let v): return describe(v)
        }
    }

    func describe<V: JMESPathValue>(_ v: V) -> String { kindName(v) }

    func value<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> V {
        guard case .value(let v) = args[n] else { throw typeError(n, "a value", "an expression reference") }
        return v
    }

    func typed<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int, _ kind: JMESKind, _ name: String) throws(JMESPathError) -> V {
        guard case .value(let v) = args[n], v.jmesKind == kind else { throw typeError(n, name, describe(args[n])) }
        return v
    }

    func number<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> V {
        try typed(args, n, .number, "a number")
    }

    func string<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> String {
        try typed(args, n, .string, "a string").jmesString ?? ""
    }

    func array<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> [V] {
        try typed(args, n, .array, "an array").jmesArray ?? []
    }

    func object<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> [(key: String, value: V)] {
        try typed(args, n, .object, "an object").jmesObject ?? []
    }

    func expref<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> Node {
        guard case .expref(let e) = args[n] else { throw typeError(n, "an expression reference (&expr)", describe(args[n])) }
        return e
    }

    /// An array whose elements are all numbers.
    func numbers<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> [V] {
        let a = try typed(args, n, .array, "an array of numbers").jmesArray ?? []
        for i in a.indices {
            let e = a[i]
            guard e.jmesKind != .number else { continue }
            throw typeError(n, "an array of numbers", "an array with \(describe(e)) at index \(i)")
        }
        return a
    }

    /// An array whose elements are all numbers or all strings; returns the common kind.
    func sortable<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> ([V], JMESKind) {
        let what = "an array of numbers or an array of strings"
        var a = try typed(args, n, .array, what).jmesArray ?? []
        if V.jmesSettles { a = a.map(\.jmesSettled) }
        guard let first = a.first else { return (a, .number) }
        let kind = first.jmesKind
        guard kind == .number || kind == .string else { throw typeError(n, what, "an array with \(describe(first)) at index 0") }
        for i in a.indices {
            let e = a[i]
            guard e.jmesKind != kind else { continue }
            throw typeError(n, what, "an array mixing \(describe(first)) and \(describe(e)) (index \(i))")
        }
        return (a, kind)
    }

    /// The keys `&expr` gives each element, all numbers or all strings.
    func sortKeys<V: JMESPathValue>(_ items: [V], _ e: Node, _ env: Environment) throws(JMESPathError) -> [V] {
        var keys: [V] = []
        keys.reserveCapacity(items.count)
        var kind: JMESKind?
        for i in items.indices {
            let item = items[i]
            let k = try e.evaluate(item, env).jmesSettled
            let kk = k.jmesKind
            guard kk == .number || kk == .string, kind == nil || kind == kk else {
                throw JMESPathError(
                    kind: .invalidType,
                    message: "\(rawValue)() expression must give every element a number or every element a string, "
                        + "got \(describe(k)) for element \(i)")
            }
            kind = kk
            keys.append(k)
        }
        return keys
    }

    func order<V: JMESPathValue>(_ a: V, _ b: V) -> Int {
        if a.jmesKind == .number { return compareNumbers(a, b) }
        return compareStrings(a.jmesString ?? "", b.jmesString ?? "")
    }

    /// An optional argument: nil when the call has fewer than `n + 1` arguments.
    func optional<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int, _ kind: JMESKind, _ name: String) throws(JMESPathError) -> V? {
        n < args.count ? try typed(args, n, kind, name) : nil
    }

    /// An integral number as an `Int` (clamped far beyond any length), or `invalid-value`.
    func integer<V: JMESPathValue>(_ v: V, _ n: Int, nonNegative: Bool = false) throws(JMESPathError) -> Int {
        if let i = v.jmesInt, !nonNegative || i >= 0 { return i }
        let d = v.jmesNumber ?? 0
        guard d == d.rounded(), !nonNegative || d >= 0 else {
            throw JMESPathError(
                kind: .invalidValue,
                message: "\(rawValue)() argument \(n + 1) must be \(nonNegative ? "a non-negative" : "an") integer, got \(d)")
        }
        return Int(Swift.max(-4e18, Swift.min(4e18, d)))
    }
}
