// vow's regular-expression functions: `matches(subject, pattern)` and
// `regex_replace(subject, pattern, replacement)`, on the subset of patterns RegexSyntax reads.

extension Builtin {
    /// `matches` and `regex_replace`.
    func applyRegex<V: JMESPathValue>(_ args: [Arg<V>]) throws(JMESPathError) -> V {
        let subject = try string(args, 0)
        let pattern = try string(args, 1)
        switch self {
        case .matches:
            let regex = try compiledRegex(pattern)
            return .jmesBool(subject.firstMatch(of: regex.regex) != nil)
        case .regexReplace:
            let replacement = try string(args, 2)
            let regex = try compiledRegex(pattern)
            let parts = try replacementParts(replacement, regex.pattern)
            var out = ""
            var done = subject.startIndex
            for match in subject.matches(of: regex.regex) {
                out += subject[done..<match.range.lowerBound]
                for part in parts {
                    switch part {
                    case .text(let t): out += t
                    case .group(let n): out += match.output[n].substring ?? ""
                    }
                }
                done = match.range.upperBound
            }
            out += subject[done...]
            return .jmesString(out)
        default:
            preconditionFailure("\(rawValue)() is not a regular-expression function")
        }
    }

    /// The compiled form of `pattern`, from a small shared cache.
    private func compiledRegex(_ pattern: String) throws(JMESPathError) -> CompiledRegex {
        if let hit = regexCache.withLock({ $0[pattern] }) { return hit }
        let translated: RegexPattern
        do throws(RegexSyntaxError) {
            translated = try RegexPattern(pattern)
        } catch {
            throw JMESPathError(kind: .invalidValue, message: "\(rawValue)() pattern: \(error.message)")
        }
        guard let regex = try? Regex(translated.swift) else {
            throw JMESPathError(kind: .invalidValue, message: "\(rawValue)() pattern cannot be compiled")
        }
        let compiled = CompiledRegex(
            pattern: translated,
            regex: regex.matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple).asciiOnlyWordCharacters())
        regexCache.withLock { cache in
            if cache.count >= regexCacheCapacity { cache.removeAll() }
            cache[pattern] = compiled
        }
        return compiled
    }

    /// `replacement` read: `$$` is a dollar sign, `$0` the whole match, `$1`…`$9` a group's text
    /// (empty when the group took no part in the match); any other `$` is itself.
    private func replacementParts(_ replacement: String, _ pattern: RegexPattern) throws(JMESPathError) -> [ReplacementPart] {
        var parts: [ReplacementPart] = []
        var text = ""
        var chars = replacement.unicodeScalars.makeIterator()
        var pending = chars.next()
        while let c = pending {
            pending = chars.next()
            guard c == "$", let next = pending else {
                text.unicodeScalars.append(c)
                continue
            }
            if next == "$" {
                text += "$"
                pending = chars.next()
            } else if let n = next.properties.numericType == .decimal && next.isASCII ? Int(String(next)) : nil {
                guard n <= pattern.groups else {
                    throw JMESPathError(
                        kind: .invalidValue, message: "regex_replace() replacement names $\(n), but the pattern has \(pattern.groups) groups")
                }
                guard !pattern.ambiguous.contains(n) else {
                    throw JMESPathError(
                        kind: .invalidValue,
                        message: "regex_replace() replacement names $\(n), a group inside a repeated group or a lookahead, whose text is not defined")
                }
                if !text.isEmpty { parts.append(.text(text)) }
                text = ""
                parts.append(.group(n))
                pending = chars.next()
            } else {
                text += "$"
            }
        }
        if !text.isEmpty { parts.append(.text(text)) }
        return parts
    }
}

/// A pattern and its compiled regular expression.
///
/// Sendable: the standard library does not mark `Regex` Sendable. A compiled regex here is never
/// changed after it is made, and matching only reads it (the library builds its matching program
/// once, with an atomic store).
private struct CompiledRegex: @unchecked Sendable {
    let pattern: RegexPattern
    let regex: Regex<AnyRegexOutput>
}

/// A piece of a replacement: text, or the text of a group.
private enum ReplacementPart {
    case text(String)
    case group(Int)
}

/// The most patterns the cache keeps; it is emptied when full.
private let regexCacheCapacity = 256

/// Compiled patterns by their text.
private let regexCache = Locked<[String: CompiledRegex]>([:])
