import VowPromises
import VowSyntax
import VowValue

/// What a combinator waits on: the elements of a list or record literal argument (their
/// promises, not their values), or the elements of its input list or record. With
/// `keepingFulfilled`, while every element's pipeline has fulfilled as it ran, their values are
/// kept instead of their promises (`CombinatorElements.fulfilled`): each promise is dropped as
/// soon as its value is read.
func combinatorElements(_ call: StageCall, _ input: Value, stage: String, keepingFulfilled: Bool) throws -> (keys: [String]?, elements: CombinatorElements) {
    let ex = call.executor
    if let arg = call.positional.first {
        switch arg.kind {
        case .list(let ps):
            var elements = CombinatorElements(count: ps.count, keepingFulfilled: keepingFulfilled)
            let evaluator = Evaluator(session: call.session)
            for (i, p) in ps.enumerated() {
                if keepingFulfilled, case .fulfilled = elements, let v = resolvedLiteral(p, call, evaluator) {
                    elements.append(fulfilledWith: v)
                } else {
                    elements.append(call.runPipeline(p, input: input, at: .element(i + 1, of: stage)), on: ex)
                }
            }
            return (nil, elements)
        case .record(let fields):
            var elements = CombinatorElements(count: fields.count, keepingFulfilled: keepingFulfilled)
            for f in fields { elements.append(call.runPipeline(f.value, input: input, at: .field(f.key, of: stage)), on: ex) }
            return (fields.map(\.key), elements)
        default:
            let v = try Evaluator(session: call.session).plainArgument(
                arg, input: input, scope: call.scope, site: call.site, problem: "\(stage): expects a list or record literal, or a list as input")
            let (keys, promises) = try combinatorInputs(fromValue: v, stage: stage, ex: ex)
            return (keys, .promises(promises))
        }
    }
    let (keys, promises) = try combinatorInputs(fromValue: input, stage: stage, ex: ex)
    return (keys, .promises(promises))
}

/// The value of an element written as `resolve` and one plain literal (`all [resolve 1, resolve
/// 2, …]`), given without running its pipeline: such an element is a promise already fulfilled
/// with the literal (`Promise.resolve(1)`), whose value a combinator that keeps fulfilled
/// elements as values reads at once (`CombinatorElements.fulfilled`). Nil for any other
/// element, and for a `resolve` that is a `def`'s.
func resolvedLiteral(_ p: Pipeline, _ call: StageCall, _ evaluator: Evaluator) -> Value? {
    guard p.stages.count == 1, case .named(let name, _) = p.stages[0].head, name == ResolveStage.name,
        p.stages[0].arguments.count == 1
    else { return nil }
    let argument = p.stages[0].arguments[0]
    switch argument.kind {
    case .number, .boolean, .null, .rawString: break
    case .word(let t), .string(let t): guard t.isLiteral else { return nil }
    default: return nil
    }
    // The stage is the built-in `resolve` given no flag: known from the plan of the element
    // before, when this one is written as it is, with no plan made.
    let alike = call.session.lastOneStagePlan.map { $0.writtenAlike(p.stages, at: 0) } ?? false
    let plan = alike ? call.session.lastOneStagePlan! : evaluator.plans(p)[0]
    guard case .builtin(let def, _) = plan.kind, ObjectIdentifier(def) == ObjectIdentifier(ResolveStage.self), plan.flags.isEmpty,
        case .value(let v)? = try? evaluator.argument(argument, input: .null, scope: call.scope, site: call.site)
    else { return nil }
    return v
}

/// The elements of a combinator, run: their promises, or the values of elements that all
/// fulfilled as they ran (`combinatorElements(keepingFulfilled:)`), in order.
enum CombinatorElements {
    /// The elements' promises.
    case promises([Promise<Value>])
    /// Every element fulfilled as it ran, with these values.
    case fulfilled([Value])

    /// Room for `count` elements; kept as values while they fulfil at once when `keepingFulfilled`.
    init(count: Int, keepingFulfilled: Bool) {
        if keepingFulfilled {
            var values: [Value] = []
            values.reserveCapacity(count)
            self = .fulfilled(values)
        } else {
            var promises: [Promise<Value>] = []
            promises.reserveCapacity(count)
            self = .promises(promises)
        }
    }

    /// Adds the next element's promise: its value while every element so far has fulfilled;
    /// else the promise, the values before it made promises again.
    mutating func append(_ promise: Promise<Value>, on ex: any PromiseExecutor) {
        switch self {
        case .fulfilled:
            // No binding of the list is alive while it is appended to: it stays unshared.
            if case .success(let v)? = promise.result {
                append(fulfilledWith: v)
                return
            }
            guard case .fulfilled(let values) = self else { return }
            var promises = values.map { Promise<Value>.resolve($0, on: ex) }
            promises.append(promise)
            self = .promises(promises)
        case .promises(var promises):
            self = .fulfilled([])
            promises.append(promise)
            self = .promises(promises)
        }
    }

    /// Adds the value of an element that fulfilled as it ran, while every element so far has.
    mutating func append(fulfilledWith value: Value) {
        guard case .fulfilled(var values) = self else { return }
        // Taken out of `self` first, so that the list is appended to in place.
        self = .promises([])
        values.append(value)
        self = .fulfilled(values)
    }

    /// The elements as promises (a fulfilled value as a promise fulfilled with it).
    func promises(on ex: any PromiseExecutor) -> [Promise<Value>] {
        switch self {
        case .promises(let p): return p
        case .fulfilled(let values): return values.map { Promise<Value>.resolve($0, on: ex) }
        }
    }
}

func combinatorInputs(fromValue v: Value, stage: String, ex: any PromiseExecutor) throws -> (keys: [String]?, promises: [Promise<Value>]) {
    func promise(_ v: Value) -> Promise<Value> {
        if case .opaque(let o) = v, let h = o as? PromiseHandle { return h.promise }
        return .resolve(v, on: ex)
    }
    switch v {
    case .list(let l): return (nil, l.map(promise))
    case .record(let r): return (r.keys, r.values.map(promise))
    default: throw VowError(.type, "\(stage): expects a list or a record, got \(v.typeName)")
    }
}

/// A promise carried as a value.
public struct PromiseHandle: OpaqueValue {
    /// The promise.
    public let promise: Promise<Value>
    /// `promise`.
    public var typeName: String { "promise" }
    /// `<promise pending>`.
    public var displayText: String { promise.isPending ? "<promise pending>" : "<promise settled>" }
}

/// A combinator stage: all, race, any, settle.
protocol CombinatorStage: TwinWriting, StageExplaining {
    /// What `:explain` says the combinator does, given what it starts (its elements, or its
    /// input's promises).
    static func explain(starting what: String, _ c: Explainer.Context) -> String
    /// Combines the element promises; `cancels` is false in JavaScript mode, where nothing is
    /// cancelled that JavaScript would let run on.
    func combine(_ keys: [String]?, _ promises: [Promise<Value>], _ ex: any PromiseExecutor, cancels: Bool) -> Promise<Value>
    /// What the combinator makes of an input whose elements are all plain values (no promise
    /// among them), in the turn `combine` would settle, without a promise and a reaction an
    /// element; nil to go the usual way. Only asked while nothing observes the promises.
    func combinePlainValues(_ input: Value, _ ex: any PromiseExecutor) -> Promise<Value>?
    /// True for a combinator that settles on elements that all fulfilled as they ran as it does
    /// on plain values (`combineFulfilled`): their promises are not kept.
    static var combinesFulfilledElements: Bool { get }
    /// What the combinator makes of the values of elements that all fulfilled as they ran (in
    /// order; `keys` for a record), in the turn `combine` would settle. Only asked of a
    /// combinator that `combinesFulfilledElements`, while nothing observes the promises.
    func combineFulfilled(_ keys: [String]?, _ values: [Value], _ ex: any PromiseExecutor) -> Promise<Value>
}

extension CombinatorStage {
    static var group: StageGroup { .control }
    static var argumentStyle: ArgumentStyle { .raw }
    static var combinesPromises: Bool { true }

    func combinePlainValues(_ input: Value, _ ex: any PromiseExecutor) -> Promise<Value>? { nil }
    static var combinesFulfilledElements: Bool { false }
    func combineFulfilled(_ keys: [String]?, _ values: [Value], _ ex: any PromiseExecutor) -> Promise<Value> {
        combine(keys, values.map { Promise<Value>.resolve($0, on: ex) }, ex, cancels: false)
    }

    /// How many elements the combinator's input has (a list's or a record's), or how many
    /// are written as its argument; 0 for anything else.
    static func elementCount(_ input: Value, _ call: StageCall) -> Int {
        if let arg = call.positional.first {
            switch arg.kind {
            case .list(let ps): return ps.count
            case .record(let fields): return fields.count
            default: break
            }
        }
        switch input {
        case .list(let l): return l.count
        case .record(let r): return r.count
        default: return 0
        }
    }

    func apply(_ call: StageCall) throws -> Promise<Value> {
        call.chain { input in
            // Under an observer that spares large work (the REPL's), a small input is recorded
            // element by element and a large one is combined as with no observer.
            let count = Self.elementCount(input, call)
            let observed = PromiseObservation.records(items: count)
            if call.positional.isEmpty, !observed, let settled = self.combinePlainValues(input, call.executor) {
                if PromiseObservation.isActive { UnrecordedWork.note(call.traceInfo, items: count) }
                return .promise(settled)
            }
            let (keys, elements) = try combinatorElements(
                call, input, stage: Self.name, keepingFulfilled: Self.combinesFulfilledElements && !observed)
            switch elements {
            case .fulfilled(let values) where !values.isEmpty:
                return .promise(self.combineFulfilled(keys, values, call.executor))
            default:
                return .promise(self.combine(keys, elements.promises(on: call.executor), call.executor, cancels: !call.session.javaScriptMode))
            }
        }
    }
}
