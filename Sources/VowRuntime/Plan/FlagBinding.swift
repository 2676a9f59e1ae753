import VowSyntax

/// A stage's arguments sorted into positional ones and flags, by the flags the stage declares.
struct FlagBinding {
    /// The positional arguments, in order (for a stage that takes an inner stage, the inner
    /// stage's name and arguments, its flags included).
    var positional: ArgumentList = []
    /// The flags by name: each value node, or nil for a switch given without a word.
    var flags: [String: [Argument?]] = [:]

    /// Binds `node`'s arguments for `def`. A flag `def` does not declare is a problem (with a
    /// hint among `def`'s flags and `outerFlags`, those of the stage around it), unless it comes
    /// after the inner stage's name of a stage that takes one: then it is the inner stage's.
    static func bind(_ def: any StageDefinition.Type, node: StageNode, outerFlags: [String] = []) -> Result<FlagBinding, PlanProblem> {
        var bound = FlagBinding()
        let args = node.arguments
        if def.argumentStyle == .passthrough {
            bound.positional = args
            return .success(bound)
        }
        // Most stages are given no flag: their arguments are all positional.
        if !args.contains(where: isFlag) {
            bound.positional = args
            return .success(bound)
        }
        let declared = def.flags
        // A stage declares a handful of flags at most: a linear search, no dictionary per call.
        func spec(_ name: String) -> FlagSpec? { declared.first { $0.name == name } }
        var i = 0
        while i < args.count {
            let a = args[i]
            guard case .flag(let f) = a.kind else {
                bound.positional.append(a)
                i += 1
                continue
            }
            if def.namesAFlag && bound.positional.isEmpty {
                bound.positional.append(a)  // the flag it declares (`flag --yes`)
                i += 1
                continue
            }
            if let spec = spec(f) {
                if spec.value != nil {
                    guard i + 1 < args.count, !isFlag(args[i + 1]) else {
                        return .failure(PlanProblem("\(def.name): --\(f) needs a value (\(spec.value!))", span: a.span, beforeRun: false))
                    }
                    bound.flags[f, default: []].append(args[i + 1])
                    i += 2
                } else if i + 1 < args.count, case .word(let t) = args[i + 1].kind, let word = t.literalText, spec.choices.contains(word) {
                    bound.flags[f, default: []].append(args[i + 1])
                    i += 2
                } else if !spec.choices.isEmpty, i + 1 < args.count, case .word(let t) = args[i + 1].kind, let word = t.literalText,
                    let limit = def.positionalLimit, bound.positional.count >= limit
                {
                    // A word after `--stream` that no positional place is left for meant a choice.
                    let choices = spec.choices.dropLast().joined(separator: ", ") + " or " + spec.choices.last!
                    return .failure(PlanProblem("\(def.name): --\(f) takes \(choices) (or nothing), got '\(word)'", span: args[i + 1].span, beforeRun: true))
                } else {
                    bound.flags[f, default: []].append(nil)
                    i += 1
                }
                continue
            }
            if def.argumentStyle == .stage && !bound.positional.isEmpty {
                bound.positional.append(a)  // belongs to the inner stage
                i += 1
                continue
            }
            if def.takesWordsAsWritten && !bound.positional.isEmpty {
                // The program's own (`run git log --oneline`); `--color=never` is one word.
                if i + 1 < args.count, args[i + 1].span.start == a.span.end, case .word(let t) = args[i + 1].kind,
                    let rest = t.literalText, rest.hasPrefix("=")
                {
                    let joined = Template(parts: [.literal("--" + f + rest)])
                    bound.positional.append(Argument(kind: .word(joined), span: SourceSpan(start: a.span.start, end: args[i + 1].span.end)))
                    i += 2
                    continue
                }
                bound.positional.append(a)
                i += 1
                continue
            }
            if def.takesUndeclaredFlags {
                guard i + 1 < args.count, !isFlag(args[i + 1]) else {
                    return .failure(PlanProblem("\(def.name): --\(f) needs a value", span: a.span, beforeRun: true))
                }
                bound.flags[f, default: []].append(args[i + 1])
                i += 2
                continue
            }
            // A misspelt flag may be meant for the stage around this one (`each … --limt`).
            let hint = closest(to: f, among: declared.map(\.name) + outerFlags).map { " (did you mean --\($0)?)" } ?? ""
            return .failure(PlanProblem("\(def.name): unknown flag --\(f)\(hint)", span: a.span, beforeRun: true))
        }
        return .success(bound)
    }

    private static func isFlag(_ a: Argument) -> Bool {
        if case .flag = a.kind { return true }
        return false
    }
}
