import VowSyntax
import VowValue

/// The arguments of one stage call after evaluation: positional values and flags.
public struct StageArguments: Sendable {
    /// The positional arguments, in order (the first in place: most stages take one).
    public var positional: FirstInPlaceList<Value>
    /// The flags given, by name; a switch has the value `true`. Repeatable flags keep every value.
    public var flags: [String: [Value]]
    /// The stage name, for error messages.
    public let stage: String
    /// Where the positional argument at `i` is written in the source (byte offsets), for errors
    /// that point at it (`VowError.culprit`); nil when the arguments were not written
    /// (`PureStage`'s test calls, a stage reading its own). Read from the plan on each call,
    /// as `string` asks on every call of a stage: no list of places is made.
    func positionalSpan(_ i: Int) -> Range<Int>? {
        guard let written = writtenIn?.argumentNodes.positional, i >= 0, i < written.count else { return nil }
        return written[i].span.start..<written[i].span.end
    }
    /// The plan of the stage whose arguments these are, where their nodes are read when an
    /// error points at one (`StagePlan.argumentNodes`); nil when they were not written. One
    /// reference, not the call's list and table of nodes: a long pipeline makes and drops the
    /// arguments of every stage, and each field is a release more.
    var writtenIn: StagePlan? = nil

    /// Where the value at `i` of the flag `name` is written (a switch at 0..<0); nil when it
    /// was not given as written. `i` nil: the last one.
    func flagSpan(_ name: String, at i: Int? = nil) -> Range<Int>? {
        guard let nodes = writtenIn?.argumentNodes.flags[name], let k = i ?? (nodes.isEmpty ? nil : nodes.count - 1), k >= 0, k < nodes.count
        else { return nil }
        return nodes[k].map { $0.span.start..<$0.span.end } ?? 0..<0
    }

    /// The number of positional arguments.
    public var count: Int { positional.count }

    /// The positional argument at `i`, or nil.
    public subscript(i: Int) -> Value? { i < positional.count ? positional[i] : nil }

    /// A required positional string (numbers are turned into text).
    public func string(_ i: Int, _ what: String) throws -> String {
        guard let v = self[i] else { throw VowError(.type, "\(stage): missing \(what)") }
        return try pointing(at: positionalSpan(i)) { try asString(v, what) }
    }

    /// A value as text, or a type error naming it.
    public func asString(_ v: Value, _ what: String) throws -> String {
        switch v {
        case .string(let s): return s
        case .int, .double, .bool: return JSONWriter.compact(v)
        default: throw failure("\(what) must be text, got \(v.typeName)", about: v, what)
        }
    }

    /// A duration in seconds: a number, a duration literal, or text like `250ms`.
    public func seconds(_ v: Value, _ what: String) throws -> Double {
        if let d = v.doubleValue, d >= 0 { return d }
        if case .string(let s) = v, let d = parseDuration(s) { return d }
        throw failure("\(what) must be a duration like 250ms or 2s, got \(JSONWriter.compact(v))", about: v, what)
    }

    /// A whole number, or a type error.
    public func integer(_ v: Value, _ what: String) throws -> Int {
        if let i = v.intValue { return i }
        if case .string(let s) = v, let i = Int(s) { return i }
        throw failure("\(what) must be a whole number, got \(JSONWriter.compact(v))", about: v, what)
    }

    /// A type error of the stage about the argument `what` whose value is `v`, pointing at it
    /// in the source: a flag (`--limit`) by its name, a positional argument by its value.
    func failure(_ message: String, about v: Value, _ what: String) -> VowError {
        var e = VowError(.type, "\(stage): \(message)")
        e.culprit = what.hasPrefix("--") ? flagSpan(String(what.dropFirst(2))) : positional.firstIndex(of: v).flatMap(positionalSpan)
        return e
    }

    /// Runs `body`, pointing an error it throws that points nowhere yet at `span` (read only
    /// then).
    func pointing<T>(at span: @autoclosure () -> Range<Int>?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var e as VowError where e.culprit == nil {
            guard let at = span() else { throw e }
            e.culprit = at
            throw e
        }
    }
}

/// Parses `250ms`, `2s`, `1.5m`, `1h`, or a plain number of seconds.
public func parseDuration(_ s: String) -> Double? { DurationUnit.parse(s) }
