import JMESPath

/// vow's values are searched by JMESPath directly: bytes, responses and opaque values are seen
/// as their JSON form (`toJSONValue()`), so `pick status` works on a response.
extension Value: JMESPathValue {
    /// The JSON type.
    public var jmesKind: JMESKind {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .int, .double: return .number
        case .string: return .string
        case .list: return .array
        case .record: return .object
        case .bytes, .response, .opaque: return toJSONValue().jmesKind
        }
    }
    /// A boolean's value.
    public var jmesBool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
    /// A number as a Double.
    public var jmesNumber: Double? { doubleValue }
    /// An integer's exact value.
    public var jmesInt: Int? {
        if case .int(let i) = self { return i }
        return nil
    }
    /// A string (bytes and opaque values through their JSON form).
    public var jmesString: String? {
        switch self {
        case .string(let s): return s
        case .bytes, .opaque: return toJSONValue().stringValue
        default: return nil
        }
    }
    /// A list's elements.
    public var jmesArray: [Value]? { listValue }
    /// A record's entries in order (a response through its JSON form).
    public var jmesObject: [(key: String, value: Value)]? {
        switch self {
        case .record(let r): return r.entries
        case .response: return toJSONValue().jmesObject
        default: return nil
        }
    }
    /// A record's field.
    public func jmesMember(_ key: String) -> Value? {
        switch self {
        case .record(let r): return r[key]
        case .response: return toJSONValue().jmesMember(key)
        default: return nil
        }
    }
    /// `null`.
    public static var jmesNull: Value { .null }
    /// A boolean.
    public static func jmesBool(_ b: Bool) -> Value { .bool(b) }
    /// An integer.
    public static func jmesInt(_ i: Int) -> Value { .int(i) }
    /// A number.
    public static func jmesDouble(_ d: Double) -> Value { .double(d) }
    /// A string.
    public static func jmesString(_ s: String) -> Value { .string(s) }
    /// A list.
    public static func jmesArray(_ a: [Value]) -> Value { .list(a) }
    /// A record.
    public static func jmesObject(_ o: [(key: String, value: Value)]) -> Value { .record(Record(o.map { ($0.key, $0.value) })) }
}
