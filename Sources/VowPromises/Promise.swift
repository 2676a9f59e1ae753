import Synchronization

/// A value that arrives later, or an error: JavaScript's Promise, typed.
///
/// A promise is pending, then settles exactly once, fulfilled with a `T` or rejected with an
/// error. Handlers attached with `then`, `recover`, `finally`, `tap` or `whenSettled` never run
/// inside the call that attaches them, even on a settled promise: they run as jobs on an executor
/// (by default `PromiseExecutors.main`, a serial executor), in the order they were attached.
///
/// A handler that returns a promise makes the derived promise adopt it: the chain waits, and
/// settles as the returned promise does. Adoption costs two executor turns, as it does in
/// JavaScript, so that a program prints in the same order as its JavaScript twin.
///
/// All methods are thread-safe. A derived promise is itself the job that runs its handler, so a
/// `then` hop allocates one object (and the handler's captures, if any).
public class Promise<T: Sendable>: AnyPromise, @unchecked Sendable {
    /// The executor handlers run on when the caller names none.
    final let execRef: ExecutorRef
    /// What few promises need: id and name, more reactions, more upstream, cancel handlers.
    /// Under `lock`.
    @exclusivity(unchecked) final var extra: PromiseExtra?
    /// Guards the fields around it.
    final let lock = SpinLock()
    /// 0 while pending, 1 once fulfilled, 2 once rejected: what `slot` holds. Under `lock`;
    /// immutable once settled.
    @exclusivity(unchecked) final var phase: UInt8 = 0
    /// Promises that wait on this one (saturating: a promise with 65,535 dependents is never
    /// cancelled by theirs). Under `lock`.
    @exclusivity(unchecked) final var dependents: UInt16 = 0
    /// The first reaction (further ones are in `extra`). Under `lock`.
    @exclusivity(unchecked) final var first: AnyPromise? = nil
    /// While pending, what this promise waits on, for cancellation (further upstream promises
    /// are in `extra`); once settled, its value or its error. Under `lock`; immutable once
    /// settled.
    @exclusivity(unchecked) final var slot: PromiseSlot

    /// The id observers see (0 when no observer was installed at creation).
    public final override var id: Int { lock.withLock { extra?.id ?? 0 } }
    /// A name for tracing, e.g. the stage that made the promise: recorded only when an observer
    /// was installed as the promise was made, nil otherwise.
    public final override var name: String? { lock.withLock { extra?.name } }

    /// The id, for an event: 0 (and no lock taken) while no observer is installed.
    @inline(__always)
    final var observedID: Int { PromiseObservation.isActive ? id : 0 }

    /// The executor handlers run on when the caller names none.
    public final var executor: any PromiseExecutor { execRef.executor }

    /// A promise waiting on `parent` (nil for a source), which must count it as a dependent.
    /// It tells no observer: the maker calls `announce` once it is made (attributes, an
    /// existential, are only handled then, and only while an observer is installed).
    init(name: __shared String?, execRef: ExecutorRef, parent: __shared AnyPromise?) {
        self.execRef = execRef
        self.slot = PromiseSlot(reference: parent)
        // The name is for traces: kept only while an observer is installed, so that naming a
        // promise costs nothing (no allocation) the rest of the time.
        if PromiseObservation.isActive {
            self.extra = PromiseExtra(id: PromiseObservation.takeID(), name: name)
        }
        super.init()
    }

    /// Tells observers that this promise was made, waiting on `parent`; nothing while no
    /// observer is installed.
    @inline(__always)
    final func announce(parent: AnyPromise?, name: String?, attributes: @autoclosure () -> (any Sendable)?) {
        if PromiseObservation.isActive { announceObserved(parents: parent.map { [$0] } ?? [], name: name, attributes: attributes()) }
    }

    /// `announce`, for a promise waiting on several.
    @inline(never)
    final func announceObserved(parents: [AnyPromise], name: String?, attributes: (any Sendable)?) {
        let id = observedID
        if id != 0 {
            PromiseObservation.emit(.created(id: id, parents: parents.map(\.id), name: name, attributes: attributes))
        }
    }

    deinit {
        switch phase {
        case 0: _ = slot.exchangeReference(nil)
        case 1: slot.destroy(T.self)
        default: slot.destroy((any Error).self)
        }
    }

    /// A promise waiting on several promises (a combinator's result), counted as their dependent.
    convenience init(name: String?, executor: any PromiseExecutor, upstream: [AnyPromise], attributes: (any Sendable)? = nil) {
        self.init(name: name, execRef: ExecutorRef(executor), upstream: upstream, attributes: attributes)
    }

    /// A promise waiting on several promises (a combinator's result), counted as their dependent.
    convenience init(name: String?, execRef: ExecutorRef, upstream: [AnyPromise], attributes: (any Sendable)? = nil) {
        self.init(name: name, execRef: execRef, parent: upstream.first)
        if upstream.count > 1 {
            let more = Array(upstream.dropFirst())
            lock.withLock { makeExtra().moreUpstream = more }
        }
        for u in upstream { u.addDependent() }
        if PromiseObservation.isActive { announceObserved(parents: upstream, name: name, attributes: attributes) }
    }

    /// A promise waiting on one `parent`, counted as its dependent.
    convenience init(name: String?, executor: any PromiseExecutor, parent: AnyPromise, attributes: (any Sendable)? = nil) {
        self.init(name: name, execRef: ExecutorRef(executor), parent: parent)
        announce(parent: parent, name: name, attributes: attributes)
        parent.addDependent()
    }

    // MARK: Making promises

    /// Runs `body` at once with a resolver, like JavaScript's `new Promise(executor)`.
    /// If `body` throws before settling, the promise rejects with the thrown error.
    public convenience init(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil,
        on executor: any PromiseExecutor = PromiseExecutors.main,
        _ body: (Resolver<T>) throws -> Void
    ) {
        self.init(name: name, execRef: ExecutorRef(executor), parent: nil)
        announce(parent: nil, name: name, attributes: attributes())
        do {
            try body(Resolver(self))
        } catch {
            settle(.failure(error))
        }
    }

    /// A pending promise and the resolver that settles it.
    public static func pending(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil,
        on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> (promise: Promise<T>, resolver: Resolver<T>) {
        let p = Promise(name: name, execRef: ExecutorRef(executor), parent: nil)
        p.announce(parent: nil, name: name, attributes: attributes())
        return (p, Resolver(p))
    }

    /// An already fulfilled promise (JavaScript's `Promise.resolve(value)`).
    public static func resolve(
        _ value: T, name: String? = nil, on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<T> {
        resolve(value, name: name, execRef: ExecutorRef(executor))
    }

    static func resolve(_ value: T, name: String? = nil, execRef: ExecutorRef) -> Promise<T> {
        let p = Promise(name: name, execRef: execRef, parent: nil)
        p.announce(parent: nil, name: name, attributes: nil)
        p.settle(.success(value))
        return p
    }

    /// An already rejected promise (JavaScript's `Promise.reject(error)`).
    public static func reject(
        _ error: any Error, name: String? = nil, on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<T> {
        let p = Promise(name: name, execRef: ExecutorRef(executor), parent: nil)
        p.announce(parent: nil, name: name, attributes: nil)
        p.settle(.failure(error))
        return p
    }

    // MARK: State

    /// The outcome, or nil while pending.
    public final var result: Result<T, any Error>? {
        lock.withLock { settledResult }
    }

    /// True until the promise settles.
    public final override var isPending: Bool {
        lock.withLock { isPendingUnlocked }
    }

    /// The outcome of a promise known to have settled (its reaction is running), read without
    /// the lock: a settled promise's state never changes again.
    @inline(__always)
    final var settledResult: Result<T, any Error>? {
        switch phase {
        case 0: return nil
        case 1: return .success(slot.load(T.self))
        default: return .failure(slot.load((any Error).self))
        }
    }

    /// True while pending; under `lock`.
    @inline(__always)
    final var isPendingUnlocked: Bool { phase == 0 }

    /// Records the outcome, under `lock`, of a pending promise; hands back what it waited on,
    /// for the caller to release once the lock is let go.
    @inline(__always)
    final func record(_ result: Result<T, any Error>) -> AnyPromise? {
        let up = slot.exchangeReference(nil)
        switch result {
        case .success(let v):
            slot.initialize(v)
            phase = 1
        case .failure(let e):
            slot.initialize(error: e)
            phase = 2
        }
        return up
    }

    @inline(__always)
    final func makeExtra() -> PromiseExtra {
        if let e = extra { return e }
        let e = PromiseExtra()
        extra = e
        return e
    }

    // MARK: Settling (internal: the Resolver is the public way)

    /// Settles once; later calls return false and change nothing.
    @discardableResult
    final func settle(_ result: Result<T, any Error>) -> Bool {
        var first: AnyPromise? = nil
        var more: PromiseExtra.Taken? = nil
        var upstream: AnyPromise? = nil
        let done = lock.withLock { () -> Bool in
            guard isPendingUnlocked else { return false }
            swap(&first, &self.first)
            upstream = record(result)
            if let e = extra { more = e.take(); if !e.hasMeta { extra = nil } }
            return true
        }
        guard done else { return false }
        dispatch(result, first, more)
        withExtendedLifetime(upstream) {}  // released here, not under the lock
        return true
    }

    /// After settling: tells observers, and schedules the reactions in attachment order.
    @inline(__always)
    final func dispatch(_ result: Result<T, any Error>, _ first: AnyPromise?, _ more: PromiseExtra.Taken?) {
        if PromiseObservation.isActive {
            let id = self.id
            if id != 0 {
                switch result {
                case .success(let v): PromiseObservation.emit(.fulfilled(id: id, value: v))
                case .failure(let e): PromiseObservation.emit(.rejected(id: id, error: e))
                }
            }
        }
        first?.schedule()
        if let more { for r in more.reactions { r.schedule() } }
    }

    /// Adds a reaction job, or schedules it at once if settled; `dependent` counts it as a
    /// promise that waits on this one.
    @inline(__always)
    final func addReaction(_ job: AnyPromise, dependent: Bool) {
        let settled = lock.withLock { () -> Bool in
            if dependent, dependents != .max { dependents &+= 1 }
            guard isPendingUnlocked else { return true }
            if first == nil {
                first = job
            } else {
                makeExtra().moreReactions.append(job)
            }
            return false
        }
        if settled { job.schedule() }
    }

    /// Schedules this promise as a job (a derived promise running its handler).
    override final func schedule() { execRef.enqueue(self) }

    /// For a derived promise about to run its handler: the promise it waits on, or nil when it
    /// has settled already (it was cancelled).
    @inline(__always)
    final func parentForRun() -> AnyPromise? {
        lock.withLock { isPendingUnlocked ? slot.reference : nil }
    }

    /// Calls `body` with the outcome on `executor` once settled. Derives no promise and does not
    /// count as a dependent for cancellation.
    public final func whenSettled(
        on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let ex = executor.map(ExecutorRef.init) ?? execRef
        let id = observedID
        if id != 0 { PromiseObservation.emit(.handlerAttached(id: id, child: 0)) }
        addReaction(ObserverJob(source: self, execRef: ex, body, step: { $0.react() }), dependent: false)
    }

    /// Settles `target` as this promise settles, on `executor`: the adoption step.
    final func forward(to target: Promise<T>, on executor: ExecutorRef) {
        addReaction(AdoptJob(inner: self, child: target, execRef: executor, attached: true, step: { $0.react() }), dependent: false)
    }

    // MARK: Cancellation internals

    override final func cancelLocally(reason: String) -> [AnyPromise] {
        var first: AnyPromise? = nil
        var upstream: AnyPromise? = nil
        var more: PromiseExtra.Taken? = nil
        let result: Result<T, any Error> = .failure(PromiseCancelledError(reason: reason))
        let done = lock.withLock { () -> Bool in
            guard isPendingUnlocked else { return false }
            swap(&first, &self.first)
            upstream = record(result)
            if let e = extra { more = e.take(); if !e.hasMeta { extra = nil } }
            return true
        }
        guard done else { return [] }
        let id = observedID
        if id != 0 { PromiseObservation.emit(.cancelled(id: id)) }
        dispatch(result, first, more)
        var ups: [AnyPromise] = []
        if let more {
            for h in more.cancelHandlers { h() }
            ups = more.upstream
        }
        if let upstream { ups.append(upstream) }
        return ups
    }

    override final func dependentWasCancelled() -> Bool {
        lock.withLock {
            guard isPendingUnlocked else { return false }
            let e = makeExtra()
            e.cancelledDependents &+= 1
            return dependents != .max && e.cancelledDependents >= UInt32(dependents)
        }
    }

    override final func addDependent() {
        lock.withLock { if dependents != .max { dependents &+= 1 } }
    }

    /// Registers work to stop when this promise is cancelled; runs it at once if it already was.
    final func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = lock.withLock {
            switch phase {
            case 0: break
            case 1: return false
            default: return slot.load((any Error).self) is PromiseCancelledError
            }
            makeExtra().cancelHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Replaces what this promise waits on (adoption), for cancellation to follow; false, and
    /// nothing replaced, when this promise has already settled (each of `promises` then counts
    /// this one as a dependent that has gone, for the caller to release).
    final func setUpstream(_ inner: AnyPromise) -> Bool {
        inner.addDependent()
        var replaced: AnyPromise? = nil
        let done = lock.withLock { () -> Bool in
            guard isPendingUnlocked else { return false }
            replaced = slot.exchangeReference(inner)
            if let e = extra, !e.moreUpstream.isEmpty { e.moreUpstream = [] }
            return true
        }
        withExtendedLifetime(replaced) {}  // released here, not under the lock
        return done
    }

    /// The reason this promise was cancelled with, or nil when it was not cancelled.
    final var cancellationReason: String? {
        guard case .failure(let e as PromiseCancelledError)? = result else { return nil }
        return e.reason
    }

    // MARK: Deriving

    /// Attaches `child`, a derived promise whose parent is this one, as a reaction.
    @inline(__always)
    final func attach<U>(_ child: Promise<U>) -> Promise<U> {
        if PromiseObservation.isActive {
            let (id, childID) = (self.id, child.id)
            if id != 0 || childID != 0 { PromiseObservation.emit(.handlerAttached(id: id, child: childID)) }
        }
        addReaction(child, dependent: true)
        return child
    }

    @inline(__always)
    final func ref(_ executor: (any PromiseExecutor)?) -> ExecutorRef {
        if let s = executor?.asSerialPromiseExecutor { return .serial(Unmanaged.passUnretained(s)) }
        if let executor { return .other(ExecutorBox(executor)) }
        return execRef
    }

    /// Makes the derived promise of a handler, settled by `react` on its executor. `react` does
    /// not run when the derived promise has already settled (it was cancelled): a cancelled
    /// stage runs no handler, since what the handler would start has no one to go to.
    final func derive<U>(
        name: String?, attributes: @autoclosure () -> (any Sendable)?, on executor: (any PromiseExecutor)?,
        _ react: @escaping @Sendable (Result<T, any Error>, Promise<U>, ExecutorRef) -> Void
    ) -> Promise<U> {
        ReactingPromise<T, U>.registerStep()
        let child = ReactingPromise<T, U>(name: name, execRef: ref(executor), parent: self, react)
        child.announce(parent: self, name: name, attributes: attributes())
        return attach(child)
    }

    /// Settles `child` with the handler's returned promise: adopts it, two turns later.
    static func adopt<U>(_ child: Promise<U>, _ inner: Promise<U>, on executor: ExecutorRef) {
        if inner === child {
            child.settle(.failure(PromiseCycleError()))
            return
        }
        guard child.setUpstream(inner) else {
            // The adopter was cancelled while its handler ran: nothing waits for `inner` now.
            inner.releaseAsDependent(reason: child.cancellationReason ?? "cancelled")
            return
        }
        let childID = child.observedID
        if childID != 0 { PromiseObservation.emit(.adopted(id: childID, adopted: inner.id)) }
        // JavaScript's PromiseResolveThenableJob: one turn to call `then` on the inner promise,
        // one more for that reaction to run.
        executor.enqueue(AdoptJob(inner: inner, child: child, execRef: executor, attached: false, step: { $0.react() }))
    }

    /// Runs `body` with the value when this promise fulfils; the derived promise adopts the
    /// promise `body` returns. A rejection passes through untouched; a throw rejects.
    public final func then<U>(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (T) throws -> Promise<U>
    ) -> Promise<U> {
        derive(name: name, attributes: attributes(), on: executor) { r, child, ex in
            switch r {
            case .success(let v):
                do { Promise<U>.adopt(child, try body(v), on: ex) } catch { child.settle(.failure(error)) }
            case .failure(let e):
                child.settle(.failure(e))
            }
        }
    }

    /// Runs `body` with the value when this promise fulfils; the derived promise fulfils with
    /// what it returns (rejects with what it throws). A rejection passes through untouched.
    @_disfavoredOverload @inline(__always)
    public final func then<U>(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (T) throws -> U
    ) -> Promise<U> {
        MappingPromise<T, U>.registerStep()
        let child = MappingPromise<T, U>(name: name, execRef: ref(executor), parent: self, body)
        child.announce(parent: self, name: name, attributes: attributes())
        return attach(child)
    }

    /// `then` with a plain value, on an executor already held.
    final func then<U>(execRef: ExecutorRef, _ body: @escaping @Sendable (T) throws -> U) -> Promise<U> {
        MappingPromise<T, U>.registerStep()
        let child = MappingPromise<T, U>(name: nil, execRef: execRef, parent: self, body)
        child.announce(parent: self, name: nil, attributes: nil)
        return attach(child)
    }

    /// JavaScript's `catch`: on rejection, `body` recovers with a promise to adopt (the chain
    /// continues fulfilled if it fulfils) or throws to pass a rejection on. A fulfilment passes
    /// through untouched.
    public final func recover(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (any Error) throws -> Promise<T>
    ) -> Promise<T> {
        derive(name: name, attributes: attributes(), on: executor) { r, child, ex in
            switch r {
            case .success: child.settle(r)
            case .failure(let e):
                do { Promise<T>.adopt(child, try body(e), on: ex) } catch { child.settle(.failure(error)) }
            }
        }
    }

    /// `recover` with a plain value: the chain continues fulfilled with what `body` returns.
    @_disfavoredOverload
    public final func recover(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (any Error) throws -> T
    ) -> Promise<T> {
        derive(name: name, attributes: attributes(), on: executor) { r, child, _ in
            switch r {
            case .success: child.settle(r)
            case .failure(let e):
                do { child.settle(.success(try body(e))) } catch { child.settle(.failure(error)) }
            }
        }
    }

    /// Runs `body` on both paths and passes the original outcome through, after the promise
    /// `body` returns has settled, unless `body` throws or that promise rejects: then that
    /// rejection passes on instead (JavaScript's `finally`).
    ///
    /// The turns are JavaScript's: `p.finally(f)` is `p.then(v => f().then(() => v),
    /// e => f().then(() => { throw e }))`, whose returned promise the derived one adopts.
    public final func finally<U>(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable () throws -> Promise<U>
    ) -> Promise<T> {
        derive(name: name, attributes: attributes(), on: executor) { r, child, ex in
            let inner: Promise<U>
            do { inner = try body() } catch {
                child.settle(.failure(error))
                return
            }
            let passed = inner.then(execRef: ex) { _ -> T in try r.get() }
            Promise<T>.adopt(child, passed, on: ex)
        }
    }

    /// `finally` with a plain side effect. It takes JavaScript's turns too: `p.finally(() => f())`
    /// settles two turns after `f` runs, as if `f` had returned an already fulfilled promise.
    @_disfavoredOverload
    public final func finally(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable () throws -> Void
    ) -> Promise<T> {
        derive(name: name, attributes: attributes(), on: executor) { r, child, ex in
            do { try body() } catch {
                child.settle(.failure(error))
                return
            }
            let passed = Promise<Void>.resolve((), execRef: ex).then(execRef: ex) { _ -> T in try r.get() }
            Promise<T>.adopt(child, passed, on: ex)
        }
    }

    /// Observes the outcome without changing it (unless `body` throws, which rejects).
    public final func tap(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) throws -> Void
    ) -> Promise<T> {
        derive(name: name, attributes: attributes(), on: executor) { r, child, _ in
            do {
                try body(r)
                child.settle(r)
            } catch {
                child.settle(.failure(error))
            }
        }
    }
}

extension Promise {
    /// `then` whose handler returns a value or a promise (see `Resolution`).
    public func then<U>(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        resolving body: @escaping @Sendable (T) throws -> Resolution<U>
    ) -> Promise<U> {
        ResolvingPromise<T, U>.registerStep()
        let child = ResolvingPromise<T, U>(name: name, execRef: ref(executor), parent: self, body)
        child.announce(parent: self, name: name, attributes: attributes())
        return attach(child)
    }

    /// `recover` whose handler returns a value or a promise (see `Resolution`).
    public func recover(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        resolving body: @escaping @Sendable (any Error) throws -> Resolution<T>
    ) -> Promise<T> {
        derive(name: name, attributes: attributes(), on: executor) { r, child, ex in
            switch r {
            case .success: child.settle(r)
            case .failure(let e):
                do {
                    switch try body(e) {
                    case .value(let u): child.settle(.success(u))
                    case .promise(let p): Promise<T>.adopt(child, p, on: ex)
                    }
                } catch { child.settle(.failure(error)) }
            }
        }
    }

    /// Runs `body` with the whole outcome, on both paths, and settles with what it hands back:
    /// the shape of `finally`, `tap` and `settle`-style stages that decide per outcome.
    public func always<U>(
        name: String? = nil, attributes: @autoclosure () -> (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) throws -> Resolution<U>
    ) -> Promise<U> {
        derive(name: name, attributes: attributes(), on: executor) { r, child, ex in
            do {
                switch try body(r) {
                case .value(let u): child.settle(.success(u))
                case .promise(let p): Promise<U>.adopt(child, p, on: ex)
                }
            } catch { child.settle(.failure(error)) }
        }
    }
}
