// The specification's built-in functions, with their arity and argument type checks.
//
// Names and arity are resolved at compile time (unknown-function, invalid-arity); argument types
// depend on the data and are checked at evaluation time (invalid-type).

/// A built-in function.
enum Builtin: String, Sendable {
    case abs, avg, ceil, contains, floor, join, keys, length, map, max, merge, min, reverse, sort, sum, type, values
    case endsWith = "ends_with", maxBy = "max_by", minBy = "min_by", notNull = "not_null"
    case sortBy = "sort_by", startsWith = "starts_with", toArray = "to_array"
    case toNumber = "to_number", toString = "to_string"

    /// The number of arguments: exactly `min`, or at least `min` when variadic.
    var arity: (min: Int, variadic: Bool) {
        switch self {
        case .abs, .avg, .ceil, .floor, .keys, .length, .max, .min, .reverse, .sort, .sum, .type, .values,
             .toArray, .toNumber, .toString:
            return (1, false)
        case .contains, .endsWith, .startsWith, .join, .map, .maxBy, .minBy, .sortBy:
            return (2, false)
        case .merge, .notNull:
            return (1, true)
        }
    }

    /// An evaluated argument: a value, or an unevaluated `&expression`.
    private enum Arg<V: JMESPathValue> {
        case value(V)
        case expref(Node)
    }

    /// Calls the function with `args` evaluated against `current`.
    func call<V: JMESPathValue>(_ argNodes: [Node], on current: V) throws(JMESPathError) -> V {
        var args: [Arg<V>] = []
        args.reserveCapacity(argNodes.count)
        for n in argNodes {
            if case .expref(let e) = n { args.append(.expref(e)) } else { args.append(.value(try n.evaluate(current))) }
        }
        return try apply(args)
    }

    // MARK: argument access with type errors

    private func typeError(_ n: Int, _ expected: String, _ got: String) -> JMESPathError {
        JMESPathError(kind: .invalidType,
                      message: "\(rawValue)() argument \(n + 1) must be \(expected), got \(got)")
    }

    private func describe<V: JMESPathValue>(_ a: Arg<V>) -> String {
        switch a {
        case .expref: return "an expression reference"
        case .value(let v): return describe(v)
        }
    }

    private func describe<V: JMESPathValue>(_ v: V) -> String {
        switch v.jmesKind {
        case .null: return "null"
        case .boolean: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private func value<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> V {
        guard case .value(let v) = args[n] else { throw typeError(n, "a value", "an expression reference") }
        return v
    }

    private func typed<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int, _ kind: JMESKind, _ name: String) throws(JMESPathError) -> V {
        guard case .value(let v) = args[n], v.jmesKind == kind else { throw typeError(n, name, describe(args[n])) }
        return v
    }

    private func number<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> V {
        try typed(args, n, .number, "a number")
    }

    private func string<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> String {
        try typed(args, n, .string, "a string").jmesString ?? ""
    }

    private func array<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> [V] {
        try typed(args, n, .array, "an array").jmesArray ?? []
    }

    private func object<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> [(key: String, value: V)] {
        try typed(args, n, .object, "an object").jmesObject ?? []
    }

    private func expref<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> Node {
        guard case .expref(let e) = args[n] else { throw typeError(n, "an expression reference (&expr)", describe(args[n])) }
        return e
    }

    /// An array whose elements are all numbers.
    private func numbers<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> [V] {
        let a = try typed(args, n, .array, "an array of numbers").jmesArray ?? []
        for (i, e) in a.enumerated() where e.jmesKind != .number {
            throw typeError(n, "an array of numbers", "an array with \(describe(e)) at index \(i)")
        }
        return a
    }

    /// An array whose elements are all numbers or all strings; returns the common kind.
    private func sortable<V: JMESPathValue>(_ args: [Arg<V>], _ n: Int) throws(JMESPathError) -> ([V], JMESKind) {
        let what = "an array of numbers or an array of strings"
        let a = try typed(args, n, .array, what).jmesArray ?? []
        guard let first = a.first else { return (a, .number) }
        let kind = first.jmesKind
        guard kind == .number || kind == .string else { throw typeError(n, what, "an array with \(describe(first)) at index 0") }
        for (i, e) in a.enumerated() where e.jmesKind != kind {
            throw typeError(n, what, "an array mixing \(describe(first)) and \(describe(e)) (index \(i))")
        }
        return (a, kind)
    }

    /// The keys `&expr` gives each element, all numbers or all strings.
    private func sortKeys<V: JMESPathValue>(_ items: [V], _ e: Node) throws(JMESPathError) -> [V] {
        var keys: [V] = []
        keys.reserveCapacity(items.count)
        var kind: JMESKind?
        for (i, item) in items.enumerated() {
            let k = try e.evaluate(item)
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

    private func order<V: JMESPathValue>(_ a: V, _ b: V) -> Int {
        if a.jmesKind == .number { return compareNumbers(a, b) }
        return compareStrings(a.jmesString ?? "", b.jmesString ?? "")
    }

    /// An integer when `d` is integral and fits, otherwise a double.
    private func integral<V: JMESPathValue>(_ d: Double) -> V {
        if d.isFinite, d >= -9.223372036854775e18, d <= 9.223372036854775e18, d == d.rounded() { return .jmesInt(Int(d)) }
        return .jmesDouble(d)
    }

    // MARK: the functions

    private func apply<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        switch self {
        case .abs:
            let v = try number(args, 0)
            if let i = v.jmesInt {
                return i == Int.min ? .jmesDouble(-Double(i)) : .jmesInt(Swift.abs(i))
            }
            return .jmesDouble(Swift.abs(v.jmesNumber ?? 0))

        case .avg:
            let a = try numbers(args, 0)
            if a.isEmpty { return .jmesNull }
            var total = 0.0
            for e in a { total += e.jmesNumber ?? 0 }
            return .jmesDouble(total / Double(a.count))

        case .ceil, .floor:
            let v = try number(args, 0)
            if v.jmesInt != nil { return v }
            let d = v.jmesNumber ?? 0
            return integral(self == .ceil ? d.rounded(.up) : d.rounded(.down))

        case .contains:
            let subject = try value(args, 0)
            let search = try value(args, 1)
            switch subject.jmesKind {
            case .array:
                for e in subject.jmesArray ?? [] where try jmesEqual(e, search) { return .jmesBool(true) }
                return .jmesBool(false)
            case .string:
                guard let needle = search.jmesString else { return .jmesBool(false) }
                return .jmesBool(utf8Contains(subject.jmesString ?? "", needle))
            default:
                throw typeError(0, "an array or a string", describe(subject))
            }

        case .endsWith:
            let s = try string(args, 0), suffix = try string(args, 1)
            return .jmesBool(s.utf8.count >= suffix.utf8.count && s.utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8))

        case .startsWith:
            let s = try string(args, 0), prefix = try string(args, 1)
            return .jmesBool(s.utf8.starts(with: prefix.utf8))

        case .join:
            let glue = try string(args, 0)
            let a = try typed(args, 1, .array, "an array of strings").jmesArray ?? []
            var out = ""
            for (i, e) in a.enumerated() {
                guard let s = e.jmesString, e.jmesKind == .string else {
                    throw typeError(1, "an array of strings", "an array with \(describe(e)) at index \(i)")
                }
                if i > 0 { out += glue }
                out += s
            }
            return .jmesString(out)

        case .keys:
            return .jmesArray(try object(args, 0).map { .jmesString($0.key) })

        case .values:
            return .jmesArray(try object(args, 0).map(\.value))

        case .length:
            let v = try value(args, 0)
            switch v.jmesKind {
            case .string: return .jmesInt((v.jmesString ?? "").unicodeScalars.count)
            case .array: return .jmesInt((v.jmesArray ?? []).count)
            case .object: return .jmesInt((v.jmesObject ?? []).count)
            default: throw typeError(0, "a string, an array or an object", describe(v))
            }

        case .map:
            let e = try expref(args, 0)
            let a = try array(args, 1)
            var out: [V] = []
            out.reserveCapacity(a.count)
            for item in a { out.append(try e.evaluate(item)) }
            return .jmesArray(out)

        case .max, .min:
            let (a, _) = try sortable(args, 0)
            guard var best = a.first else { return .jmesNull }
            let want = self == .max ? 1 : -1
            for e in a.dropFirst() where order(e, best) == want { best = e }
            return best

        case .maxBy, .minBy:
            let a = try array(args, 0)
            let e = try expref(args, 1)
            let keys = try sortKeys(a, e)
            guard !a.isEmpty else { return .jmesNull }
            let want = self == .maxBy ? 1 : -1
            var best = 0
            for i in a.indices.dropFirst() where order(keys[i], keys[best]) == want { best = i }
            return a[best]

        case .merge:
            var out: [(key: String, value: V)] = []
            var position: [String: Int] = [:]
            for n in args.indices {
                for field in try object(args, n) {
                    if let p = position[field.key] {
                        out[p].value = field.value
                    } else {
                        position[field.key] = out.count
                        out.append(field)
                    }
                }
            }
            return .jmesObject(out)

        case .notNull:
            for n in args.indices {
                let v = try value(args, n)
                if v.jmesKind != .null { return v }
            }
            return .jmesNull

        case .reverse:
            let v = try value(args, 0)
            switch v.jmesKind {
            case .string:
                var s = String.UnicodeScalarView()
                s.append(contentsOf: (v.jmesString ?? "").unicodeScalars.reversed())
                return .jmesString(String(s))
            case .array:
                return .jmesArray((v.jmesArray ?? []).reversed())
            default:
                throw typeError(0, "a string or an array", describe(v))
            }

        case .sort:
            let (a, _) = try sortable(args, 0)
            let sorted = a.indices.sorted { i, j in
                let c = order(a[i], a[j])
                return c != 0 ? c < 0 : i < j
            }
            return .jmesArray(sorted.map { a[$0] })

        case .sortBy:
            let a = try array(args, 0)
            let e = try expref(args, 1)
            let keys = try sortKeys(a, e)
            let sorted = a.indices.sorted { i, j in
                let c = order(keys[i], keys[j])
                return c != 0 ? c < 0 : i < j
            }
            return .jmesArray(sorted.map { a[$0] })

        case .sum:
            let a = try numbers(args, 0)
            var intTotal = 0
            var exact = true
            var total = 0.0
            for e in a {
                total += e.jmesNumber ?? 0
                if exact, let i = e.jmesInt {
                    let (s, overflow) = intTotal.addingReportingOverflow(i)
                    if overflow { exact = false } else { intTotal = s }
                } else {
                    exact = false
                }
            }
            return exact ? .jmesInt(intTotal) : .jmesDouble(total)

        case .toArray:
            let v = try value(args, 0)
            return v.jmesKind == .array ? v : .jmesArray([v])

        case .toNumber:
            let v = try value(args, 0)
            switch v.jmesKind {
            case .number: return v
            case .string: return parseNumber(v.jmesString ?? "") ?? .jmesNull
            default: return .jmesNull
            }

        case .toString:
            let v = try value(args, 0)
            if v.jmesKind == .string { return v }
            return .jmesString(try jsonText(v))

        case .type:
            let v = try value(args, 0)
            switch v.jmesKind {
            case .null: return .jmesString("null")
            case .boolean: return .jmesString("boolean")
            case .number: return .jmesString("number")
            case .string: return .jmesString("string")
            case .array: return .jmesString("array")
            case .object: return .jmesString("object")
            }
        }
    }
}

/// Whether `needle` occurs in `haystack` (code point substring, via UTF-8 bytes).
private func utf8Contains(_ haystack: String, _ needle: String) -> Bool {
    let h = Array(haystack.utf8), n = Array(needle.utf8)
    if n.isEmpty { return true }
    guard h.count >= n.count else { return false }
    for start in 0...(h.count - n.count) where h[start] == n[0] {
        if h[start..<start + n.count].elementsEqual(n) { return true }
    }
    return false
}

/// `to_number` of a string: an integer when the text is one, a double for decimal or exponent
/// notation, nil when the text is not a number.
private func parseNumber<V: JMESPathValue>(_ s: String) -> V? {
    let bytes = Array(s.utf8)
    var i = 0
    if i < bytes.count && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) { i += 1 }
    let digitsStart = i
    func digits() { while i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") { i += 1 } }
    digits()
    var integral = true
    var sawDigits = i > digitsStart
    if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
        integral = false
        i += 1
        let f = i
        digits()
        sawDigits = sawDigits || i > f
    }
    guard sawDigits else { return nil }
    if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
        integral = false
        i += 1
        if i < bytes.count && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) { i += 1 }
        let e = i
        digits()
        guard i > e else { return nil }
    }
    guard i == bytes.count else { return nil }
    if integral, let n = Int(s) { return .jmesInt(n) }
    guard let d = Double(s) else { return nil }
    return .jmesDouble(d)
}
