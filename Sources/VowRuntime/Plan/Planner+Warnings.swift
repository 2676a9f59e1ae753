import VowSyntax

extension Planner {
    /// What a program may not mean as written, said before it runs, without refusing it: a lone
    /// word in a list that is also the name of a stage or a `def` (it is text; `(NAME)` runs the
    /// stage), and a single-quoted `format` template, in which nothing is filled in.
    func warnings(in program: Program) -> [PlanProblem] {
        // Each warning is about a lone word in a list (the parser says whether there is one), a
        // quoted string, or an expression's `"` or `items(…)[]`, all of them bytes of the source
        // (no escape makes one in a word, and a string that escapes one is in quotes): a program
        // with none of them has none, and is not walked (a million-element list of `resolve N`
        // was walked for 15% of its time).
        guard Self.mayWarn(program) else { return [] }
        return allWarnings(in: program)
    }

    /// False when `program` has no list literal holding a lone word and its source has no `"`,
    /// no `'`, and not both `(` and `[`: what `warnings(in:)` looks for cannot be written
    /// without one of them. A warning added that can be written without them must add what it
    /// needs here, or it is never looked for.
    static func mayWarn(_ program: Program) -> Bool {
        let source = program.source
        return program.listsHoldLoneWords || source.contains(byte: UInt8(ascii: "\"")) || source.contains(byte: UInt8(ascii: "'"))
            || (source.contains(byte: UInt8(ascii: "(")) && source.contains(byte: UInt8(ascii: "[")))
    }

    /// `warnings(in:)` found by walking every stage of `program`.
    func allWarnings(in program: Program) -> [PlanProblem] {
        var found: [PlanProblem] = []
        func element(_ p: Pipeline) {
            guard let (word, span) = p.loneWord, defs[word] != nil || registry.stage(named: word) != nil else { return }
            let what = defs[word] != nil ? "a def" : "a stage"
            found.append(PlanProblem(
                "in a list, \(word) is the text \"\(word)\", though \(what) of that name exists; write (\(word)) to run it",
                span: span, beforeRun: false))
        }
        // The stage looked up last: a long pipeline repeats a few names.
        var names = ResolvedNames()
        // The expression looked through last, and what was found in it: the same expression
        // repeated is looked through once.
        var lastText: String? = nil
        var lastFindings: (quoted: String?, call: String?) = (nil, nil)
        program.forEachStage { stage in
            // Not in a record: `{type: text}` names a kind far more often than it means a stage.
            for a in stage.arguments { if case .list(let elements) = a.kind { elements.forEach(element) } }
            if case .value(let a) = stage.head, case .list(let elements) = a.kind { elements.forEach(element) }
            guard let name = stage.name else { return }
            // A jq or JavaScript habit: `city == "Oslo"` compares with the field named Oslo.
            if let def = names.builtin(name, in: registry), def.expressionArguments > 0 {
                for a in stage.arguments.prefix(def.expressionArguments) {
                    guard let text = a.expressionText else { continue }
                    if text != lastText {
                        lastText = text
                        lastFindings = (Self.comparedWithAQuotedName(text), Self.flattenedPairs(text))
                    }
                    if let quoted = lastFindings.quoted {
                        found.append(PlanProblem(
                            "\(def.name): in JMESPath \"\(quoted)\" is the field named \(quoted), not text; text is '\(quoted)' (in single quotes inside the expression)",
                            span: a.span, beforeRun: false))
                    }
                    // A jq habit: `.[]` goes over the pairs, but JMESPath's `[]` flattens them.
                    if let call = lastFindings.call {
                        found.append(PlanProblem(
                            "\(def.name): \(call)[] flattens the [key, value] pairs into one list of keys and values, mixed; \(call)[*] goes over the pairs (\(call)[*][0] the keys)",
                            span: a.span, beforeRun: false))
                    }
                }
            }
            guard name == FormatStage.name else { return }
            for a in stage.arguments {
                guard case .rawString(let s) = a.kind, s.contains("{") || s.contains("$") else { continue }
                found.append(PlanProblem(
                    "format: '\(s)' is in single quotes, so nothing in it is filled in; write it in double quotes to fill it in",
                    span: a.span, beforeRun: false))
            }
        }
        return found
    }

    /// The call in the first `items(…)[]` of `expression` (`items(@)`): a flatten of the key and
    /// value pairs where a projection over them was meant. Nil when there is none.
    static func flattenedPairs(_ expression: String) -> String? {
        // A regex is compiled where it is used: looked for only where it can match.
        guard expression.utf8.contains(UInt8(ascii: "(")), expression.contains("items("), let m = expression.firstMatch(of: /\b(items\([^()]*\))\s*\[\]/) else { return nil }
        return String(m.output.1)
    }

    /// The name in the first `== "NAME"` (or `!=`, `<`…) of `expression`: a comparison with a
    /// quoted identifier, which a jq or JavaScript user writes meaning text. Nil when there is none.
    static func comparedWithAQuotedName(_ expression: String) -> String? {
        guard expression.utf8.contains(UInt8(ascii: "\"")), let m = expression.firstMatch(of: /(==|!=|<=|>=|<|>)\s*"([^"\\]*)"/) else { return nil }
        return String(m.output.2)
    }
}
