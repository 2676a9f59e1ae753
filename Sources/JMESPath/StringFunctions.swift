// JMESPath Community's string functions. Strings are sequences of Unicode code points here, as
// everywhere in JMESPath: lengths, positions and single characters count code points.

extension Builtin {
    /// `lower`, `upper`, `trim`, `trim_left`, `trim_right`, `split`, `replace`, `pad_left`,
    /// `pad_right`, `find_first` and `find_last`: hands the call to the function that does it.
    func applyString<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        switch self {
        case .lower, .upper:
            return try caseMapped(args)
        case .trim, .trimLeft, .trimRight:
            return try trimmed(args)
        case .split:
            return try splitText(args)
        case .replace:
            return try replaced(args)
        case .padLeft, .padRight:
            return try padded(args)
        case .findFirst, .findLast:
            return try found(args)
        default:
            preconditionFailure("\(rawValue)() is not a string function")
        }
    }

    /// `lower` and `upper`: the string in lower or upper case.
    private func caseMapped<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        // Each code point by its full Unicode case mapping, without context or language rules.
        let s = try string(args, 0)
        var out = ""
        for u in s.unicodeScalars {
            out += self == .lower ? u.properties.lowercaseMapping : u.properties.uppercaseMapping
        }
        return .jmesString(out)
    }

    /// `trim`, `trim_left` and `trim_right`: the string without the given characters (or
    /// whitespace) at its ends.
    private func trimmed<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        let s = Array(try string(args, 0).unicodeScalars)
        let chars = try optional(args, 1, .string, "a string")?.jmesString ?? ""
        let set = Set(chars.unicodeScalars)
        let strip: (Unicode.Scalar) -> Bool = set.isEmpty ? { $0.properties.isWhitespace } : { set.contains($0) }
        var start = 0, end = s.count
        if self != .trimRight { while start < end && strip(s[start]) { start += 1 } }
        if self != .trimLeft { while end > start && strip(s[end - 1]) { end -= 1 } }
        return .jmesString(text(s[start..<end]))
    }

    /// `split`: the pieces of the string between its separators, at most `count` cuts.
    private func splitText<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        let s = Array(try string(args, 0).unicodeScalars)
        let separator = Array(try string(args, 1).unicodeScalars)
        let countArg = try optional(args, 2, .number, "a number")
        let limit = try countArg.map { c throws(JMESPathError) in try integer(c, 2, nonNegative: true) }
        var parts: [V] = []
        if separator.isEmpty {
            // Every code point; with a count, that many, then the rest as one string (empty
            // when nothing is left), as the reference implementation splits.
            let cut = Swift.min(limit ?? s.count, s.count)
            for u in s[0..<cut] { parts.append(.jmesString(String(u))) }
            if limit != nil { parts.append(.jmesString(text(s[cut...]))) }
            return .jmesArray(parts)
        }
        var start = 0
        var splits = 0
        var i = 0
        while i + separator.count <= s.count, splits < limit ?? Int.max {
            if s[i..<i + separator.count].elementsEqual(separator) {
                parts.append(.jmesString(text(s[start..<i])))
                i += separator.count
                start = i
                splits += 1
            } else {
                i += 1
            }
        }
        parts.append(.jmesString(text(s[start...])))
        return .jmesArray(parts)
    }

    /// `replace`: the string with `old` replaced by `new`, at most `count` times.
    private func replaced<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        let s = Array(try string(args, 0).unicodeScalars)
        let old = Array(try string(args, 1).unicodeScalars)
        let new = try string(args, 2)
        let countArg = try optional(args, 3, .number, "a number")
        let limit = try countArg.map { c throws(JMESPathError) in try integer(c, 3, nonNegative: true) } ?? Int.max
        var out = ""
        var done = 0
        if old.isEmpty {
            // `new` goes before every code point and at the end, `limit` times at most.
            for u in s {
                if done < limit { out += new; done += 1 }
                out.unicodeScalars.append(u)
            }
            if done < limit { out += new }
            return .jmesString(out)
        }
        var start = 0
        var i = 0
        while i + old.count <= s.count, done < limit {
            if s[i..<i + old.count].elementsEqual(old) {
                out.unicodeScalars.append(contentsOf: s[start..<i])
                out += new
                i += old.count
                start = i
                done += 1
            } else {
                i += 1
            }
        }
        out.unicodeScalars.append(contentsOf: s[start...])
        return .jmesString(out)
    }

    /// `pad_left` and `pad_right`: the string padded to a width with one character.
    private func padded<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        let s = try string(args, 0)
        let widthArg = try number(args, 1)
        let padArg = try optional(args, 2, .string, "a string")
        let width = try integer(widthArg, 1, nonNegative: true)
        let pad = Array((padArg?.jmesString ?? " ").unicodeScalars)
        guard pad.count == 1 else {
            throw JMESPathError(kind: .invalidValue, message: "\(rawValue)() pads with one character, got \(pad.count)")
        }
        guard width <= maxPadWidth else {
            throw JMESPathError(kind: .invalidValue, message: "\(rawValue)() pads to at most \(maxPadWidth) characters, got \(width)")
        }
        let missing = width - s.unicodeScalars.count
        guard missing > 0 else { return .jmesString(s) }
        let padding = String(String.UnicodeScalarView(repeatElement(pad[0], count: missing)))
        return .jmesString(self == .padLeft ? padding + s : s + padding)
    }

    /// `find_first` and `find_last`: where a substring first or last occurs, or null.
    private func found<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        // The position of `sub` in `subject[start:end]` (slice rules: negative counts from
        // the end, out of range is clamped), counted from the start of `subject`.
        let s = Array(try string(args, 0).unicodeScalars)
        let sub = Array(try string(args, 1).unicodeScalars)
        let startArg = try optional(args, 2, .number, "a number")
        let endArg = try optional(args, 3, .number, "a number")
        let first = try startArg.map { a throws(JMESPathError) in try integer(a, 2) } ?? 0
        let last = try endArg.map { a throws(JMESPathError) in try integer(a, 3) } ?? s.count
        func clamp(_ i: Int) -> Int { Swift.min(Swift.max(i < 0 ? i + s.count : i, 0), s.count) }
        let lower = clamp(first), upper = clamp(last)
        guard !sub.isEmpty, upper - lower >= sub.count else { return .jmesNull }
        let candidates = lower...(upper - sub.count)
        let found = self == .findFirst
            ? candidates.first { s[$0..<$0 + sub.count].elementsEqual(sub) }
            : candidates.reversed().first { s[$0..<$0 + sub.count].elementsEqual(sub) }
        return found.map { .jmesInt($0) } ?? .jmesNull
    }
}

/// The widest `pad_left` and `pad_right` make a string, in code points.
let maxPadWidth = 10_000_000

/// The string of some code points.
private func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    var s = String.UnicodeScalarView()
    s.append(contentsOf: scalars)
    return String(s)
}
