import VowPromises
import VowValue

/// The promises a combinator waits on: the elements of a list or record literal argument
/// (their promises, not their values), or the elements of its input list or record.
func combinatorInputs(_ call: StageCall, _ input: Value, stage: String) throws -> (keys: [String]?, promises: [Promise<Value>]) {
    let ex = call.executor
    if let arg = call.positional.first {
        switch arg.kind {
        case .list(let ps):
            return (nil, ps.enumerated().map { i, p in call.runPipeline(p, input: input, at: .element(i + 1, of: stage)) })
        case .record(let fields):
            return (fields.map(\.key), fields.map { call.runPipeline($0.value, input: input, at: .field($0.key, of: stage)) })
        default:
            let v = try Evaluator(session: call.session).plainArgument(
                arg, input: input, scope: call.scope, site: call.site, problem: "\(stage): expects a list or record literal, or a list as input")
            return try combinatorInputs(fromValue: v, stage: stage, ex: ex)
        }
    }
    return try combinatorInputs(fromValue: input, stage: stage, ex: ex)
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
}

extension CombinatorStage {
    static var group: StageGroup { .control }
    static var argumentStyle: ArgumentStyle { .raw }
    static var combinesPromises: Bool { true }

    func combinePlainValues(_ input: Value, _ ex: any PromiseExecutor) -> Promise<Value>? { nil }

    func apply(_ call: StageCall) throws -> Promise<Value> {
        call.chain { input in
            if call.positional.isEmpty, !PromiseObservation.isActive, let settled = self.combinePlainValues(input, call.executor) {
                return .promise(settled)
            }
            let (keys, promises) = try combinatorInputs(call, input, stage: Self.name)
            return .promise(self.combine(keys, promises, call.executor, cancels: !call.session.javaScriptMode))
        }
    }
}
