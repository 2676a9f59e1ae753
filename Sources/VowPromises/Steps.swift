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
    /// Pairs of a class key (0: free) and, published after it, an unmanaged `Box` (0 until
    /// then), side by side: one table, so one lazy-global check per lookup, and a probe touches
    /// one cache line. Never freed.
    nonisolated(unsafe) private static let slots = makeSlots()

    private static func makeSlots() -> UnsafeMutablePointer<Atomic<UInt>> {
        let p = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: 2 * capacity)
        for i in 0..<(2 * capacity) { (p + i).initialize(to: Atomic(0)) }
        return p
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

    /// Runs the step registered for the class `key` on `job`; false when there is none.
    @inline(__always)
    static func run(_ key: UInt, _ job: AnyPromise) -> Bool {
        let v = find(key)
        guard v != 0, let p = UnsafeRawPointer(bitPattern: v) else { return false }
        Unmanaged<Box>.fromOpaque(p)._withUnsafeGuaranteedRef { $0.step(job) }
        return true
    }

    /// The unmanaged box registered for the class `key`, or 0.
    @inline(__always)
    private static func find(_ key: UInt) -> UInt {
        let slots = Self.slots
        var i = start(key)
        for _ in 0..<probes {
            let k = slots[2 * i].load(ordering: .acquiring)
            if k == key { return slots[2 * i + 1].load(ordering: .acquiring) }
            if k == 0 { return 0 }
            i = (i + 1) & (capacity - 1)
        }
        return 0
    }

    /// Registers the step `make` returns for the class `key`, unless one is registered already.
    @inline(__always)
    static func register(_ key: UInt, _ make: () -> Step) {
        if find(key) == 0 { insert(key, make()) }
    }

    @inline(never)
    private static func insert(_ key: UInt, _ step: @escaping Step) {
        var i = start(key)
        for _ in 0..<probes {
            let (claimed, current) = slots[2 * i].compareExchange(expected: 0, desired: key, ordering: .acquiringAndReleasing)
            if claimed {
                let bits = UInt(bitPattern: Unmanaged.passRetained(Box(step)).toOpaque())
                slots[2 * i + 1].store(bits, ordering: .releasing)
                return
            }
            if current == key { return }
            i = (i + 1) & (capacity - 1)
        }
    }
}
