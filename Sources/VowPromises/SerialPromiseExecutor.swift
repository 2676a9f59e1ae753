import Dispatch
import Synchronization

/// A serial executor with JavaScript's event loop: a queue of jobs (microtasks: promise
/// reactions) and a queue of tasks (I/O outcomes, and passes over its timers, which it keeps as
/// node does: `TimerLists`), drained on one thread at a time.
///
/// A drain runs every ready job, then one task, then every job again, and so on, so the jobs a
/// timer's callback makes all run before the next timer's callback, as in node. Enqueueing onto
/// an idle executor costs one dispatch to start a drain; a job enqueued while it drains (the usual
/// case for a chain, where each handler settles the next promise) is only appended to an array:
/// no dispatch, no thread hop, no allocation. Order is strictly FIFO within each queue.
///
/// Sendable: the queues and their flags are in `state`, touched only under its lock; `drainThread`
/// and `haltFlag` are atomics; `queue` never changes. `local` has no lock: only the thread running
/// the drain uses it, one drain runs at a time (`draining`, under the lock), and a drain ends with
/// `local` empty.
public final class SerialPromiseExecutor: PromiseExecutor, @unchecked Sendable {
    private struct Queue {
        var jobs = ContiguousArray<AnyPromise>()
        var tasks = ContiguousArray<AnyPromise>()
        var taskHead = 0
        var draining = false
        var pendingTimers = 0
        /// Threads in `waitUntilIdle`, signalled when a drain ends.
        var idleWaiters: [DispatchSemaphore] = []
        /// Threads in `waitUntilQuiescent`, signalled when nothing is left at all.
        var quiescentWaiters: [DispatchSemaphore] = []
        /// Tracked promises that rejected with no reaction (see `UnhandledRejection`).
        var possiblyUnhandled: [AnyPromise] = []
        /// What is told of them once the jobs have drained.
        var unhandledHandler: (@Sendable ([AnyPromise]) -> Void)?
        /// Set by `halt`: nothing queued runs any more.
        var halted = false
        /// Jobs to run once no other job is ready (`enqueueWhenDrained`).
        var whenDrained = ContiguousArray<AnyPromise>()
        /// The timers set to call back here, node's way.
        var timers = TimerLists()
        /// The loop time (ms): when the task or drain running now began. Timers set on the
        /// draining thread start here, as node's start at its loop's millisecond.
        var loopTime: Double = 0
        /// The millisecond the timer source is armed for (infinity when disarmed).
        var armedFor: Double = .infinity
        /// A pass over the due timers is queued as a task (`TimerPass.marker`).
        var passQueued = false
        /// The time of the pass under way, while its timers are taken one task at a time.
        var passNow: Double? = nil

        var quiescent: Bool { !draining && pendingTimers == 0 }
    }

    private let state = Locked(Queue())
    private let queue: DispatchQueue
    /// Armed for the earliest expiry of `timers`; it queues a pass (never runs a callback).
    private let timerSource: DispatchSourceTimer

    /// A serial executor whose drains run on a new serial dispatch queue labelled `label`.
    ///
    /// The executor is never freed: the promises that run on it hold it without a reference
    /// count (see `ExecutorRef`), and may outlive every other holder. A program makes one per
    /// session, so what stays behind is a dispatch queue and a few words.
    public init(label: String = "vow.promises.serial") {
        self.queue = DispatchQueue(label: label)
        self.timerSource = DispatchSource.makeTimerSource(queue: PromiseExecutors.timers)
        _ = Unmanaged.passRetained(self)  // the reference that is never given back
        timerSource.schedule(deadline: .distantFuture, leeway: .nanoseconds(0))
        timerSource.setEventHandler { [unowned self] in self.timersFallDue() }
        timerSource.resume()
    }

    /// Itself: promises hand it their jobs directly.
    public var asSerialPromiseExecutor: SerialPromiseExecutor? { self }

    /// Appends the job (a microtask); starts a drain only when the executor was idle.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        enqueueJob(ClosureJob(job))
    }

    @inline(__always)
    func enqueueJob(_ job: AnyPromise) {
        if PromiseObservation.isActive, job.reportsToObservers { PromiseObservation.jobQueued(job, isTask: false) }
        if drainThread.load(ordering: .relaxed) == currentThreadToken() {
            // On the draining thread (a job enqueueing the next): no lock.
            local.push(job)
            return
        }
        let startDrain = state.withLock { q -> Bool in
            q.jobs.append(job)
            if q.draining { return false }
            q.draining = true
            return true
        }
        if startDrain { queue.async { self.drain() } }
    }

    /// Appends a job that begins a run of the host's (a program's statements): observers see it
    /// as a callback of the host's own (`PromiseJob.isOwn`), which a record of turns shows as a
    /// start rather than as bookkeeping.
    public func enqueueStart(_ job: @escaping @Sendable () -> Void) {
        enqueueJob(StartJob(job))
    }

    /// Appends a task: it runs once no job is ready, after the tasks before it.
    func enqueueTask(_ task: AnyPromise) {
        if PromiseObservation.isActive { PromiseObservation.jobQueued(task, isTask: true) }
        let startDrain = state.withLock { q -> Bool in
            q.tasks.append(task)
            if q.draining { return false }
            q.draining = true
            return true
        }
        if startDrain { queue.async { self.drain() } }
    }

    /// Runs `task` as a task (a macrotask, as a timer callback is): after every job ready now.
    public func enqueueTask(_ task: @escaping @Sendable () -> Void) {
        enqueueTask(ClosureJob(task))
    }

    /// Runs `job` once every job that is ready has run, those they enqueue included, and
    /// before the next task: where node checks its unhandled rejections, after a drain of the
    /// microtask queue. Observers see it as a microtask (a callback that is not a task). A program
    /// that draws what has happened so far (`:timeline`) waits this way for what it started.
    public func enqueueWhenDrained(_ job: @escaping @Sendable () -> Void) {
        let job = ClosureJob(job)
        if PromiseObservation.isActive { PromiseObservation.jobQueued(job, isTask: false) }
        let startDrain = state.withLock { q -> Bool in
            q.whenDrained.append(job)
            if q.draining { return false }
            q.draining = true
            return true
        }
        if startDrain { queue.async { self.drain() } }
    }

    /// Sets `timer`: on the draining thread it starts at the loop time (refreshed when that is
    /// more than `staleLoopTime` ms old, so a long run of jobs does not make a wait short);
    /// from elsewhere, now.
    func setTimer(_ timer: OneShotTimer) {
        let onLoop = isCurrent
        state.withLock { q in
            var start = timerClockNow()
            if onLoop {
                if start - q.loopTime > Self.staleLoopTime { q.loopTime = start } else { start = q.loopTime }
            }
            q.pendingTimers += 1
            q.timers.insert(timer, start: start)
            armTimerSource(&q)
        }
    }

    /// How old (ms) the loop time may be for a timer set on the draining thread to start there.
    static let staleLoopTime: Double = 10

    /// Clears `timer` if it has not fired: its callback is released and never runs.
    func clearTimer(_ timer: OneShotTimer) {
        var waiters: [DispatchSemaphore] = []
        state.withLock { q in
            timer.fire = nil
            guard q.timers.remove(timer) else { return }
            q.pendingTimers -= 1
            if q.quiescent { swap(&waiters, &q.quiescentWaiters) }
        }
        for w in waiters { w.signal() }
    }

    /// Arms the source for the earliest expiry, if it is not armed for it (or earlier) already.
    private func armTimerSource(_ q: inout Queue) {
        guard let expiry = q.timers.nextExpiry, !q.passQueued, q.passNow == nil else { return }
        let due = expiry.rounded(.up)
        if due < q.armedFor {
            q.armedFor = due
            timerSource.schedule(deadline: DispatchTime(uptimeNanoseconds: UInt64(due) * 1_000_000), leeway: .nanoseconds(0))
        }
    }

    /// The source fired: queue a pass over the due timers as a task, as node's loop runs its
    /// timers phase.
    private func timersFallDue() {
        let startDrain = state.withLock { q -> Bool in
            q.armedFor = .infinity
            if q.passQueued || q.passNow != nil || q.halted { return false }
            q.passQueued = true
            q.tasks.append(TimerPass.marker)
            if q.draining { return false }
            q.draining = true
            return true
        }
        if startDrain { queue.async { self.drain() } }
    }

    /// The next task of the pass under way or starting (the marker was reached): the callback of
    /// the next due timer, or nil when the pass is over (the source is armed again).
    private func nextTimerTask(_ q: inout Queue) -> AnyPromise? {
        guard let now = q.passNow else { return nil }
        while let timer = q.timers.nextDue(now: now) {
            q.pendingTimers -= 1
            guard let fire = timer.fire else { continue }
            timer.fire = nil
            return timer.fulfilling == 0 ? ClosureJob(fire) : TimerJob(fulfilling: timer.fulfilling, fire)
        }
        q.passNow = nil
        armTimerSource(&q)
        return nil
    }

    /// The timers (`delay`, `timeout`, `retry` waits) whose callbacks will run on this executor
    /// and that have neither fired nor been cleared.
    public var pendingTimers: Int { state.withLock { $0.pendingTimers } }

    /// How many tasks the queue holds, those that ran and are not dropped yet included: a queue
    /// that never empties keeps it bounded (the tests read it).
    var tasksHeld: Int { state.withLock { $0.tasks.count } }

    /// True while a job or task is queued or running, or a timer is pending.
    public var hasPendingWork: Bool { state.withLock { !$0.quiescent } }

    /// Stops running the program, as node's process ends where an unhandled rejection ends it:
    /// from now on, the jobs and tasks queued (now or later, a timer's included) are dropped
    /// without running, and the waits below return at once. Meant to be called from a job or
    /// from `unhandledRejectionHandler`; the job running goes on to its end.
    public func halt() {
        var waiters: [DispatchSemaphore] = []
        haltFlag.store(true, ordering: .relaxed)
        state.withLock { q in
            q.halted = true
            swap(&waiters, &q.quiescentWaiters)
            waiters += q.idleWaiters
            q.idleWaiters = []
        }
        for w in waiters { w.signal() }
    }

    /// True once `halt` was called.
    public var isHalted: Bool { haltFlag.load(ordering: .relaxed) }
    /// `halt` was called: read by the draining thread before each job it enqueued itself.
    private let haltFlag = Atomic<Bool>(false)

    /// Waits, from a thread that is not running one of this executor's jobs, until no job is
    /// queued or running, or until `timeout` has passed; returns true when the executor went
    /// idle. A job enqueued later (by a timer, say) makes it busy again.
    public func waitUntilIdle(timeout: DispatchTimeInterval) -> Bool {
        let signal = DispatchSemaphore(value: 0)
        let busy = state.withLock { q -> Bool in
            if q.draining && !q.halted { q.idleWaiters.append(signal) }
            return q.draining && !q.halted
        }
        return !busy || signal.wait(timeout: .now() + timeout) == .success
    }

    /// Waits, from a thread that is not running one of this executor's jobs, until no job and
    /// no task is queued or running and no timer of this executor is pending (as node waits
    /// before it exits), or until `timeout` has passed; returns true when that happened.
    public func waitUntilQuiescent(timeout: DispatchTimeInterval) -> Bool {
        let signal = DispatchSemaphore(value: 0)
        let busy = state.withLock { q -> Bool in
            if !q.quiescent && !q.halted { q.quiescentWaiters.append(signal) }
            return !q.quiescent && !q.halted
        }
        return !busy || signal.wait(timeout: .now() + timeout) == .success
    }

    /// Called on the draining thread, after every job that was ready has run, with the tracked
    /// promises (`UnhandledRejection.track`) that rejected and still have no reaction, as node
    /// checks its possibly-unhandled rejections after each drain of the microtask queue. Nil (the
    /// default) lists nothing. What it enqueues runs in the same drain.
    public var unhandledRejectionHandler: (@Sendable ([AnyPromise]) -> Void)? {
        get { state.withLock { $0.unhandledHandler } }
        set { state.withLock { $0.unhandledHandler = newValue } }
    }

    /// A tracked promise rejected with no reaction.
    func notePossiblyUnhandled(_ p: AnyPromise) {
        state.withLock { if $0.unhandledHandler != nil { $0.possiblyUnhandled.append(p) } }
    }

    /// A listed promise got a reaction before the check.
    func noteHandled(_ p: AnyPromise) {
        state.withLock { $0.possiblyUnhandled.removeAll { $0 === p } }
    }

    /// True when called from a job running on this executor.
    public var isCurrent: Bool {
        drainThread.load(ordering: .relaxed) == currentThreadToken()
    }

    /// True when called by a job running on this executor's draining thread with no other job
    /// ready there: whatever it queues runs next, and before anything else can (jobs queued from
    /// other threads, tasks and timers wait until the thread's jobs run out).
    var runsAlone: Bool {
        drainThread.load(ordering: .relaxed) == currentThreadToken() && local.isEmpty
    }

    /// The thread running a drain, or 0. Only that thread ever finds its own token here, so it
    /// alone uses `local`.
    private let drainThread = Atomic<UInt>(0)
    /// Jobs enqueued by the draining thread itself; only that thread touches it, and drains hand
    /// over from thread to thread under the lock (`draining`).
    @exclusivity(unchecked) private var local = JobRing()

    private func drain() {
        drainThread.store(currentThreadToken(), ordering: .relaxed)
        var batch = ContiguousArray<AnyPromise>()
        var starting = true
        while true {
            if let job = local.pop() {
                if haltFlag.load(ordering: .relaxed) {
                    while local.pop() != nil {}
                    continue
                }
                if PromiseObservation.isActive, job.reportsToObservers { PromiseObservation.jobStarted(job, isTask: false) }
                job.run()
                continue
            }
            var waiters: [DispatchSemaphore] = []
            var quiet: [DispatchSemaphore] = []
            var task: AnyPromise? = nil
            var timerFired = false
            var unhandled: [AnyPromise] = []
            let more = state.withLock { q -> Bool in
                if starting {
                    q.loopTime = timerClockNow()
                    starting = false
                }
                if q.halted {
                    // What was queued is dropped; so is what comes later, drain by drain.
                    q.jobs.removeAll()
                    q.tasks.removeAll()
                    q.taskHead = 0
                    q.possiblyUnhandled.removeAll()
                    q.whenDrained.removeAll()
                    q.passQueued = false
                    q.passNow = nil
                    q.draining = false
                    drainThread.store(0, ordering: .relaxed)
                    swap(&waiters, &q.idleWaiters)
                    swap(&quiet, &q.quiescentWaiters)
                    return false
                }
                if !q.jobs.isEmpty {
                    swap(&batch, &q.jobs)
                    return true
                }
                if !q.possiblyUnhandled.isEmpty, q.unhandledHandler != nil {
                    swap(&unhandled, &q.possiblyUnhandled)
                    return true
                }
                if !q.whenDrained.isEmpty {
                    // One at a time: what it enqueues runs before the next.
                    batch.append(q.whenDrained.removeFirst())
                    return true
                }
                if let t = nextTimerTask(&q) {
                    task = t
                    timerFired = true
                    return true
                }
                while q.taskHead < q.tasks.count {
                    let t = q.tasks[q.taskHead]
                    q.taskHead += 1
                    if q.taskHead == q.tasks.count {
                        q.tasks.removeAll(keepingCapacity: true)
                        q.taskHead = 0
                    } else if q.taskHead >= 64, q.taskHead * 2 >= q.tasks.count {
                        // The tasks that ran go now, not when the queue empties: a queue that
                        // never empties (responses that keep coming while the executor is
                        // busy) kept every task it ran, and what each held (the response).
                        q.tasks.removeFirst(q.taskHead)
                        q.taskHead = 0
                    }
                    q.loopTime = timerClockNow()
                    if t === TimerPass.marker {
                        q.passQueued = false
                        q.passNow = q.loopTime
                        if let fired = nextTimerTask(&q) {
                            task = fired
                            timerFired = true
                            return true
                        }
                        continue
                    }
                    task = t
                    return true
                }
                q.draining = false
                drainThread.store(0, ordering: .relaxed)
                swap(&waiters, &q.idleWaiters)
                if q.pendingTimers == 0 { swap(&quiet, &q.quiescentWaiters) }
                return false
            }
            if !more {
                for w in waiters { w.signal() }
                for w in quiet { w.signal() }
                return
            }
            if !unhandled.isEmpty {
                state.withLock { $0.unhandledHandler }?(unhandled)
            } else if let task {
                if PromiseObservation.isActive {
                    if timerFired { PromiseObservation.jobQueued(task, isTask: true) }
                    PromiseObservation.jobStarted(task, isTask: true)
                }
                task.run()
            } else {
                // Jobs from other threads, in their order, before the jobs they enqueue (which
                // go to `local`, empty until now).
                for job in batch {
                    if PromiseObservation.isActive, job.reportsToObservers { PromiseObservation.jobStarted(job, isTask: false) }
                    job.run()
                }
                batch.removeAll(keepingCapacity: true)
            }
        }
    }
}

/// The job of `enqueueStart`.
///
/// Sendable: `body` is a `let` of a Sendable type. It says `@unchecked` only because its
/// superclass does, and Swift makes a subclass restate that.
private final class StartJob: ReactionJob, @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        super.init(execRef: nil)
    }
    override func run() { body() }
    override func observedJob(isTask: Bool) -> PromiseJob {
        PromiseJob(key: ObjectIdentifier(self), kind: .callback, source: 0, target: 0, isTask: isTask, isOwn: true)
    }
}

/// Stands in the task queue for a pass over the due timers; never run.
private enum TimerPass {
    static let marker = ClosureJob {}
}

#if canImport(Glibc)
    import Glibc
    private func currentThreadToken() -> UInt { UInt(pthread_self()) }
#elseif canImport(Darwin)
    import Darwin
    private func currentThreadToken() -> UInt { UInt(bitPattern: pthread_self()) }
#endif
