/// A first-in, first-out ring of jobs for the one thread that drains a serial executor.
///
/// A chain hands its executor one job per hop: each job enqueues the next while it runs. A ring
/// takes it and gives it back with a store and a load, where an array swapped out and emptied
/// per batch cost a uniqueness check, a destroy and a resize each time (a tenth of a hop). A job
/// leaves the ring as it is taken, so the ring holds nothing that has run.
struct JobRing: ~Copyable {
    private var buffer: UnsafeMutablePointer<AnyPromise>
    private var capacity: Int
    private var head = 0
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        self.buffer = .allocate(capacity: capacity)
    }

    deinit {
        for i in 0..<count { (buffer + ((head + i) & (capacity - 1))).deinitialize(count: 1) }
        buffer.deallocate()
    }

    /// True when no job is queued.
    var isEmpty: Bool { count == 0 }

    /// Queues `job` after every job queued before it.
    @inline(__always)
    mutating func push(_ job: AnyPromise) {
        if count == capacity { grow() }
        (buffer + ((head + count) & (capacity - 1))).initialize(to: job)
        count += 1
    }

    /// The oldest job, taken out of the ring, or nil when none is queued.
    @inline(__always)
    mutating func pop() -> AnyPromise? {
        guard count > 0 else { return nil }
        let job = (buffer + head).move()
        head = (head + 1) & (capacity - 1)
        count -= 1
        return job
    }

    /// Doubles the capacity (always a power of two), keeping the order.
    @inline(never)
    private mutating func grow() {
        let bigger = UnsafeMutablePointer<AnyPromise>.allocate(capacity: capacity * 2)
        let firstRun = min(count, capacity - head)
        (bigger).moveInitialize(from: buffer + head, count: firstRun)
        (bigger + firstRun).moveInitialize(from: buffer, count: count - firstRun)
        buffer.deallocate()
        buffer = bigger
        capacity *= 2
        head = 0
    }
}
