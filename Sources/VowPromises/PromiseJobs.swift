// The jobs reactions run as: the three promises a handler derives (each is the job that runs its
// handler), and the two jobs that derive no promise (`whenSettled`'s observer, adoption's step).

/// The promise `then { value }` derives: it is its own job, and calls `body` with the parent's
/// value when it runs, through the step `then` registered, specialized for `T` and `U` (see
/// `SpecializedSteps`): it keeps no closure of its own, so that a hop takes 80 bytes.
///
/// Sendable: the promise's state is `Promise`'s, under `lock`. `body` is set in init and then
/// changed only by `react`, which runs once, as this job, on its executor; the parent's lock and
/// the executor's queue hand the job from thread to thread.
final class MappingPromise<T: Sendable, U: Sendable>: Promise<U>, @unchecked Sendable {
    /// The handler; nil once it has run (or was skipped), so that what it captured is released
    /// even while the promise itself is kept (an interpreter keeps its stages' promises, and
    /// their handlers capture the interpreter's records of them).
    @exclusivity(unchecked) var body: (@Sendable (T) throws -> U)?

    init(name: __shared String?, execRef: ExecutorRef, parent: __shared Promise<T>,
         _ body: @escaping @Sendable (T) throws -> U) {
        self.body = body
        super.init(name: name, execRef: execRef, parent: parent)
    }

    /// Registers the specialized step of this class; called where `then` is specialized.
    @inline(__always)
    static func registerStep() {
        SpecializedSteps.register(SpecializedSteps.key(MappingPromise<T, U>.self)) {
            { unsafeDowncast($0, to: MappingPromise<T, U>.self).react() }
        }
    }

    override func run() {
        if !SpecializedSteps.run(SpecializedSteps.key(type(of: self)), self) { runUnspecialized() }
    }

    /// Out of line, so that `run` itself touches no generic type (an unspecialized function
    /// looks up the metadata it may need on entry).
    @inline(never)
    func runUnspecialized() { react() }

    @inline(__always)
    func react() {
        guard let body else { return }
        self.body = nil
        guard let p = parentForRun() else { return }
        guard let r = unsafeDowncast(p, to: Promise<T>.self).settledResult else { return }
        switch r {
        case .success(let v):
            do { settle(.success(try body(v))) } catch { settle(.failure(error)) }
        case .failure(let e):
            settle(.failure(e))
        }
    }
}

/// The promise `then(resolving:)` derives (the interpreter's stages).
///
/// Sendable: as `MappingPromise`: `body` is changed only by the one run of this job on its
/// executor; the rest is `Promise`'s, under `lock`.
final class ResolvingPromise<T: Sendable, U: Sendable>: Promise<U>, @unchecked Sendable {
    /// The handler; nil once it has run (or was skipped), as in `MappingPromise`.
    @exclusivity(unchecked) var body: (@Sendable (T) throws -> Resolution<U>)?

    init(name: __shared String?, execRef: ExecutorRef, parent: __shared Promise<T>,
         _ body: @escaping @Sendable (T) throws -> Resolution<U>) {
        self.body = body
        super.init(name: name, execRef: execRef, parent: parent)
    }

    /// Registers the specialized step of this class; called where the handler is attached.
    @inline(__always)
    static func registerStep() {
        SpecializedSteps.register(SpecializedSteps.key(ResolvingPromise<T, U>.self)) {
            { unsafeDowncast($0, to: ResolvingPromise<T, U>.self).react() }
        }
    }

    override func run() {
        if !SpecializedSteps.run(SpecializedSteps.key(type(of: self)), self) { runUnspecialized() }
    }

    @inline(never)
    func runUnspecialized() { react() }

    @inline(__always)
    func react() {
        guard let body else { return }
        self.body = nil
        guard let p = parentForRun() else { return }
        guard let r = unsafeDowncast(p, to: Promise<T>.self).settledResult else { return }
        switch r {
        case .success(let v):
            do {
                switch try body(v) {
                case .value(let u): settle(.success(u))
                case .promise(let q): Promise<U>.adopt(self, q, on: execRef)
                }
            } catch { settle(.failure(error)) }
        case .failure(let e):
            settle(.failure(e))
        }
    }
}

/// The promise every other handler derives: `react` gets the parent's outcome.
///
/// Sendable: as `MappingPromise`: `react` is changed only by the one run of this job on its
/// executor; the rest is `Promise`'s, under `lock`.
final class ReactingPromise<T: Sendable, U: Sendable>: Promise<U>, @unchecked Sendable {
    /// The handler; nil once it has run (or was skipped), as in `MappingPromise`.
    @exclusivity(unchecked) var react: (@Sendable (Result<T, any Error>, Promise<U>, ExecutorRef) -> Void)?

    init(name: __shared String?, execRef: ExecutorRef, parent: __shared Promise<T>,
         _ react: @escaping @Sendable (Result<T, any Error>, Promise<U>, ExecutorRef) -> Void) {
        self.react = react
        super.init(name: name, execRef: execRef, parent: parent)
    }

    /// Registers the specialized step of this class; called where the handler is attached.
    @inline(__always)
    static func registerStep() {
        SpecializedSteps.register(SpecializedSteps.key(ReactingPromise<T, U>.self)) {
            { unsafeDowncast($0, to: ReactingPromise<T, U>.self).reactNow() }
        }
    }

    override func run() {
        if !SpecializedSteps.run(SpecializedSteps.key(type(of: self)), self) { runUnspecialized() }
    }

    @inline(never)
    func runUnspecialized() { reactNow() }

    @inline(__always)
    func reactNow() {
        guard let react else { return }
        self.react = nil
        guard let p = parentForRun() else { return }
        guard let r = unsafeDowncast(p, to: Promise<T>.self).settledResult else { return }
        react(r, self, execRef)
    }
}

/// `whenSettled`'s job: calls `body` with the source's outcome.
///
/// Sendable: every field is a `let` of a Sendable type. It says `@unchecked` only because its
/// superclass does, and Swift makes a subclass restate that.
final class ObserverJob<T: Sendable>: ReactionJob, @unchecked Sendable {
    let source: Promise<T>
    let body: @Sendable (Result<T, any Error>) -> Void
    let step: @Sendable (ObserverJob<T>) -> Void
    /// The runtime's own bookkeeping, not the program's (`PromiseJob.isOwn`).
    let isOwn: Bool

    init(source: Promise<T>, execRef: ExecutorRef, isOwn: Bool = false, _ body: @escaping @Sendable (Result<T, any Error>) -> Void,
         step: @escaping @Sendable (ObserverJob<T>) -> Void) {
        self.source = source
        self.body = body
        self.step = step
        self.isOwn = isOwn
        super.init(execRef: execRef)
    }

    override func run() { step(self) }

    override func observedJob(isTask: Bool) -> PromiseJob {
        PromiseJob(key: ObjectIdentifier(self), kind: .observer, source: source.id, target: 0, isTask: isTask, isOwn: isOwn)
    }

    @inline(__always)
    func react() {
        if let r = source.settledResult { body(r) }
    }
}

/// Adoption, JavaScript's PromiseResolveThenableJob and the reaction it attaches: run once, it
/// attaches itself to `inner`; run again when `inner` settles, it settles `child` likewise.
///
/// Sendable: the other fields are `let`s of Sendable types. `attached` changes once, in `react` on
/// the executor, just before the job attaches itself to `inner` under `inner`'s lock; every later
/// read (the second run, `observedJob` when the job is queued again) comes after that lock.
final class AdoptJob<T: Sendable>: ReactionJob, @unchecked Sendable {
    let inner: Promise<T>
    let child: Promise<T>
    let step: @Sendable (AdoptJob<T>) -> Void
    @exclusivity(unchecked) var attached: Bool

    init(inner: Promise<T>, child: Promise<T>, execRef: ExecutorRef, attached: Bool,
         step: @escaping @Sendable (AdoptJob<T>) -> Void) {
        self.inner = inner
        self.child = child
        self.attached = attached
        self.step = step
        super.init(execRef: execRef)
    }

    override func run() { step(self) }

    override func observedJob(isTask: Bool) -> PromiseJob {
        PromiseJob(key: ObjectIdentifier(self), kind: attached ? .adoptSettle : .adoptThen, source: inner.id, target: child.id, isTask: isTask)
    }

    @inline(__always)
    func react() {
        if !attached {
            attached = true
            inner.addReaction(self, dependent: false)
        } else if let r = inner.settledResult {
            child.settle(r)
        }
    }
}
