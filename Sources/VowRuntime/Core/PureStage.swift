import VowPromises
import VowSyntax
import VowValue

/// A one-stage pipeline run on many inputs (`each format "{}"`, `each (pick name)`), when the
/// stage is pure (`StageDefinition.isPure`) and its arguments need nothing but the input: the
/// stage runs directly on each input, with one call made once, instead of building a pipeline
/// run, a stage call and their records per input.
///
/// It gives the value the pipeline would give, in the same turn. It gives no error of its own:
/// when the stage throws, the caller runs the pipeline the ordinary way, which rejects with the
/// same error (the stage is pure), located and named as every rejection is. While an observer
/// is installed (`--trace`, the timeline) it is not used, so that every promise is recorded.
///
/// A class: the cache hands it out once an input, and a struct of three references cost three
/// retains and releases each time.
///
/// Sendable: every field is a `let`; the call it holds is used only on the session executor.
final class PureStage: @unchecked Sendable {
    let stage: any ValueStage
    let call: StageCall
    /// The arguments, evaluated once, when none can change from one input to the next (literal
    /// text, numbers, an expression that names no variable); nil when they are evaluated for
    /// each input.
    var fixed: StageArguments? { fixedArguments?.arguments }
    /// `fixed`, boxed: a run lends the box's arguments to the stage, where taking them out of
    /// an optional copied and destroyed them through their type's generic witnesses (~370
    /// instructions a run, a tenth of a long chain's).
    private let fixedArguments: FixedArguments?

    /// Arguments evaluated once (`fixed`).
    private final class FixedArguments: Sendable {
        let arguments: StageArguments
        /// The stage's work with these arguments, made once (`ValueStage.prepared`), when it
        /// has such a form.
        let prepared: (any PreparedStage)?

        init(_ arguments: StageArguments, stage: any ValueStage) {
            self.arguments = arguments
            self.prepared = stage.prepared(arguments)
        }

        /// `stage` run on `input` with these arguments, lent from here: its prepared form's
        /// value, or else its run's.
        func run(_ stage: any ValueStage, _ input: Value, _ call: StageCall) -> Resolution<Value>? {
            if let prepared, let v = prepared.value(input) { return .value(v) }
            return try? stage.run(input, arguments, call)
        }
    }
    /// When some argument fills in the input (`format "{}"`) and none names a variable: how
    /// each gets its value (`Slot`), and the arguments with every other part set, so that an
    /// input costs the filled-in templates and no evaluation of the rest. Nil otherwise (the
    /// call evaluates them, `StageCall.arguments(for:)`).
    private let slots: Slots?

    /// The slots of the arguments and flags, and the arguments with every other part set. A
    /// class: it is read once an input, and a tuple of them was copied, field by field, each time.
    ///
    /// Sendable: used only on the session executor, as the stage call is.
    private final class Slots: @unchecked Sendable {
        let positional: [Slot]
        let flags: [(name: String, slots: [Slot])]
        /// The arguments of the input before, their values replaced for each input: the list of
        /// values is the same one each time (a list a stage kept is copied, as any list is on
        /// change), not a list made and freed an input.
        /// Unchecked exclusivity: only `PureStage.arguments` changes it, on the one executor,
        /// never while it is being read.
        @exclusivity(unchecked) var arguments: StageArguments

        init(positional: [Slot], flags: [(name: String, slots: [Slot])], base: StageArguments) {
            self.positional = positional
            self.flags = flags
            self.arguments = base
            self.arguments.positional = FirstInPlaceList(repeating: .null, count: positional.count)
        }
    }

    /// True when the arguments come from their slots, filled in for each input (tests).
    var fillsInSlots: Bool { slots != nil }

    /// How one argument gets its value for an input.
    private enum Slot: Sendable {
        /// The same for every input.
        case constant(Value)
        /// A template of the input (`{}`, `{PATH}`), filled in for each.
        case input(Template)
    }

    /// The direct form of `plans` (one pipeline's stages), or nil when it has none: more than
    /// one stage, a stage that is not pure, or an argument that reads a variable or runs a
    /// pipeline.
    convenience init?(_ plans: [StagePlan], session: Session, scope: Scope, site: Site) {
        guard plans.count == 1 else { return nil }
        self.init(plans[0], session: session, scope: scope, site: site)
    }

    /// The direct form of the one stage `plan`, or nil when the stage is not pure or an argument
    /// reads a variable or runs a pipeline.
    init?(_ plan: StagePlan, session: Session, scope: Scope, site: Site) {
        guard Self.hasDirectForm(plan), case .builtin(let def, let positional) = plan.kind, let stage = def.valueStage()
        else { return nil }
        let flags = plan.flags
        self.stage = stage
        // `json` before `pick` builds only what the pick can look at, as in the pipeline
        // (`StageCall.pickAhead`, from the plan).
        let call = StageCall(
            plan: plan, upstream: nil, scope: scope, run: PipelineRun(site: site, input: .null), index: 0, direct: true)
        self.call = call
        let constant = positional.enumerated().allSatisfy { i, a in Self.isConstant(a, expression: i < def.expressionArguments) }
            && flags.values.allSatisfy { $0.allSatisfy { $0.map { Self.isConstant($0, expression: false) } ?? true } }
        if constant, case .value(let a)? = try? call.arguments(for: .null) {
            fixedArguments = FixedArguments(a, stage: stage)
            slots = nil
            return
        }
        fixedArguments = nil
        // Each argument's slot: a constant evaluated here (with no input: it reads none), or
        // the template to fill in. An expression naming a variable has none: the call
        // evaluates every argument then.
        let ev = Evaluator(session: session)
        func slot(_ a: Argument?, expression: Bool) -> Slot? {
            guard let a else { return .constant(.bool(true)) }
            if expression, let text = a.expressionText {
                return ExpressionVariables.names(in: text).isEmpty ? .constant(.string(text)) : nil
            }
            if def.takesWordsAsWritten, let text = a.wordAsWritten { return .constant(.string(text)) }
            if case .word(let t) = a.kind, !t.isLiteral { return .input(t) }
            if case .string(let t) = a.kind, !t.isLiteral { return .input(t) }
            guard case .value(let v)? = try? ev.argument(a, input: .null, scope: scope, site: site) else { return nil }
            return .constant(v)
        }
        var positionalSlots: [Slot] = []
        for (i, a) in positional.enumerated() {
            guard let s = slot(a, expression: i < def.expressionArguments) else {
                slots = nil
                return
            }
            positionalSlots.append(s)
        }
        var flagSlots: [(name: String, slots: [Slot])] = []
        for (name, nodes) in flags {
            var made: [Slot] = []
            for n in nodes {
                guard let s = slot(n, expression: false) else {
                    slots = nil
                    return
                }
                made.append(s)
            }
            flagSlots.append((name, made))
        }
        var base = StageArguments(positional: [], flags: [:], stage: plan.name)
        base.writtenIn = plan
        slots = Slots(positional: positionalSlots, flags: flagSlots, base: base)
    }

    /// True when the stage `plan` describes has a direct form: it is pure, takes one input
    /// (`ValueStage`), and its arguments read nothing but the input (no variable, no pipeline).
    static func hasDirectForm(_ plan: StagePlan) -> Bool {
        guard case .builtin(let def, let positional) = plan.kind, def.isPure, !plan.isHandler,
            def.valueStage() != nil
        else { return false }
        return positional.allSatisfy(needsOnlyInput) && plan.flags.values.allSatisfy({ $0.allSatisfy { $0.map(needsOnlyInput) ?? true } })
    }

    /// True for an argument whose value is the same for every input and every state of the
    /// session: a literal, or an expression argument (`pick`'s) that names no variable.
    static func isConstant(_ argument: Argument, expression: Bool) -> Bool {
        if expression, let text = argument.expressionText { return ExpressionVariables.names(in: text).isEmpty }
        switch argument.kind {
        case .word(let t), .string(let t): return t.isLiteral
        case .rawString, .number, .boolean, .null, .undefined, .duration, .flag: return true
        case .list, .record, .variable, .job, .group: return false
        }
    }

    /// True for an argument whose value depends on the input at most: literals and templates
    /// of the input, no variables, no pipelines.
    static func needsOnlyInput(_ argument: Argument) -> Bool {
        switch argument.kind {
        case .word(let t), .string(let t):
            return t.parts.allSatisfy { part in
                if case .variable = part { return false }
                return true
            }
        case .rawString, .number, .boolean, .null, .undefined, .duration, .flag:
            return true
        case .list, .record, .variable, .job, .group:
            return false
        }
    }

    /// The stage's value on `input`, or nil when it throws, waits, or `input` is a stream (the
    /// caller then runs the pipeline the ordinary way), or when its promises are `recorded`
    /// (an observer wants them: by default, whenever one is installed).
    func value(_ input: Value, recorded: Bool = PromiseObservation.isActive) -> Value? {
        if input.stream != nil || recorded { return nil }
        let ran: Resolution<Value>?
        if let fixedArguments {
            ran = fixedArguments.run(stage, input, call)
        } else if let slots {
            guard let args = Self.arguments(slots, input: input) else { return nil }
            ran = try? stage.run(input, args, call)
        } else {
            ran = try? stage.runEvaluated(input, call)
        }
        guard case .value(let v)? = ran else { return nil }
        return v
    }

    /// The arguments for `input` from the slots (`slots`); nil when a template cannot be
    /// filled in (its path does not parse): the caller runs the pipeline, which says why.
    private static func arguments(_ slots: Slots, input: Value) -> StageArguments? {
        func value(_ slot: Slot) -> Value? {
            switch slot {
            case .constant(let v): return v
            case .input(let t): return try? Evaluator.fill(t, input: input)
            }
        }
        if slots.positional.count <= 1, slots.flags.isEmpty {
            // Most pure stages take one argument (`format T`, `pick EXPR`) or none: made afresh,
            // with the value in place (no allocation), where copying the kept arguments out
            // went through their type's generic copy.
            var positional = FirstInPlaceList<Value>()
            if let s = slots.positional.first {
                guard let v = value(s) else { return nil }
                positional.append(v)
            }
            return StageArguments(positional: positional, flags: [:], stage: slots.arguments.stage, writtenIn: slots.arguments.writtenIn)
        }
        for (i, s) in slots.positional.enumerated() {
            guard let v = value(s) else { return nil }
            slots.arguments.positional[i] = v
        }
        for (name, flagSlots) in slots.flags {
            var values: [Value] = []
            values.reserveCapacity(flagSlots.count)
            for s in flagSlots {
                guard let v = value(s) else { return nil }
                values.append(v)
            }
            slots.arguments.flags[name] = values
        }
        return slots.arguments
    }
}
