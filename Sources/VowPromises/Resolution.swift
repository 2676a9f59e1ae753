/// What a handler hands back: a plain value, or a promise to adopt.
///
/// JavaScript's `then` accepts both from one handler and adopts only a thenable; returning
/// `.value` settles the derived promise in the same turn, returning `.promise` costs the two
/// extra turns of adoption. Handlers that sometimes finish at once and sometimes wait (an
/// interpreter's stages) use this to keep JavaScript's exact ordering.
public enum Resolution<T: Sendable>: Sendable {
    /// Settle the derived promise with this value now.
    case value(T)
    /// Adopt this promise.
    case promise(Promise<T>)
}
