import VowSyntax
import VowValue

/// Arguments in the twin: flags, values, templates, and stage calls that wait for their arguments.
extension JavaScriptTwin {
    /// The value node of `flag` as the planner bound it (the last one given), if any.
    func flag<T>(_ flag: Flag<T>, in plan: StagePlan) -> Argument? {
        guard plan.definition != nil, let given = plan.flags[flag.name]?.last else { return nil }
        return given
    }

    /// The flags a stage declares, as a JavaScript object in the order they are written: a
    /// flag with a value gives its value, a choice its word, a switch `true` (`{ stream: "sse",
    /// limit: 4 }`).
    func flagObject(_ plan: StagePlan, input: String, depth: Int) -> String {
        guard case .builtin(let def, _) = plan.kind else { return "{}" }
        var fields: [String] = []
        var i = 0
        let args = plan.node.arguments
        while i < args.count {
            defer { i += 1 }
            guard case .flag(let f) = args[i].kind, let spec = def.flags.first(where: { $0.name == f }) else { continue }
            let next = i + 1 < args.count ? args[i + 1] : nil
            if spec.value != nil, let next {
                fields.append("\(Self.key(f)): \(value(next, input: input, depth: depth))")
                i += 1
            } else if let next, case .word(let t) = next.kind, let word = t.literalText, spec.choices.contains(word) {
                fields.append("\(Self.key(f)): \(jsString(word))")
                i += 1
            } else {
                fields.append("\(Self.key(f)): true")
            }
        }
        return fields.isEmpty ? "{}" : "{ " + fields.joined(separator: ", ") + " }"
    }

    /// A flag's name as an object key: bare when it is an identifier (`stream`), else quoted.
    static func key(_ flag: String) -> String {
        flag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !(flag.first?.isNumber ?? true) ? flag : jsString(flag)
    }

    /// The positional arguments of a `def` stage's call: flags, which a def does not take, are
    /// left out with the word after each (a secret, say), never written into the twin.
    func unflagged(_ arguments: ArgumentList) -> ArgumentList {
        var out: ArgumentList = []
        var skipNext = false
        for a in arguments {
            if case .flag = a.kind {
                skipNext = true
                continue
            }
            if skipNext {
                skipNext = false
                continue
            }
            out.append(a)
        }
        return out
    }

    /// The positional arguments of a plan, as the planner bound them.
    func positional(_ plan: StagePlan) -> ArgumentList {
        if case .builtin(_, let positional) = plan.kind { return positional }
        return unflagged(plan.node.arguments)
    }

    /// True when the argument is a promise in the twin (it waits before the stage runs).
    func isPending(_ a: Argument) -> Bool {
        switch a.kind {
        case .variable(let name, _): return lets.contains(name)
        case .job: return true
        case .group: return true
        case .list(let ps): return ps.contains { $0.stages.count != 1 || body(plan($0)[0], input: "null", depth: 0).isPromise }
        case .record(let fs): return fs.contains { $0.value.stages.count != 1 || body(plan($0.value)[0], input: "null", depth: 0).isPromise }
        case .word(let t), .string(let t):
            return t.parts.contains { if case .variable(let n, _) = $0 { return lets.contains(n) } else { return false } }
        default: return false
        }
    }

    /// A stage call whose arguments may wait: `Promise.all(args).then(args => call)` with the
    /// arguments gathered in Promise.all's turn, as vow gathers them.
    /// An expression's text with the vow variables it names bound (`ExpressionVariables`), as
    /// vow binds them: `vow.bindExpression(text, [[name, value]…])`, waiting for `let` promises.
    func expression(_ text: String) -> (code: String, isPromise: Bool) {
        let names = ExpressionVariables.names(in: text).filter { lets.contains($0) || values.contains($0) || $0 == "env" }
        guard !names.isEmpty else { return (jsString(text), false) }
        let waits = names.filter { lets.contains($0) }
        let pairs = names.map { n in "[\(jsString(n)), \(lets.contains(n) ? "w.\(n)" : "$" + n)]" }.joined(separator: ", ")
        let call = "vow.bindExpression(\(jsString(text)), [\(pairs)])"
        if waits.isEmpty { return (call, false) }
        return (waitingFor(waits, call), true)
    }

    /// The first `expressions` arguments are expressions: their text as written
    /// (`StageDefinition.expressionArguments`).
    func withArguments(
        _ args: ArgumentList, input: String, depth: Int, expressions: Int = 0, wordsAsWritten: Bool = false, _ call: ([String]) -> String
    ) -> TwinCode {
        let evaluated = args.enumerated().map { i, a in
            if i < expressions, let text = a.expressionText { return expression(text) }
            if wordsAsWritten, let text = a.wordAsWritten { return (code: jsString(text), isPromise: false) }
            return argument(a, input: input, depth: depth)
        }
        if !evaluated.contains(where: \.isPromise) { return TwinCode(call(evaluated.map(\.code)), isPromise: false) }
        var waits: [String] = []
        var names: [String] = []
        for (i, e) in evaluated.enumerated() {
            if e.isPromise {
                waits.append(e.code)
                names.append("a\(depth)_\(i)")
            } else {
                names.append(e.code)
            }
        }
        let pendingNames = evaluated.enumerated().filter(\.element.isPromise).map { "a\(depth)_\($0.offset)" }
        return TwinCode(
            "vow.allMap([\(waits.joined(separator: ", "))], (x) => x).then(([\(pendingNames.joined(separator: ", "))]) => \(call(names)))",
            isPromise: true)
    }

    /// An argument's expression, plain or promise.
    func value(_ a: Argument, input: String, depth: Int) -> String { argument(a, input: input, depth: depth).code }

    /// An argument's value: a plain expression, or a promise expression.
    func argument(_ a: Argument, input: String, depth: Int) -> (code: String, isPromise: Bool) {
        switch a.kind {
        case .word(let t), .string(let t): return template(t, input: input)
        case .rawString(let s): return (jsString(s), false)
        case .number(let d, let isInteger, let text): return (isInteger ? text : JSONWriter.compact(.double(d)), false)
        case .boolean(let b): return (b ? "true" : "false", false)
        case .null: return ("null", false)
        case .undefined: return ("undefined", false)
        case .duration(let s, _): return (JSONWriter.compact(.double(s)), false)
        case .list(let ps):
            let parts = ps.map { element($0, input: input, depth: depth) }
            if !parts.contains(where: \.isPromise) { return ("[" + parts.map(\.code).joined(separator: ", ") + "]", false) }
            return ("Promise.all([" + parts.map { $0.isPromise ? $0.code : "Promise.resolve(\($0.code))" }.joined(separator: ", ") + "])", true)
        case .record(let fields):
            let parts = fields.map { element($0.value, input: input, depth: depth) }
            if !parts.contains(where: \.isPromise) {
                return ("{ " + zip(fields, parts).map { "\(jsString($0.key)): \($1.code)" }.joined(separator: ", ") + " }", false)
            }
            let keys = "[" + fields.map { jsString($0.key) }.joined(separator: ", ") + "]"
            return ("vow.keyed(\(keys), [" + parts.map { $0.isPromise ? $0.code : "Promise.resolve(\($0.code))" }.joined(separator: ", ") + "])", true)
        case .variable(let name, let path):
            let base = name == "_" ? input : "$" + name
            if lets.contains(name) {
                guard let path else { return (base, true) }
                return ("\(base).then((x) => vow.path(x, \(jsString(path))))", true)
            }
            guard let path else { return (base, false) }
            return ("vow.path(\(base), \(jsString(path)))", false)
        case .job(let n): return ("vow.jobPromise(\(n))", true)
        case .group(let p): return (pipeline(p, input: input, depth: depth), true)
        case .flag(let f): return ("vow.missing(\(jsString("--" + f)))()", false)
        }
    }

    /// A list element, record field or group argument: a value when it is one stage that
    /// finishes at once, else the pipeline's promise.
    func element(_ p: Pipeline, input: String, depth: Int) -> (code: String, isPromise: Bool) {
        if p.stages.count == 1 {
            let b = body(plan(p)[0], input: input, depth: depth)
            if !b.isPromise { return (b.code, false) }
        }
        return (pipeline(p, input: input, depth: depth), true)
    }

    /// A template as a JavaScript template literal; one that names a `let` promise waits for it.
    func template(_ t: Template, input: String) -> (code: String, isPromise: Bool) {
        if let lit = t.literalText { return (jsString(lit), false) }
        var waits: [String] = []
        var out = "`"
        // A literal after a variable, taken into `vow.dotted` (`$env.API/users`).
        var skip = -1
        for (index, part) in t.parts.enumerated() where index != skip {
            switch part {
            case .literal(let s):
                out += s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "`", with: "\\`").replacingOccurrences(of: "${", with: "\\${")
            case .input(let path):
                out += "${vow.text(vow.path(\(input), \(path.map(jsString) ?? "null")))}"
            case .variable(let name, let path):
                let base = name == "_" ? input : "$" + name
                let value: String
                if lets.contains(name) {
                    if !waits.contains(name) { waits.append(name) }
                    value = "vow.path(w.\(name), \(path.map(jsString) ?? "null"))"
                } else {
                    value = "vow.path(\(base), \(path.map(jsString) ?? "null"))"
                }
                // `$env.API/users`: a record's fields named with dots after it (Evaluator.dottedFields).
                if path == nil, index + 1 < t.parts.count, case .literal(let rest) = t.parts[index + 1], rest.hasPrefix(".") {
                    out += "${vow.dotted(\(value), \(jsString(rest)))}"
                    skip = index + 1
                } else {
                    out += "${vow.text(\(value))}"
                }
            }
        }
        out += "`"
        if waits.isEmpty { return (out, false) }
        return (waitingFor(waits, out), true)
    }

    /// `code` once the `let` promises named by `lets` have settled, in Promise.all's turn, as vow
    /// waits for them: their values are `w.NAME` inside it.
    func waitingFor(_ lets: [String], _ code: String) -> String {
        let ps = lets.map { "$" + $0 }.joined(separator: ", ")
        let ks = lets.map(jsString).joined(separator: ", ")
        return "vow.allMap([\(ps)], (vs) => { const w = Object.fromEntries([\(ks)].map((k, i) => [k, vs[i]])); return \(code); })"
    }
}
