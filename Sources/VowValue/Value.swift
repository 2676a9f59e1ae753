/// A vow value: what flows through a pipeline from one stage to the next.
///
/// Values are immutable and cheap to copy. Records keep their keys in the order they were
/// received (JSON key order), integers are exact to 64 bits, and every other number is a `Double`.
/// HTTP responses and runtime handles (promises, jobs) are values too, so that a stage can pass
/// them on like any other.
public enum Value: Sendable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer, exact to 64 bits; printed without a fraction.
    case int(Int)
    /// Any other number; printed as the shortest text that reads back the same.
    case double(Double)
    /// A string of Unicode text.
    case string(String)
    /// Raw bytes (a file read as binary, a body that is not text).
    case bytes([UInt8])
    /// An ordered list.
    case list([Value])
    /// A record: string keys in insertion order. Kept in a box of its own (`indirect`), so that
    /// a value is a string and a tag (24 bytes in an array, not 48): lists and records of values
    /// take half the memory.
    indirect case record(Record)
    /// An HTTP response (status, headers, url, elapsed, body).
    case response(HTTPResponse)
    /// A runtime object the value model does not know: a promise handle, a job handle (boxed,
    /// like a record).
    indirect case opaque(any OpaqueValue)
}

/// A runtime object carried as a value (a promise handle, a job handle).
///
/// The value model knows nothing of promises; the runtime conforms its own handle types.
public protocol OpaqueValue: Sendable {
    /// The type name shown in errors and by `type` checks, e.g. `promise`.
    var typeName: String { get }
    /// How the value prints, e.g. `<promise p3 pending>`.
    var displayText: String { get }
}

extension Value {
    /// The name of this value's type, as used in error messages: `null`, `boolean`, `number`,
    /// `string`, `bytes`, `list`, `record`, `response`, or the opaque value's own name.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .bytes: return "bytes"
        case .list: return "list"
        case .record: return "record"
        case .response: return "response"
        case .opaque(let o): return o.typeName
        }
    }

    /// The string inside a `.string`, or nil.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number inside `.int` or `.double`, as a Double, or nil.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The number as an exact integer (`.int`, or a `.double` with no fraction), or nil.
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d):
            guard d.rounded() == d, let i = Int(exactly: d) else { return nil }
            return i
        default: return nil
        }
    }

    /// The elements of a `.list`, or nil.
    public var listValue: [Value]? {
        if case .list(let l) = self { return l }
        return nil
    }

    /// The record inside a `.record`, or nil.
    public var recordValue: Record? {
        if case .record(let r) = self { return r }
        return nil
    }

    /// True for `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// JavaScript-like truthiness as JMESPath defines it: false, null (and undefined), empty
    /// string, empty list and empty record are false; everything else is true.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .string(let s): return !s.isEmpty
        case .list(let l): return !l.isEmpty
        case .record(let r): return !r.isEmpty
        case .bytes(let b): return !b.isEmpty
        case .opaque(let o): return !(o is UndefinedValue)
        default: return true
        }
    }
}

extension Value: Equatable {
    /// Structural equality: numbers compare by value (`1 == 1.0`), records compare as maps
    /// (key order does not matter), opaque values compare by their display text.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int, .double), (.double, .int), (.double, .double):
            return lhs.doubleValue! == rhs.doubleValue!
        case (.string(let a), .string(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.list(let a), .list(let b)): return a == b
        case (.record(let a), .record(let b)): return a == b
        case (.response(let a), .response(let b)): return a === b
        case (.opaque(let a), .opaque(let b)): return a.displayText == b.displayText
        default: return false
        }
    }
}

extension Value: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A list literal.
    public init(arrayLiteral elements: Value...) { self = .list(elements) }
    /// A record literal; keys keep their written order.
    public init(dictionaryLiteral elements: (String, Value)...) {
        var r = Record()
        for (k, v) in elements { r[k] = v }
        self = .record(r)
    }
}
