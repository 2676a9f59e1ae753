// The one lock type of vow. This file is the promise core's; JMESPath, VowRuntime and VowShell
// hold a symbolic link to it, so each module has the same internal `Locked` without depending on
// another for it.
//
// Normally it is the standard library's `Mutex`. ThreadSanitizer cannot see the futex hand-off
// inside `Mutex` on Linux, so it reports every access made under it as a race; sanitizer builds
// (sanitize/Package.swift, and `scripts/sanitize` for the whole package) define VOW_PTHREAD_LOCKS and
// get a pthread mutex instead, which the sanitizer intercepts. The logic is the same in both.

#if VOW_PTHREAD_LOCKS
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A value guarded by a pthread mutex, with the same `withLock` as `Mutex`.
    ///
    /// The state lives in its own allocation: a stored property of zero size (`Locked(())`) would
    /// share its address with the mutex pointer, and the sanitizer would take the unlocked read of
    /// that pointer for a race with the locked access to the state.
    ///
    /// Sendable: the state is read and written only in `withLock`, with the mutex held; both
    /// pointers are set in init and never change. The compiler cannot see that a pointer is
    /// guarded.
    final class Locked<State>: @unchecked Sendable {
        private let state: UnsafeMutablePointer<State>
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        /// Guards `initial`.
        init(_ initial: State) {
            state = .allocate(capacity: 1)
            state.initialize(to: initial)
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
            state.deinitialize(count: 1)
            state.deallocate()
        }

        /// Runs `body` with the lock held.
        func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
#else
    import Synchronization

    /// A value guarded by a lock: the standard library's `Mutex`.
    typealias Locked<State> = Mutex<State>
#endif
