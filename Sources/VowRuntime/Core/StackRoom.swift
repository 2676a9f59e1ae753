import CStack
import Glibc

/// How much of the current thread's stack is left: a `def` that nests itself synchronously
/// (`def f() = f`) checks it before going one level deeper, so that it rejects with kind
/// `recursion` instead of overflowing the stack, whatever thread it runs on and however large the
/// frames of the build are.
enum StackRoom {
    /// The lowest address of each thread's stack (it grows down), read once a thread.
    private static let lowest = ThreadLowest()

    /// The bytes of stack left below the caller's frame.
    static func remaining() -> Int {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let low = lowest.value
        return here > low ? Int(here - low) : 0
    }

    /// True while at least `needed` bytes (256 KiB by default) of stack are left.
    static func enough(_ needed: Int = 256 << 10) -> Bool { remaining() >= needed }

    /// The lowest stack address of each thread, kept in a thread-specific slot.
    ///
    /// Sendable: `key` is written only in init (a `var` because `pthread_key_create` takes it
    /// `inout`) and only read after; each thread reads and writes its own slot.
    private final class ThreadLowest: @unchecked Sendable {
        private var key = pthread_key_t()

        init() { pthread_key_create(&key, nil) }

        var value: UInt {
            if let stored = pthread_getspecific(key) { return UInt(bitPattern: stored) }
            let low = UInt(vow_stack_lowest())
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: low))
            return low
        }
    }
}
