// The one lock type of the promise core.
//
// Normally it is the standard library's `Mutex`. ThreadSanitizer cannot see the futex hand-off
// inside `Mutex` on Linux, so it reports every access made under it as a race; the sanitizer
// build (sanitize/Package.swift) defines VOW_PTHREAD_LOCKS and gets a pthread mutex instead,
// which the sanitizer intercepts. The promise logic is the same in both builds.

#if VOW_PTHREAD_LOCKS
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A value guarded by a pthread mutex, with the same `withLock` as `Mutex`.
    final class Locked<State>: @unchecked Sendable {
        private var state: State
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        /// Guards `initial`.
        init(_ initial: State) {
            state = initial
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Runs `body` with the lock held.
        func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state)
        }
    }
#else
    import Synchronization

    /// A value guarded by a lock: the standard library's `Mutex`.
    typealias Locked<State> = Mutex<State>
#endif
