import VowPromises
import VowSyntax
import VowValue

/// How a stage's arguments are evaluated (`ArgumentStyle.values`).
extension StageCall {
    /// The call's arguments evaluated against `input`: at once when every argument is a plain
    /// value, or a promise that fulfils when the pipelines among them have all settled.
    public func arguments(for input: Value) throws -> Resolution<StageArguments> {
        var later: Promise<StageArguments>?
        let now = try arguments(for: input, later: &later)
        if let later { return .promise(later) }
        return .value(now)
    }

    /// `arguments(for:)` without the `Resolution` around them: the arguments when they are all
    /// known at once; else `later` is set to the promise of them (and what is returned is not
    /// to be read). A stage run on every value of a long pipeline (`ValueStage.runEvaluated`)
    /// makes no `Resolution` of them, which is copied and destroyed through its generic type.
    func arguments(for input: Value, later: inout Promise<StageArguments>?) throws -> StageArguments {
        // The plan is read once: its kind holds the arguments and flags, its definition how it
        // reads them (each of the call's properties would look again).
        let (positional, flagNodes) = argumentNodes
        let def = plan.definition
        let (expressionArguments, takesWordsAsWritten) = (def?.expressionArguments ?? 0, def?.takesWordsAsWritten ?? false)
        let ev = Evaluator(session: session)
        var pending: [Promise<Value>] = []
        var slots: [(isFlag: Bool, name: String, index: Int)] = []
        var args = StageArguments(positional: [], flags: [:], stage: plan.name)
        args.writtenIn = plan
        args.positional.reserveCapacity(positional.count)
        do {
            for (i, a) in positional.enumerated() {
                if i < expressionArguments, let text = a.expressionText {
                    switch try ev.expression(text, scope: scope) {
                    case .value(let v): args.positional.append(v)
                    case .promise(let p):
                        args.positional.append(.null)
                        slots.append((false, "", args.positional.count - 1))
                        pending.append(p)
                    }
                    continue
                }
                if takesWordsAsWritten, let text = a.wordAsWritten {
                    args.positional.append(.string(text))
                    continue
                }
                switch try ev.argument(a, input: input, scope: scope, site: run.site) {
                case .value(let v): args.positional.append(v)
                case .promise(let p):
                    args.positional.append(.null)
                    slots.append((false, "", args.positional.count - 1))
                    pending.append(p)
                }
            }
            for (name, nodes) in flagNodes {
                var values: [Value] = []
                for n in nodes {
                    guard let n else {
                        values.append(.bool(true))
                        continue
                    }
                    switch try ev.argument(n, input: input, scope: scope, site: run.site) {
                    case .value(let v): values.append(v)
                    case .promise(let p):
                        values.append(.null)
                        slots.append((true, name, values.count - 1))
                        pending.append(p)
                    }
                }
                args.flags[name] = values
            }
        } catch {
            // A later argument failed: the pipelines the earlier ones started are not wanted.
            for p in pending { p.abandon(reason: "cancelled: another argument failed") }
            throw error
        }
        if pending.isEmpty { return args }
        let fixed = args
        let fixedSlots = slots
        // The arguments arrive together, in the turn the last one settles (Promise.all's turn).
        later = Promise.all(pending, on: session.executor, cancelsOthers: !session.javaScriptMode).transformedAtOnce { r in
            r.map { values -> StageArguments in
                var a = fixed
                for (slot, v) in zip(fixedSlots, values) {
                    if slot.isFlag { a.flags[slot.name]![slot.index] = v } else { a.positional[slot.index] = v }
                }
                return a
            }
        }
        return args
    }
}
