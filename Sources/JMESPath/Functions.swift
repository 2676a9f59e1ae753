// The functions of the JMESPath specification (jmespath.org's), and vow's `round`; the others
// are in CollectionFunctions, StringFunctions, TimeFunctions and RegexFunctions.

extension Builtin {
    /// The specification's functions, and `round`.
    func apply<V: JMESPathValue>(_ args: [Arg<V>], _ env: Environment) throws(JMESPathError) -> V {
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

        case .round:
            let v = try number(args, 0)
            var digits = 0
            if let d = try optional(args, 1, .number, "a number") { digits = try integer(d, 1) }
            if v.jmesInt != nil && digits >= 0 { return v }
            let r = roundHalfAwayFromZero(v.jmesNumber ?? 0, digits: digits)
            guard r.isFinite else { throw JMESPathError(kind: .notANumber, message: "round() gives a number too large") }
            return integral(r)

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
            for i in a.indices {
                let e = a[i]
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
            case .array, .object: return .jmesInt(v.jmesCount ?? 0)
            default: throw typeError(0, "a string, an array or an object", describe(v))
            }

        case .map:
            let e = try expref(args, 0)
            let a = try array(args, 1)
            var out: [V] = []
            out.reserveCapacity(a.count)
            for item in a { out.append(try e.evaluate(item, env)) }
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
            let keys = try sortKeys(a, e, env)
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
            let keys = try sortKeys(a, e, env)
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

        default:
            preconditionFailure("\(rawValue)() is not one of the specification's functions")
        }
    }
}

/// `x` rounded to `digits` decimal places (to tens, hundreds… when negative), halves away from
/// zero, on the digits of x's shortest decimal form (what Swift and JavaScript print for it), not
/// on its binary value: `round(1.005, 2)` is 1.01 and `round(-2.675, 2)` is -2.68, as a person
/// reading the number expects; the result is the double nearest the rounded decimal. An `x`
/// already that precise is returned as it is; the twin computes the same (`jmesRound`).
func roundHalfAwayFromZero(_ x: Double, digits d: Int) -> Double {
    guard x.isFinite, x != 0 else { return x == 0 ? 0 : x }
    // |x| = mantissa × 10^exponent, the mantissa an integer of the shortest digits.
    let text = "\(Swift.abs(x))"
    var mantissa = Substring(text)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
        mantissa = text[..<e]
        exponent = Int(text[text.index(after: e)...].replacing("+", with: "")) ?? 0
    }
    var digitsText = String(mantissa)
    if let dot = digitsText.firstIndex(of: ".") {
        exponent -= digitsText.distance(from: dot, to: digitsText.endIndex) - 1
        digitsText.remove(at: dot)
    }
    var figures = Array(digitsText.drop { $0 == "0" }.utf8)
    while figures.count > 1, figures.last == UInt8(ascii: "0") {
        figures.removeLast()
        exponent += 1
    }
    let drop = -d - exponent  // how many trailing figures fall below 10^-d
    guard drop > 0 else { return x }
    let keep = figures.count - drop
    var kept: [UInt8] = keep > 0 ? Array(figures[0..<keep]) : [UInt8(ascii: "0")]
    if keep >= 0, keep < figures.count, figures[keep] >= UInt8(ascii: "5") {
        // Add one to the kept figures, carrying.
        var i = kept.count - 1
        while i >= 0 {
            if kept[i] == UInt8(ascii: "9") {
                kept[i] = UInt8(ascii: "0")
                i -= 1
            } else {
                kept[i] += 1
                break
            }
        }
        if i < 0 { kept.insert(UInt8(ascii: "1"), at: 0) }
    }
    let r = (Double(String(decoding: kept, as: UTF8.self) + "e\(-d)") ?? .infinity) * (x < 0 ? -1 : 1)
    return r == 0 ? 0 : r
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
