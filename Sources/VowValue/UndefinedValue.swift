/// JavaScript's `undefined`, apart from `null`: what a handler that returns nothing gives
/// (`catch do (print) undefined` is `.catch((e) => { console.log(e); })`).
///
/// JSON has no undefined: written as JSON, it is left out of a record (its key too) and is
/// `null` in a list, as `JSON.stringify` writes it; on its own it prints `undefined`, as
/// `console.log` does. A search reads it as null. It is falsy.
public struct UndefinedValue: OpaqueValue {
    /// `undefined`.
    public var typeName: String { "undefined" }
    /// `undefined`.
    public var displayText: String { "undefined" }
}

extension Value {
    /// JavaScript's `undefined` (`UndefinedValue`).
    public static let undefined = Value.opaque(UndefinedValue())

    /// True for `undefined`.
    public var isUndefined: Bool {
        if case .opaque(let o) = self { return o is UndefinedValue }
        return false
    }
}
