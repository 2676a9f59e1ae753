// The functions of the JMESPath specification (jmespath.org's), by family; the others are in
// NumberFunctions, CollectionFunctions, StringFunctions, TimeFunctions and RegexFunctions.

extension Builtin {
    /// The specification's functions, and `round`: hands the call to its family's function.
    func apply<V: JMESPathValue>(_ args: [Arg<V>], _ env: Environment) throws(JMESPathError) -> V {
        switch self {
        case .abs, .avg, .ceil, .floor, .round, .sum:
            return try applyNumber(args)
        case .contains, .length, .reverse, .map:
            return try applySequence(args, env)
        case .startsWith, .endsWith, .join:
            return try applyText(args)
        case .keys, .values, .merge:
            return try applyObject(args)
        case .max, .min, .maxBy, .minBy, .sort, .sortBy:
            return try applyOrdering(args, env)
        case .type, .toArray, .toNumber, .toString, .notNull:
            return try applyConversion(args)
        default:
            preconditionFailure("\(rawValue)() is not one of the specification's functions")
        }
    }

    /// `contains`, `length`, `reverse` and `map`: functions on a string or an array as a sequence.
    private func applySequence<V: JMESPathValue>(_ args: [Arg<V>], _ env: Environment) throws(JMESPathError) -> V {
        switch self {
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

        case .length:
            let v = try value(args, 0)
            switch v.jmesKind {
            case .string: return .jmesInt((v.jmesString ?? "").unicodeScalars.count)
            case .array, .object: return .jmesInt(v.jmesCount ?? 0)
            default: throw typeError(0, "a string, an array or an object", describe(v))
            }

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

        case .map:
            let e = try expref(args, 0)
            let a = try array(args, 1)
            var out: [V] = []
            out.reserveCapacity(a.count)
            for item in a { out.append(try e.evaluate(item, env)) }
            return .jmesArray(out)

        default:
            preconditionFailure("\(rawValue)() is not a sequence function")
        }
    }

    /// `starts_with`, `ends_with` and `join`: the specification's functions on strings.
    private func applyText<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        switch self {
        case .startsWith:
            let s = try string(args, 0), prefix = try string(args, 1)
            return .jmesBool(s.utf8.starts(with: prefix.utf8))

        case .endsWith:
            let s = try string(args, 0), suffix = try string(args, 1)
            return .jmesBool(s.utf8.count >= suffix.utf8.count && s.utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8))

        case .join:
            let glue = try string(args, 0)
            let a = try typed(args, 1, .array, "an array of strings").jmesArray ?? []
            var out = ""
            for i in a.indices {
                let e = a[i]
                guard let s = e.jmesString, e.jmesKind == .string else {
                    throw typeError(1, "an array of strings", "an array with \(describe(e)) at index \(i)")
                }
                if i > 0 { out += glue }
                out += s
            }
            return .jmesString(out)

        default:
            preconditionFailure("\(rawValue)() is not a text function")
        }
    }

    /// `keys`, `values` and `merge`: functions on objects.
    private func applyObject<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        switch self {
        case .keys:
            return .jmesArray(try object(args, 0).map { .jmesString($0.key) })

        case .values:
            return .jmesArray(try object(args, 0).map(\.value))

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

        default:
            preconditionFailure("\(rawValue)() is not an object function")
        }
    }

    /// `max`, `min`, `max_by`, `min_by`, `sort` and `sort_by`: functions that order an array.
    private func applyOrdering<V: JMESPathValue>(_ args: [Arg<V>], _ env: Environment) throws(JMESPathError) -> V {
        switch self {
        case .max, .min:
            let (a, _) = try sortable(args, 0)
            guard var best = a.first else { return .jmesNull }
            let want = self == .max ? 1 : -1
            for e in a.dropFirst() where order(e, best) == want { best = e }
            return best

        case .maxBy, .minBy:
            let a = try array(args, 0)
            let e = try expref(args, 1)
            let keys = try sortKeys(a, e, env)
            guard !a.isEmpty else { return .jmesNull }
            let want = self == .maxBy ? 1 : -1
            var best = 0
            for i in a.indices.dropFirst() where order(keys[i], keys[best]) == want { best = i }
            return a[best]

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
            let keys = try sortKeys(a, e, env)
            let sorted = a.indices.sorted { i, j in
                let c = order(keys[i], keys[j])
                return c != 0 ? c < 0 : i < j
            }
            return .jmesArray(sorted.map { a[$0] })

        default:
            preconditionFailure("\(rawValue)() is not an ordering function")
        }
    }

    /// `type`, `to_array`, `to_number`, `to_string` and `not_null`: functions on a value's type.
    private func applyConversion<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        switch self {
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

        case .notNull:
            for n in args.indices {
                let v = try value(args, n)
                if v.jmesKind != .null { return v }
            }
            return .jmesNull

        default:
            preconditionFailure("\(rawValue)() is not a conversion function")
        }
    }
}

/// Whether `needle` occurs in `haystack` (code point substring, via UTF-8 bytes).
func utf8Contains(_ haystack: String, _ needle: String) -> Bool {
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
func parseNumber<V: JMESPathValue>(_ s: String) -> V? {
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
