// The value protocol: how the engine sees a host's values.
//
// The engine is generic over this protocol and never converts through Foundation, so a host keeps
// its own representation (integers stay integers, object key order stays the host's) and the
// interpreter is specialised on the host type.

/// The JSON type of a value, as JMESPath sees it.
public enum JMESKind: Sendable { case null, boolean, number, string, array, object }

/// A host value type that JMESPath can search. The engine never converts through Foundation.
public protocol JMESPathValue: Sendable {
    /// The value's JSON type; every other accessor is consulted according to it.
    var jmesKind: JMESKind { get }
    /// The truth value, for `.boolean` (nil otherwise).
    var jmesBool: Bool? { get }          // for .boolean
    /// The numeric value, for `.number` (nil otherwise); integers are reported here too.
    var jmesNumber: Double? { get }      // for .number
    /// The exact integer, for a `.number` that is one (nil otherwise), so integer results stay integers.
    var jmesInt: Int? { get }            // for .number when it is an exact integer, else nil
    /// The text, for `.string` (nil otherwise).
    var jmesString: String? { get }      // for .string
    /// The elements, for `.array` (nil otherwise).
    var jmesArray: [Self]? { get }       // for .array
    /// The fields in the host's key order, for `.object` (nil otherwise); used by keys, values, merge.
    var jmesObject: [(key: String, value: Self)]? { get }  // for .object, in the host's key order
    /// One field of an object: the hot path of every field lookup, so it should not copy the object.
    func jmesMember(_ key: String) -> Self?   // object field lookup (nil when absent or not an object)
    /// The null value, the result of every lookup that finds nothing.
    static var jmesNull: Self { get }
    /// Makes a boolean (comparisons, `!`, predicates).
    static func jmesBool(_ b: Bool) -> Self
    /// Makes an integer number (lengths, integer arithmetic, integer literals).
    static func jmesInt(_ i: Int) -> Self
    /// Makes a floating-point number (averages, fractional literals and conversions).
    static func jmesDouble(_ d: Double) -> Self
    /// Makes a string.
    static func jmesString(_ s: String) -> Self
    /// Makes an array (projections, multiselect lists, function results).
    static func jmesArray(_ a: [Self]) -> Self
    /// Makes an object whose key order is the order given (multiselect hashes, merge).
    static func jmesObject(_ o: [(key: String, value: Self)]) -> Self

    // Optional: a host whose lists and objects are not held as Swift arrays (a document still in
    // its text) answers these without making them. The defaults go through `jmesArray` and
    // `jmesObject`.

    /// The number of elements of an `.array` or members of an `.object` (nil otherwise).
    var jmesCount: Int? { get }
    /// The element at `position` (counted from 0) of an `.array`, or nil past its end or for
    /// anything else.
    func jmesElement(_ position: Int) -> Self?
    /// The same value, read once: a host that reads numbers and strings lazily makes them here,
    /// for values compared many times (sort keys, `max`, `min`). The default is the value itself.
    var jmesSettled: Self { get }
    /// Whether `jmesSettled` does anything (false by default: nothing is copied to settle).
    static var jmesSettles: Bool { get }
    /// Calls `body` with each element of an `.array`, in order (nothing for anything else),
    /// without making the list of them.
    func jmesForEachElement(_ body: (Self) throws(JMESPathError) -> Void) throws(JMESPathError)
}

extension JMESPathValue {
    /// The count of `jmesArray` or `jmesObject`.
    public var jmesCount: Int? {
        switch jmesKind {
        case .array: return jmesArray?.count
        case .object: return jmesObject?.count
        default: return nil
        }
    }

    /// The element of `jmesArray`.
    public func jmesElement(_ position: Int) -> Self? {
        guard jmesKind == .array, let a = jmesArray, position >= 0, position < a.count else { return nil }
        return a[position]
    }

    /// The value itself.
    public var jmesSettled: Self { self }

    /// False: `jmesSettled` is the value itself.
    public static var jmesSettles: Bool { false }

    /// Each element of `jmesArray`.
    public func jmesForEachElement(_ body: (Self) throws(JMESPathError) -> Void) throws(JMESPathError) {
        guard jmesKind == .array, let a = jmesArray else { return }
        for e in a { try body(e) }
    }
}
