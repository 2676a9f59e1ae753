import JMESPath

/// A value in a tape (`JSONTape`), by its index.
///
/// The tape is held `unowned(unsafe)`: a node is only used while whoever searches the tape
/// keeps it (`JSONTape.search`, `JSONTapeValue`), and copying a node costs no reference count.
public struct TapeNode: Sendable {
    /// The tape.
    unowned(unsafe) let tape: JSONTape
    /// The word's index.
    let index: Int
}

/// What JMESPath searches when a document is in a tape: values of the tape, and the values a
/// search makes of them (lists of the elements a projection keeps, numbers, strings). Records
/// and lists of the tape are never built; only the result is made into a `Value`.
public enum TapeValue: Sendable {
    /// A value of the tape.
    case node(TapeNode)
    /// `null`, made by the search.
    case null
    /// A boolean, made by the search.
    case bool(Bool)
    /// An integer, made by the search.
    case int(Int)
    /// A double, made by the search.
    case double(Double)
    /// A string, made by the search.
    case string(String)
    /// A list, made by the search (its elements may be the tape's).
    case array([TapeValue])
    /// An object, made by the search, in its key order.
    case object([(key: String, value: TapeValue)])

    /// The value as vow's `Value`: what the reader makes of the tape's parts, the made ones as
    /// they are.
    public var value: Value {
        switch self {
        case .node(let n): return n.tape.value(n.index)
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let a): return .list(a.map(\.value))
        case .object(let o): return .record(Record(o.map { ($0.key, $0.value.value) }))
        }
    }

    /// Whether the value is a tape's object or list, or a made list or object holding one:
    /// what is worth printing from the tape rather than making into values first.
    public var holdsTapeContainer: Bool {
        switch self {
        case .node(let n): return n.tape.kind(n.index).rawValue >= TapeKind.array.rawValue
        case .array(let a): return a.contains { $0.holdsTapeContainer }
        case .object(let o): return o.contains { $0.value.holdsTapeContainer }
        default: return false
        }
    }
}

extension JSONTape {
    /// Searches the document with `expression`: the engine walks the tape itself, and only the
    /// result is made into a `Value`.
    public func search(_ expression: JMESPathExpression) throws(JMESPathError) -> Value {
        try withExtendedLifetime(self) { () throws(JMESPathError) -> Value in try expression.search(root).value }
    }

    /// Searches the document with `expression` and keeps the result as it is, tied to the tape.
    public func searchKeepingTape(_ expression: JMESPathExpression) throws(JMESPathError) -> TapeValue {
        try withExtendedLifetime(self) { () throws(JMESPathError) -> TapeValue in try expression.search(root) }
    }
}

extension TapeValue: JMESPathValue {
    /// The JSON type.
    public var jmesKind: JMESKind {
        switch self {
        case .node(let n):
            switch n.tape.kind(n.index) {
            case .null: return .null
            case .false, .true: return .boolean
            case .number: return .number
            case .string: return .string
            case .array: return .array
            case .object: return .object
            }
        case .null: return .null
        case .bool: return .boolean
        case .int, .double: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// A boolean's value.
    public var jmesBool: Bool? {
        switch self {
        case .node(let n):
            let k = n.tape.kind(n.index)
            return k == .true ? true : k == .false ? false : nil
        case .bool(let b): return b
        default: return nil
        }
    }

    /// A number as a Double.
    public var jmesNumber: Double? {
        switch self {
        case .node(let n):
            guard n.tape.kind(n.index) == .number else { return nil }
            return n.tape.number(n.index).doubleValue
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// An integer's exact value.
    public var jmesInt: Int? {
        switch self {
        case .node(let n):
            guard n.tape.kind(n.index) == .number, n.tape.flag(n.index, TapeWord.integer) else { return nil }
            if case .int(let i) = n.tape.number(n.index) { return i }
            return nil
        case .int(let i): return i
        default: return nil
        }
    }

    /// A string.
    public var jmesString: String? {
        switch self {
        case .node(let n):
            guard n.tape.kind(n.index) == .string else { return nil }
            return n.tape.string(n.index)
        case .string(let s): return s
        default: return nil
        }
    }

    /// A list's elements.
    public var jmesArray: [TapeValue]? {
        switch self {
        case .node(let n):
            let tape = n.tape
            guard tape.kind(n.index) == .array else { return nil }
            var out: [TapeValue] = []
            var j = n.index + 1
            let end = tape.next(n.index)
            while j < end {
                out.append(.node(TapeNode(tape: tape, index: j)))
                j = tape.next(j)
            }
            return out
        case .array(let a): return a
        default: return nil
        }
    }

    /// An object's members, each key at its first place with its last value.
    public var jmesObject: [(key: String, value: TapeValue)]? {
        switch self {
        case .node(let n):
            let tape = n.tape
            guard tape.kind(n.index) == .object else { return nil }
            return tape.members(n.index).map { ($0.key, .node(TapeNode(tape: tape, index: $0.index))) }
        case .object(let o): return o
        default: return nil
        }
    }

    /// One member of an object.
    public func jmesMember(_ key: String) -> TapeValue? {
        switch self {
        case .node(let n):
            guard n.tape.kind(n.index) == .object, let j = n.tape.member(n.index, key) else { return nil }
            return .node(TapeNode(tape: n.tape, index: j))
        case .object(let o):
            return o.first { $0.key == key }?.value
        default: return nil
        }
    }

    /// The number of elements or members, without making them.
    public var jmesCount: Int? {
        switch self {
        case .node(let n):
            let k = n.tape.kind(n.index)
            return k == .array || k == .object ? n.tape.count(n.index) : nil
        case .array(let a): return a.count
        case .object(let o): return o.count
        default: return nil
        }
    }

    /// Each element of a list, without making the list of them.
    public func jmesForEachElement(_ body: (TapeValue) throws(JMESPathError) -> Void) throws(JMESPathError) {
        switch self {
        case .node(let n):
            let tape = n.tape
            guard tape.kind(n.index) == .array else { return }
            var j = n.index + 1
            let end = tape.next(n.index)
            while j < end {
                try body(.node(TapeNode(tape: tape, index: j)))
                j = tape.next(j)
            }
        case .array(let a):
            for e in a { try body(e) }
        default:
            return
        }
    }

    /// The element at `position` of a list, without making the others.
    public func jmesElement(_ position: Int) -> TapeValue? {
        switch self {
        case .node(let n):
            guard n.tape.kind(n.index) == .array, position >= 0, let j = n.tape.element(n.index, position) else { return nil }
            return .node(TapeNode(tape: n.tape, index: j))
        case .array(let a): return position >= 0 && position < a.count ? a[position] : nil
        default: return nil
        }
    }

    /// A number or string of the tape read once, for a value compared many times (sort keys).
    public var jmesSettled: TapeValue {
        guard case .node(let n) = self else { return self }
        switch n.tape.kind(n.index) {
        case .number:
            if case .int(let i) = n.tape.number(n.index) { return .int(i) }
            return .double(n.tape.number(n.index).doubleValue ?? 0)
        case .string: return .string(n.tape.string(n.index))
        default: return self
        }
    }

    /// `null`.
    public static var jmesNull: TapeValue { .null }
    /// A boolean.
    public static func jmesBool(_ b: Bool) -> TapeValue { .bool(b) }
    /// An integer.
    public static func jmesInt(_ i: Int) -> TapeValue { .int(i) }
    /// A double.
    public static func jmesDouble(_ d: Double) -> TapeValue { .double(d) }
    /// A string.
    public static func jmesString(_ s: String) -> TapeValue { .string(s) }
    /// A list.
    public static func jmesArray(_ a: [TapeValue]) -> TapeValue { .array(a) }
    /// An object, its keys made unique as a record makes them: each at its first place, with
    /// its last value.
    public static func jmesObject(_ o: [(key: String, value: TapeValue)]) -> TapeValue {
        guard o.count > 1 else { return .object(o) }
        var out: [(key: String, value: TapeValue)] = []
        out.reserveCapacity(o.count)
        var position: [String: Int] = [:]
        for member in o {
            if let p = position[member.key] {
                out[p].value = member.value
            } else {
                position[member.key] = out.count
                out.append(member)
            }
        }
        return .object(out)
    }

    /// True: numbers and strings of the tape are read again at each use unless settled.
    public static var jmesSettles: Bool { true }
}
