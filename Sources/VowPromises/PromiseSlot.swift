/// Three words of a promise that hold, by the promise's phase, what it waits on (while pending),
/// its value (once fulfilled) or its error (once rejected).
///
/// A promise keeps no field whose type is built from its value type (`Result<T, …>`, `T?`):
/// destroying such a field makes the promise's deinit, which runs unspecialized, look up that
/// type's generic metadata, a hash-table search that cost a fifth of a `then` hop. The slot is
/// plain words; a value that fits (a `Value`, an `Int`, a `String`) is stored in place, a larger
/// one in a box. The owner says which of the three it holds (the promise's `phase`), and
/// destroys it with the matching call; the slot itself never releases anything.
struct PromiseSlot {
    private var w0: UInt = 0
    private var w1: UInt = 0
    private var w2: UInt = 0

    /// An empty slot, or one holding `reference` (a pending promise's upstream).
    init(reference: __shared AnyPromise? = nil) {
        if let reference { w0 = UInt(bitPattern: Unmanaged.passRetained(reference).toOpaque()) }
    }

    /// True when a `V` is stored in place, false when it goes in a box.
    @inline(__always)
    static func fitsInPlace<V>(_: V.Type) -> Bool {
        MemoryLayout<V>.size <= MemoryLayout<PromiseSlot>.size
            && MemoryLayout<V>.alignment <= MemoryLayout<PromiseSlot>.alignment
    }

    // MARK: A reference (pending)

    /// The reference held, or nil.
    @inline(__always)
    var reference: AnyPromise? {
        guard let p = UnsafeRawPointer(bitPattern: w0) else { return nil }
        return Unmanaged<AnyPromise>.fromOpaque(p).takeUnretainedValue()
    }

    /// Holds `new` instead of the reference held, which it hands back (owned by the caller).
    @inline(__always)
    mutating func exchangeReference(_ new: AnyPromise?) -> AnyPromise? {
        let old = w0
        w0 = new.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        guard let p = UnsafeRawPointer(bitPattern: old) else { return nil }
        return Unmanaged<AnyPromise>.fromOpaque(p).takeRetainedValue()
    }

    // MARK: A value or an error (settled)

    /// Stores `value` in the slot, which must hold nothing (no reference, no value).
    @inline(__always)
    mutating func initialize<V>(_ value: V) {
        if Self.fitsInPlace(V.self) {
            _ = withUnsafeMutableBytes(of: &self) { $0.baseAddress!.initializeMemory(as: V.self, repeating: value, count: 1) }
        } else {
            w0 = UInt(bitPattern: Unmanaged.passRetained(PromiseValueBox(value)).toOpaque())
        }
    }

    /// Stores `error` in the slot, which must hold nothing. (Not `initialize(error)`: that would
    /// open the existential and store the error's own type, not the `any Error` `load` reads.)
    @inline(__always)
    mutating func initialize(error: any Error) {
        _ = withUnsafeMutableBytes(of: &self) { $0.baseAddress!.initializeMemory(as: (any Error).self, repeating: error, count: 1) }
    }

    /// A copy of the `V` stored by `initialize`.
    @inline(__always)
    func load<V>(_: V.Type) -> V {
        if Self.fitsInPlace(V.self) {
            return withUnsafeBytes(of: self) { $0.load(as: V.self) }
        }
        return Unmanaged<PromiseValueBox<V>>.fromOpaque(UnsafeRawPointer(bitPattern: w0)!).takeUnretainedValue().value
    }

    /// Destroys the `V` stored by `initialize`; the slot then holds nothing.
    @inline(__always)
    mutating func destroy<V>(_: V.Type) {
        if Self.fitsInPlace(V.self) {
            _ = withUnsafeMutableBytes(of: &self) { $0.baseAddress!.assumingMemoryBound(to: V.self).deinitialize(count: 1) }
        } else if let p = UnsafeRawPointer(bitPattern: w0) {
            // Released as a plain object: no generic metadata needed.
            Unmanaged<AnyObject>.fromOpaque(p).release()
        }
        (w0, w1, w2) = (0, 0, 0)
    }
}

/// A value too large for a promise's slot.
///
/// Sendable: `value` is a `let`, and a box only ever holds a promise's value, whose type is
/// Sendable (`Promise<T: Sendable>`); `V` is left unconstrained so that the slot's generic code can
/// make one.
final class PromiseValueBox<V>: @unchecked Sendable {
    let value: V
    init(_ value: V) { self.value = value }
}
