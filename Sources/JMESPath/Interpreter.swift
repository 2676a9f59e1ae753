// The interpreter: evaluates a syntax tree against a host value.
//
// Generic over the host's `JMESPathValue`, with no boxing: the host's values are passed and
// returned as they are. Recursion follows the tree (whose depth the parser caps) and, for deep
// equality and `to_string`, the data (capped at `maxValueDepth`).

/// The deepest nesting of host values compared or serialised before an `invalid-value` error.
let maxValueDepth = 512

extension Node {
    /// The result of this node applied to `v`, in `env`.
    func evaluate<V: JMESPathValue>(_ v: V, _ env: Environment) throws(JMESPathError) -> V {
        switch self {
        case .current:
            return v
        case .field(let key):
            return v.jmesMember(key) ?? .jmesNull
        case .subexpression(let steps):
            var r = v
            for s in steps { r = try s.evaluate(r, env) }
            return r
        case .unlessNull(let step):
            // A null ends the chain: `a.[b]` is null, not `[null]`, when `a` is.
            return v.jmesKind == .null ? v : try step.evaluate(v, env)
        case .index(let n):
            guard v.jmesKind == .array else { return .jmesNull }
            if n >= 0 { return v.jmesElement(n) ?? .jmesNull }
            guard let count = v.jmesCount else { return .jmesNull }
            return v.jmesElement(count + n) ?? .jmesNull
        case .slice(let start, let stop, let step):
            switch v.jmesKind {
            case .array:
                return .jmesArray(sliceArray(v.jmesArray ?? [], start, stop, step ?? 1))
            case .string:
                // By code point, as if the string were a list of them.
                var out = String.UnicodeScalarView()
                out.append(contentsOf: sliceArray(Array((v.jmesString ?? "").unicodeScalars), start, stop, step ?? 1))
                return .jmesString(String(out))
            default:
                return .jmesNull
            }
        case .listProjection(let left, let right):
            let base = try left.evaluate(v, env)
            guard base.jmesKind == .array else {
                // A sliced string is one value, not a list: what follows applies to it whole.
                if case .subexpression(let steps) = left, case .slice? = steps.last, base.jmesKind == .string {
                    return try right.evaluate(base, env)
                }
                return .jmesNull
            }
            return .jmesArray(try project(base, right, env))
        case .objectProjection(let left, let right):
            let base = try left.evaluate(v, env)
            guard base.jmesKind == .object, let o = base.jmesObject else { return .jmesNull }
            var out: [V] = []
            out.reserveCapacity(o.count)
            for field in o {
                let x = try right.evaluate(field.value, env)
                if x.jmesKind != .null { out.append(x) }
            }
            return .jmesArray(out)
        case .filterProjection(let left, let right, let condition):
            let base = try left.evaluate(v, env)
            guard base.jmesKind == .array else { return .jmesNull }
            var out: [V] = []
            let keepsElement = if case .current = right { true } else { false }
            try base.jmesForEachElement { (e: V) throws(JMESPathError) in
                guard isTruthy(try condition.evaluate(e, env)) else { return }
                let x = keepsElement ? e : try right.evaluate(e, env)
                if x.jmesKind != .null { out.append(x) }
            }
            return .jmesArray(out)
        case .flatten(let inner):
            let base = try inner.evaluate(v, env)
            guard base.jmesKind == .array else { return .jmesNull }
            var out: [V] = []
            try base.jmesForEachElement { (e: V) throws(JMESPathError) in
                if e.jmesKind == .array { try e.jmesForEachElement { (x: V) throws(JMESPathError) in out.append(x) } } else { out.append(e) }
            }
            return .jmesArray(out)
        case .literal(let l):
            return l.value(V.self)
        case .multiSelectList(let items):
            var out: [V] = []
            out.reserveCapacity(items.count)
            for item in items { out.append(try item.evaluate(v, env)) }
            return .jmesArray(out)
        case .multiSelectHash(let pairs):
            var out: [(key: String, value: V)] = []
            out.reserveCapacity(pairs.count)
            for p in pairs { out.append((p.key, try p.value.evaluate(v, env))) }
            return .jmesObject(out)
        case .or(let a, let b):
            let x = try a.evaluate(v, env)
            return isTruthy(x) ? x : try b.evaluate(v, env)
        case .and(let a, let b):
            let x = try a.evaluate(v, env)
            return isTruthy(x) ? try b.evaluate(v, env) : x
        case .not(let a):
            return .jmesBool(!isTruthy(try a.evaluate(v, env)))
        case .compare(let op, let a, let b):
            return try compareValues(op, try a.evaluate(v, env), try b.evaluate(v, env))
        case .arithmetic(let op, let a, let b):
            return try applyArithmetic(op, try a.evaluate(v, env), try b.evaluate(v, env))
        case .unary(let op, let a):
            return try applyUnary(op, try a.evaluate(v, env))
        case .ternary(let condition, let yes, let no):
            return try (isTruthy(try condition.evaluate(v, env)) ? yes : no).evaluate(v, env)
        case .pipe(let a, let b):
            return try b.evaluate(try a.evaluate(v, env), env)
        case .expref:
            // An expression reference is only meaningful as a function argument.
            return .jmesNull
        case .function(let f, let args):
            return try f.call(args, on: v, env)
        case .root:
            return env.root.first as? V ?? .jmesNull
        case .letExpression(let bindings, let body):
            var inner = env
            inner.variables.reserveCapacity(env.variables.count + bindings.count)
            for b in bindings { inner.variables.append(try b.evaluate(v, env)) }
            return try body.evaluate(v, inner)
        case .variable(let name, let slot):
            guard let slot, slot < env.variables.count else {
                throw JMESPathError(kind: .undefinedVariable, message: "$\(name) is not defined (no enclosing let binds it)")
            }
            return env.variables[slot] as? V ?? .jmesNull
        case .folded(let site):
            return try site.evaluate(v, env)
        }
    }

    /// `right` applied to each element of the list `base`, nulls dropped.
    private func project<V: JMESPathValue>(_ base: V, _ right: Node, _ env: Environment) throws(JMESPathError) -> [V] {
        var out: [V] = []
        if case .current = right {
            try base.jmesForEachElement { (e: V) throws(JMESPathError) in if e.jmesKind != .null { out.append(e) } }
            return out
        }
        try base.jmesForEachElement { (e: V) throws(JMESPathError) in
            let x = try right.evaluate(e, env)
            if x.jmesKind != .null { out.append(x) }
        }
        return out
    }
}

/// Python-style slicing with the specification's clamping rules; `step` is never 0 here.
func sliceArray<T>(_ a: [T], _ start: Int?, _ stop: Int?, _ step: Int) -> [T] {
    let n = a.count
    func clamp(_ x: Int?, _ missing: Int) -> Int {
        guard var i = x else { return missing }
        if i < 0 {
            i = i < -n ? -1 : i + n
            if i < 0 { i = step < 0 ? -1 : 0 }
        } else if i >= n {
            i = step < 0 ? n - 1 : n
        }
        return i
    }
    var out: [T] = []
    if step > 0 {
        var i = clamp(start, 0)
        let end = clamp(stop, n)
        while i < end {
            out.append(a[i])
            let (next, overflow) = i.addingReportingOverflow(step)
            if overflow { break }
            i = next
        }
    } else {
        var i = clamp(start, n - 1)
        let end = clamp(stop, -1)
        while i > end {
            out.append(a[i])
            let (next, overflow) = i.addingReportingOverflow(step)
            if overflow { break }
            i = next
        }
    }
    return out
}

/// JMESPath truthiness: false, null, "", [] and {} are false; everything else (0 too) is true.
func isTruthy<V: JMESPathValue>(_ v: V) -> Bool {
    switch v.jmesKind {
    case .null: return false
    case .boolean: return v.jmesBool ?? false
    case .number: return true
    case .string: return !(v.jmesString ?? "").isEmpty
    case .array, .object: return (v.jmesCount ?? 0) > 0
    }
}

/// Orders two numbers, exactly when both are integers.
func compareNumbers<V: JMESPathValue>(_ a: V, _ b: V) -> Int {
    if let x = a.jmesInt, let y = b.jmesInt { return x < y ? -1 : (x == y ? 0 : 1) }
    let x = a.jmesNumber ?? 0, y = b.jmesNumber ?? 0
    return x < y ? -1 : (x == y ? 0 : 1)
}

/// Orders two strings by Unicode code point (UTF-8 byte order is code point order); strings
/// that are canonically equivalent but spelled differently (`é` and `e` + U+0301) differ.
func compareStrings(_ a: String, _ b: String) -> Int {
    if a.utf8.elementsEqual(b.utf8) { return 0 }
    return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
}

/// A comparison. Ordering applies to two numbers, or to two strings (by code point, as the
/// reference implementation does and as people rely on: `[?name >= 'm']`); anything else yields
/// null, as the specification says.
func compareValues<V: JMESPathValue>(_ op: Comparator, _ a: V, _ b: V) throws(JMESPathError) -> V {
    switch op {
    case .eq: return .jmesBool(try jmesEqual(a, b))
    case .ne: return .jmesBool(!(try jmesEqual(a, b)))
    default:
        let c: Int
        switch (a.jmesKind, b.jmesKind) {
        case (.number, .number): c = compareNumbers(a, b)
        case (.string, .string): c = compareStrings(a.jmesString ?? "", b.jmesString ?? "")
        default: return .jmesNull
        }
        switch op {
        case .lt: return .jmesBool(c < 0)
        case .lte: return .jmesBool(c <= 0)
        case .gt: return .jmesBool(c > 0)
        default: return .jmesBool(c >= 0)
        }
    }
}

/// Deep equality: 1 equals 1.0; strings are equal when their code points are; objects compare as
/// maps (key order ignored).
/// Whether two strings have the same code points (not Swift's canonical equivalence): their
/// UTF-8 bytes compared, lengths first (a character at a time through the views cost 5% of a
/// count per status over a stream).
func sameCodePoints(_ a: String, _ b: String) -> Bool {
    let x = a.utf8, y = b.utf8
    guard x.count == y.count else { return false }
    let fast = x.withContiguousStorageIfAvailable { p in y.withContiguousStorageIfAvailable { q in p.elementsEqual(q) } }
    if let fast, let same = fast { return same }
    return x.elementsEqual(y)
}

func jmesEqual<V: JMESPathValue>(_ a: V, _ b: V, depth: Int = 0) throws(JMESPathError) -> Bool {
    let k = a.jmesKind
    guard k == b.jmesKind else { return false }
    switch k {
    case .null:
        return true
    case .boolean:
        return a.jmesBool == b.jmesBool
    case .number:
        if let x = a.jmesInt, let y = b.jmesInt { return x == y }
        return a.jmesNumber == b.jmesNumber
    case .string:
        return sameCodePoints(a.jmesString ?? "", b.jmesString ?? "")
    case .array:
        guard depth < maxValueDepth else { throw tooDeepValue() }
        let x = a.jmesArray ?? [], y = b.jmesArray ?? []
        guard x.count == y.count else { return false }
        for i in x.indices where !(try jmesEqual(x[i], y[i], depth: depth + 1)) { return false }
        return true
    case .object:
        guard depth < maxValueDepth else { throw tooDeepValue() }
        let x = a.jmesObject ?? [], y = b.jmesObject ?? []
        guard x.count == y.count else { return false }
        for field in x {
            guard let other = b.jmesMember(field.key), try jmesEqual(field.value, other, depth: depth + 1) else { return false }
        }
        return true
    }
}

func tooDeepValue() -> JMESPathError {
    JMESPathError(kind: .invalidValue, message: "value nested more than \(maxValueDepth) levels deep")
}

/// Compact JSON text of a host value (for `to_string`).
func jsonText<V: JMESPathValue>(_ v: V) throws(JMESPathError) -> String {
    var out = ""
    try writeJSON(v, into: &out, depth: 0)
    return out
}

func writeJSON<V: JMESPathValue>(_ v: V, into out: inout String, depth: Int) throws(JMESPathError) {
    switch v.jmesKind {
    case .null:
        out += "null"
    case .boolean:
        out += (v.jmesBool ?? false) ? "true" : "false"
    case .number:
        if let i = v.jmesInt {
            out += String(i)
        } else if let d = v.jmesNumber, d.isFinite {
            out += "\(d)"
        } else {
            out += "null"
        }
    case .string:
        writeJSONString(v.jmesString ?? "", into: &out)
    case .array:
        guard depth < maxValueDepth else { throw tooDeepValue() }
        out += "["
        let elements = v.jmesArray ?? []
        for i in elements.indices {
            let e = elements[i]
            if i > 0 { out += "," }
            try writeJSON(e, into: &out, depth: depth + 1)
        }
        out += "]"
    case .object:
        guard depth < maxValueDepth else { throw tooDeepValue() }
        out += "{"
        let fields = v.jmesObject ?? []
        for i in fields.indices {
            let field = fields[i]
            if i > 0 { out += "," }
            writeJSONString(field.key, into: &out)
            out += ":"
            try writeJSON(field.value, into: &out, depth: depth + 1)
        }
        out += "}"
    }
}

func writeJSONString(_ s: String, into out: inout String) {
    out += "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{08}": out += "\\b"
        case "\u{0C}": out += "\\f"
        default:
            if u.value < 0x20 {
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    out += "\""
}
