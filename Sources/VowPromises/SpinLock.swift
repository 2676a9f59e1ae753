import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock of one promise: one byte, packed with the promise's phase and dependents count.
///
/// Its critical sections are a few loads and stores, almost never contended (a promise is used
/// from its executor's thread, and now and then from the thread that settles it): it spins
/// briefly, then yields the processor. It is plain atomics, which ThreadSanitizer understands.
///
/// Sendable: its one field is an `Atomic`, and every access to it is an atomic operation.
struct SpinLock: ~Copyable, @unchecked Sendable {
    private let word = Atomic<UInt8>(0)

    init() {}

    @inline(__always)
    func lock() {
        if word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
        lockSlow()
    }

    @inline(never)
    private func lockSlow() {
        var spins = 0
        while true {
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }

    @inline(__always)
    func unlock() {
        word.store(0, ordering: .releasing)
    }

    /// Runs `body` with the lock held.
    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
