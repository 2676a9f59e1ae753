import Synchronization

/// Code specialized for a derived promise's class, found by the class.
///
/// A generic class's own methods run unspecialized: every use of a type built from its
/// parameters (its state, a `Result`) looks up generic metadata, which costs more than the rest of
/// a hop. `then` is specialized where it is called, so it registers a closure specialized for its
/// `T` and `U` (made once per class, with no context); `run` finds it by the object's class. A
/// class not found (the table is full, or `then` ran unspecialized) runs the unspecialized path.
enum SpecializedSteps {
    typealias Step = @Sendable (AnyPromise) -> Void

    private static let capacity = 1024
    private static let probes = 16
    private static let slots: [Slot] = (0..<capacity).map { _ in Slot() }

    private final class Slot: Sendable {
        let key = Atomic<UInt>(0)
        /// An unmanaged `Box`, published after `key` (0 until then).
        let value = Atomic<UInt>(0)
    }

    /// Holds a step; never freed.
    final class Box: Sendable {
        let step: Step
        init(_ step: @escaping Step) { self.step = step }
    }

    @inline(__always)
    static func key(_ type: AnyObject.Type) -> UInt {
        UInt(bitPattern: ObjectIdentifier(type))
    }

    @inline(__always)
    private static func start(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: ((key >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 54) & (capacity - 1)
    }

    /// The step registered for the class `key`, if any.
    @inline(__always)
    static func find(_ key: UInt) -> Box? {
        var i = start(key)
        for _ in 0..<probes {
            let slot = slots[i]
            let k = slot.key.load(ordering: .acquiring)
            if k == key {
                let v = slot.value.load(ordering: .acquiring)
                guard v != 0, let p = UnsafeRawPointer(bitPattern: v) else { return nil }
                return Unmanaged<Box>.fromOpaque(p).takeUnretainedValue()
            }
            if k == 0 { return nil }
            i = (i + 1) & (capacity - 1)
        }
        return nil
    }

    /// Registers the step `make` returns for the class `key`, unless one is registered already.
    @inline(__always)
    static func register(_ key: UInt, _ make: () -> Step) {
        if find(key) == nil { insert(key, make()) }
    }

    @inline(never)
    private static func insert(_ key: UInt, _ step: @escaping Step) {
        var i = start(key)
        for _ in 0..<probes {
            let slot = slots[i]
            let (claimed, current) = slot.key.compareExchange(expected: 0, desired: key, ordering: .acquiringAndReleasing)
            if claimed {
                let bits = UInt(bitPattern: Unmanaged.passRetained(Box(step)).toOpaque())
                slot.value.store(bits, ordering: .releasing)
                return
            }
            if current == key { return }
            i = (i + 1) & (capacity - 1)
        }
    }
}
