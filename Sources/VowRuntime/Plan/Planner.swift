import JMESPath
import VowSyntax
import VowValue

/// The planning pass: a pipeline's syntax becomes plans (`StagePlan`), every stage name
/// resolved (a `def`, a built-in, an external `vow-NAME`), `then X` rewritten to X, flags bound
/// by the stage's declaration, the inner stage of `then`/`catch`/`each …` planned, look-ahead
/// fused (`LooksAhead`), and what cannot start given as a `PlanProblem` with its span.
///
/// It is the one place names are resolved: the evaluator runs plans, `StatementStarter.check` reports
/// their problems before anything runs (`Planner+Check.swift`), the JavaScript twin and the
/// explainer write from them, and completion reads the registry through the same declarations.
/// Nothing in a plan depends on the input, so a pipeline run many times is planned once.
struct Planner: Sendable {
    /// The stages known by name.
    let registry: StageRegistry
    /// The `def` stages known by name: the session's, or, for a program not yet run, also the
    /// program's own.
    let defs: [String: UserStage]

    /// A planner for the stages a session knows now; call it on the session executor.
    init(session: Session) {
        self.registry = session.registry
        self.defs = session.defs
    }

    /// A planner for `registry` and `defs`.
    init(registry: StageRegistry, defs: [String: UserStage]) {
        self.registry = registry
        self.defs = defs
    }

    /// Every stage of `stages` planned, each followed stage given its look-ahead.
    ///
    /// With `sharing`, the source `stages` are written in, a stage written byte for byte as the
    /// one before it is given that one's plan when it can be shared (`StagePlan.canBeShared`):
    /// a million `then (pick @)` hops keep one plan, not a million of 80 bytes. Only a caller
    /// that places each plan it runs (`StagePlan.placed(in:at:)`) and reads each stage's span
    /// from its node asks for it: the evaluator, for a statement's pipeline checked before it
    /// runs (`CheckedPlans`).
    func plan(_ stages: Slice<StageNodes>, sharing source: SourceText? = nil) -> [StagePlan] {
        // The plans keep the pipeline's block their nodes are in (`StagePlan.init`), not a copy of each.
        let list = stages.base
        var names = ResolvedNames()
        // A pipeline of one stage (an element of a list, a group: made for every element or
        // hop) has its list made with its plan, not grown to hold it.
        if stages.count == 1 { return [plan(list[stages.startIndex], place: (list, stages.startIndex), names: &names)] }
        // A loop, not a map: a closure that changed `previous` would box it, on every call.
        var made: [StagePlan] = []
        made.reserveCapacity(stages.count)
        for i in stages.indices {
            if let source, let previous = made.last, previous.canBeShared, source.sameText(list[i - 1].span, list[i].span) {
                made.append(previous)
                continue
            }
            // A stage written as the one before it (a long `pick @ | pick @ | …`) is planned as it was.
            if let previous = made.last, let again = previous.again(at: (list, i)) {
                made.append(again)
            } else {
                made.append(plan(list[i], place: (list, i), names: &names))
            }
        }
        // From the last pair back, so that a stage looking ahead sees what the stage after it
        // found when it looked (`each json | where … | len`).
        // A shared plan never looks ahead (`canBeShared`): fusing it changes nothing.
        for i in made.indices.dropLast().reversed() {
            made[i].fuse(next: made[i + 1])
        }
        return made
    }

    /// Every stage of `p` planned (`plan(_:sharing:)` of its stages).
    func plan(_ p: Pipeline, sharing source: SourceText? = nil) -> [StagePlan] { plan(p.stages[...], sharing: source) }

    /// One stage planned. `outerFlags` are the flags of the stage around it (`each`'s
    /// `--limit` for the inner stage of `each fetch …`), offered when a flag is misspelt.
    /// `place`: the list of stages `node` is in and its index there (`StagePlan.init`).
    func plan(_ node: StageNode, outerFlags: [String] = [], place: (nodes: StageNodes, index: Int)? = nil) -> StagePlan {
        var names = ResolvedNames()
        return plan(node, outerFlags: outerFlags, place: place, names: &names)
    }

    /// `plan(_:outerFlags:place:)`, the stage's name resolved through `names`, which keeps the
    /// name resolved last.
    private func plan(
        _ node: StageNode, outerFlags: [String] = [], place: (nodes: StageNodes, index: Int)?, names: inout ResolvedNames
    ) -> StagePlan {
        switch node.head {
        case .value(let arg):
            // `$x | …`, `%2 | …`, `[a, b] | …`: the value itself, evaluated against the input.
            return StagePlan(node: node, place: place, kind: .value(arg))  // named by its source text when run
        case .named(let name, _):
            // The name is looked up once, here (a million-stage pipeline looked each up four times).
            let user = defs[name]
            let def = user == nil ? names.builtin(name, in: registry) : nil
            // `then X …` is `| X …`: the inner stage is applied to the upstream itself, with the
            // same promise and the same turns, instead of running a one-stage pipeline per input.
            // The span and name stay those of the whole `then` stage, for error origins.
            if def?.appliesItsStage == true, let first = node.arguments.first, case .word(let t) = first.kind, let inner = t.literalText {
                let innerUser = defs[inner]
                let innerDef = innerUser == nil ? registry.stage(named: inner) : nil
                if innerUser != nil || innerDef?.argumentStyle == .values {
                    let rewritten = StageNode(
                        head: .named(inner, first.span), arguments: ArgumentList(node.arguments.dropFirst()),
                        span: SourceSpan(start: first.span.start, end: node.span.end))
                    let p = named(inner, rewritten, place: nil, user: innerUser, builtin: innerDef, outerFlags: outerFlags)
                    p.nameAsWritten = name
                    p.rewrittenThen = node.span
                    return p
                }
            }
            return named(name, node, place: place, user: user, builtin: def, outerFlags: outerFlags)
        }
    }

    /// The plan of a stage named `name`, which is `user` (a `def`) or else `builtin` (nil when
    /// the registry has no such stage), as looked up by the caller.
    private func named(
        _ name: String, _ node: StageNode, place: (nodes: StageNodes, index: Int)?, user: UserStage?,
        builtin: (any StageDefinition.Type)?, outerFlags: [String]
    ) -> StagePlan {
        if let user {
            return StagePlan(node: node, place: place, kind: .user(user))
        }
        let def: any StageDefinition.Type
        if let d = builtin {
            def = d
        } else if ExternalStage.find(name) != nil {
            def = ExternalStage.self
        } else {
            // A program on PATH (`ls`, `git`) is run by `run`; else the closest name.
            let hint = ExternalStage.onPath(name) != nil
                ? " (\(name) is a program: run \(name) …)"
                : registry.suggestion(for: name, extra: Array(defs.keys)).map { " (did you mean '\($0)'?)" } ?? ""
            let span: SourceSpan
            if case .named(_, let nameSpan) = node.head { span = nameSpan } else { span = node.span }
            return StagePlan(
                node: node, place: place,
                kind: .refused(PlanProblem("unknown stage '\(name)'\(hint)", span: span, beforeRun: true)))
        }
        let plan: StagePlan
        switch FlagBinding.bind(def, node: node, outerFlags: outerFlags) {
        case .success(let bound) where def.positionalLimit.map({ bound.positional.count > $0 }) ?? false:
            plan = StagePlan(node: node, place: place, kind: .refused(Self.tooManyArguments(def, bound.positional)))
        case .success(let bound) where Self.unreadableExpression(def, bound.positional, flags: bound.flags) != nil:
            plan = StagePlan(
                node: node, place: place, kind: .refused(Self.unreadableExpression(def, bound.positional, flags: bound.flags)!))
        case .success(let bound) where Self.followedGroup(def, bound.positional) != nil:
            plan = StagePlan(node: node, place: place, kind: .refused(Self.followedGroup(def, bound.positional)!))
        case .success(let bound):
            let inner = innerPlan(def, node: node, positional: bound.positional)
            if ObjectIdentifier(def) == ObjectIdentifier(TapStage.self), let inner, inner.name == ThenableStage.name {
                // JavaScript drops a tap handler's value unless it is a promise: the thenable's
                // then would never be called.
                plan = StagePlan(node: node, place: place, kind: .refused(PlanProblem(
                    "tap waits only for a promise, and a thenable is none: its then would never be called; write tap (thenable …), a group, which is a promise",
                    span: inner.node.span, beforeRun: true)))
            } else {
                plan = StagePlan(node: node, place: place, kind: .builtin(def, bound.positional))
                if !bound.flags.isEmpty { plan.flags = bound.flags }
                // Set only when there is one: it is kept with the fields few plans have.
                if let inner { plan.inner = inner }
            }
        case .failure(let problem):
            plan = StagePlan(node: node, place: place, kind: .refused(problem))
        }
        plan.onRejection = Self.isTwoHandlerForm(def, plan) ? .recovers : def.onRejection
        return plan
    }

    /// The problem of a stage given more positional arguments than it takes, pointing at the
    /// first one too many; for an expression stage, the expression to write quoted.
    static func tooManyArguments(_ def: any StageDefinition.Type, _ positional: ArgumentList) -> PlanProblem {
        let limit = def.positionalLimit ?? 0
        let extra = positional[limit]
        let span = SourceSpan(start: extra.span.start, end: positional.last!.span.end)
        var message = "\(def.name) takes \(limit == 1 ? "one argument" : "\(limit) arguments"), given \(positional.count): nothing ran"
        if def.expressionArguments > 0 {
            let start = "\(message); quote the expression: \(def.name) "
            // Each word as the expression needs it: a number or a constant as a JSON literal,
            // anything else (`[*]` read as a list) as it was written; words written together
            // (`[*].name`) stay together.
            @Sendable func expression(_ source: SourceText?) -> String {
                var out = ""
                for (i, a) in positional.enumerated() {
                    if i > 0, positional[i - 1].span.end < a.span.start { out += " " }
                    switch a.kind {
                    case .number(_, _, let text): out += "`" + text + "`"
                    case .boolean(let b): out += "`\(b)`"
                    case .null: out += "`null`"
                    case .undefined: out += "`null`"
                    default: out += a.expressionText ?? source.map { $0.slice(a.span) } ?? "…"
                    }
                }
                return out.contains("'") ? "\"\(out)\"" : "'\(out)'"
            }
            var problem = PlanProblem(start + expression(nil), span: span, beforeRun: true)
            problem.sourced = { start + expression($0) }
            return problem
        } else if def.group == .http {
            // HTTPie's request items (`name=ada`, `n:=1`) written as vow's flags.
            let items = positional.dropFirst().compactMap { a -> (String, String)? in
                guard let text = a.expressionText else { return nil }
                if let r = text.range(of: ":=") { return (String(text[..<r.lowerBound]), String(text[r.upperBound...])) }
                if let r = text.range(of: "=") { return (String(text[..<r.lowerBound]), String(text[r.upperBound...])) }
                return nil
            }
            if !items.isEmpty, items.count == positional.count - 1 {
                message += "; a body is a flag: --json {\(items.map { "\($0.0): \($0.1)" }.joined(separator: ", "))}"
            }
        }
        return PlanProblem(message, span: span, beforeRun: true)
    }

    /// An expression argument (`pick .name`, `where 'a >'`) that does not parse, found before
    /// anything runs (the request is never sent); nil when every one parses. Expressions are
    /// compiled once and cached, so the stage finds it compiled.
    static func unreadableExpression(_ def: any StageDefinition.Type, _ positional: ArgumentList, flags: [String: [Argument?]] = [:]) -> PlanProblem? {
        func check(_ text: String, _ a: Argument, flag: String?) -> PlanProblem? {
            do {
                _ = try JMESPathExpression.cached(text)
                return nil
            } catch {
                let message = Pick.pickError(error, text).message
                let said = message.hasPrefix("syntax: ") ? String(message.dropFirst("syntax: ".count)) : message
                return PlanProblem("\(def.name): \(flag.map { "--\($0): " } ?? "")\(said)", span: a.span, beforeRun: true)
            }
        }
        for a in positional.prefix(def.expressionArguments) {
            guard let text = a.expressionText else { continue }
            if let problem = check(text, a, flag: nil) { return problem }
        }
        // A flag's expression is checked when it is literal text (a template is only known when
        // it is filled in).
        let expressionFlags = def.expressionFlags
        guard !expressionFlags.isEmpty else { return nil }
        for name in expressionFlags.sorted() {
            for case let a? in flags[name] ?? [] {
                guard let text = PickAhead.literal(a) else { continue }
                if let problem = check(text, a, flag: name) { return problem }
            }
        }
        return nil
    }

    /// True when `name` is a stage: a def or a built-in.
    func namesStage(_ name: String) -> Bool {
        defs[name] != nil || registry.stage(named: name) != nil
    }

    /// `then (A) (B)`: a stage that takes a rejection handler, given two groups.
    static func isTwoHandlerForm(_ def: any StageDefinition.Type, _ plan: StagePlan) -> Bool {
        guard def.takesRejectionHandler, case .builtin(_, let positional) = plan.kind, positional.count == 2 else { return false }
        return positional.allSatisfy(\.isGroup)
    }

    /// The problem with an inner stage that is a group or a value followed by more arguments
    /// (`catch (A) (B)`: the second would be dropped), but for `then (A) (B)`; nil when none.
    private static func followedGroup(_ def: any StageDefinition.Type, _ positional: ArgumentList) -> PlanProblem? {
        guard def.argumentStyle == .stage, positional.count >= 2, let first = positional.first else { return nil }
        if case .word = first.kind { return nil }
        let groups = positional.allSatisfy(\.isGroup)
        if def.takesRejectionHandler {
            if groups && positional.count == 2 { return nil }
            return PlanProblem(
                "\(def.name) takes one stage, or two groups: \(def.name) (ON FULFILLED) (ON REJECTED)",
                span: positional[positional.count > 2 && groups ? 2 : 1].span, beforeRun: true)
        }
        return PlanProblem(
            "\(def.name) takes one stage: a group `( … )` is the whole of it, so nothing may follow it (`(A | B)` runs two stages)",
            span: positional[1].span, beforeRun: true)
    }

    /// The stage that `then X…`, `catch X…`, `each X…` name: X with the rest of their arguments
    /// (a value when the first argument is not a word), planned; nil for a stage that takes no
    /// inner stage, none given, or a group (a pipeline of its own, planned when it runs).
    private func innerPlan(_ def: any StageDefinition.Type, node: StageNode, positional: ArgumentList) -> StagePlan? {
        guard def.argumentStyle == .stage, let first = positional.first else { return nil }
        if positional.count == 1, case .group = first.kind { return nil }
        return plan(StageNode.inner(first: first, rest: positional.dropFirst(), end: node.span.end), outerFlags: def.flags.map(\.name))
    }
}

/// Why a stage cannot start: an unknown name, an unknown flag, a flag without its value. The
/// stage rejects with it (kind `syntax`) when it runs; `StatementStarter.check` reports it before
/// anything runs when `beforeRun` says so.
struct PlanProblem: Error, Sendable {
    /// What is wrong, in words (`unknown stage 'fetc' (did you mean 'fetch'?)`).
    let message: String
    /// Where: the stage's name, or the flag.
    let span: SourceSpan
    /// True for what a program is refused for before it runs (an unknown stage or flag); a
    /// missing flag value is found when the stage runs, as it always was.
    let beforeRun: Bool

    /// A problem at `span`.
    init(_ message: String, span: SourceSpan, beforeRun: Bool) {
        self.message = message
        self.span = span
        self.beforeRun = beforeRun
    }

    /// The message written with the program's source at hand, when it needs it (an argument
    /// shown as it was written); `problems(in:)` uses it.
    var sourced: (@Sendable (SourceText) -> String)? = nil

    /// The problem with its message written from `source`, when it has one to write.
    func written(from source: SourceText) -> PlanProblem {
        guard let sourced else { return self }
        return PlanProblem(sourced(source), span: span, beforeRun: beforeRun)
    }

    /// The error the stage rejects with.
    var error: VowError { VowError(.syntax, message) }
}
