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
        // Most stages are given one expression and no flag (`pick @`, `where "total > 10"`):
        // read it without the lists and table that gather pending arguments.
        if flagNodes.isEmpty, positional.count == 1, expressionArguments > 0, let text = positional[0].expressionText {
            switch try ev.expression(text, scope: scope) {
            case .value(let v):
                var values = FirstInPlaceList<Value>()
                values.append(v)
                return StageArguments(positional: values, flags: [:], stage: plan.name, writtenIn: plan)
            case .promise(let p):
                let args = StageArguments(positional: [.null], flags: [:], stage: plan.name, writtenIn: plan)
                later = Self.settling(args, slots: [(false, "", 0)], pending: [p], session: session)
                return args
            }
        }
        var pending: [Promise<Value>] = []
        var slots: [(isFlag: Bool, name: String, index: Int)] = []
        // Gathered in locals and put together once at the end: a `StageArguments` built up in
        // place was copied whole on the way out.
        var values = FirstInPlaceList<Value>()
        var flagValues: [String: [Value]] = [:]
        values.reserveCapacity(positional.count)
        do {
            for (i, a) in positional.enumerated() {
                if i < expressionArguments, let text = a.expressionText {
                    switch try ev.expression(text, scope: scope) {
                    case .value(let v): values.append(v)
                    case .promise(let p):
                        values.append(.null)
                        slots.append((false, "", values.count - 1))
                        pending.append(p)
                    }
                    continue
                }
                if takesWordsAsWritten, let text = a.wordAsWritten {
                    values.append(.string(text))
                    continue
                }
                switch try ev.argument(a, input: input, scope: scope, site: run.site) {
                case .value(let v): values.append(v)
                case .promise(let p):
                    values.append(.null)
                    slots.append((false, "", values.count - 1))
                    pending.append(p)
                }
            }
            for (name, nodes) in flagNodes {
                var given: [Value] = []
                for n in nodes {
                    guard let n else {
                        given.append(.bool(true))
                        continue
                    }
                    switch try ev.argument(n, input: input, scope: scope, site: run.site) {
                    case .value(let v): given.append(v)
                    case .promise(let p):
                        given.append(.null)
                        slots.append((true, name, given.count - 1))
                        pending.append(p)
                    }
                }
                flagValues[name] = given
            }
        } catch {
            // A later argument failed: the pipelines the earlier ones started are not wanted.
            for p in pending { p.abandon(reason: "cancelled: another argument failed") }
            throw error
        }
        let args = StageArguments(positional: values, flags: flagValues, stage: plan.name, writtenIn: plan)
        if !pending.isEmpty { later = Self.settling(args, slots: slots, pending: pending, session: session) }
        return args
    }

    /// The promise of `args` once the promises `pending` have settled, their values put in
    /// `slots` (in the turn the last one settles, `Promise.all`'s). Apart from `arguments`, so
    /// that what the closure keeps is not a copy the arguments returned at once also pay for.
    private static func settling(
        _ args: StageArguments, slots: [(isFlag: Bool, name: String, index: Int)], pending: [Promise<Value>], session: Session
    ) -> Promise<StageArguments> {
        Promise.all(pending, on: session.executor, cancelsOthers: !session.javaScriptMode).transformedAtOnce { r in
            r.map { settled -> StageArguments in
                var a = args
                for (slot, v) in zip(slots, settled) {
                    if slot.isFlag { a.flags[slot.name]![slot.index] = v } else { a.positional[slot.index] = v }
                }
                return a
            }
        }
    }
}
