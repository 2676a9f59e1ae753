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
/// All methods are thread-safe.
public final class Promise<T: Sendable>: AnyPromise, @unchecked Sendable {
    typealias Reaction = @Sendable (Result<T, any Error>) -> Void

    private enum Reactions {
        case none
        case one(Reaction)
        case many([Reaction])

        mutating func append(_ r: @escaping Reaction) {
            switch self {
            case .none: self = .one(r)
            case .one(let first): self = .many([first, r])
            case .many(var all):
                self = .none
                all.append(r)
                self = .many(all)
            }
        }
    }

    private struct Storage {
        var result: Result<T, any Error>? = nil
        var reactions: Reactions = .none
        /// What this promise waits on, for cancellation: almost always one promise, kept out of
        /// an array so that a `then` hop allocates no array.
        var upstream: AnyPromise?
        /// Further upstream promises (combinators wait on several).
        var moreUpstream: [AnyPromise] = []
        var cancelHandlers: [@Sendable () -> Void] = []
        var dependents: Int32 = 0
        var cancelledDependents: Int32 = 0
    }

    private let storage: Locked<Storage>
    /// The executor handlers run on when the caller names none.
    public let executor: any PromiseExecutor

    init(name: String?, executor: any PromiseExecutor, upstream: [AnyPromise], attributes: (any Sendable)? = nil) {
        var s = Storage()
        s.upstream = upstream.first
        s.moreUpstream = Array(upstream.dropFirst())
        self.storage = Locked(s)
        self.executor = executor
        super.init(name: name)
        for u in upstream { u.addDependent() }
        if id != 0 {
            PromiseObservation.emit(.created(id: id, parents: upstream.map(\.id), name: name, attributes: attributes))
        }
    }

    /// A promise waiting on one `parent` (a derived promise).
    init(name: String?, executor: any PromiseExecutor, parent: AnyPromise, attributes: (any Sendable)? = nil) {
        var s = Storage()
        s.upstream = parent
        self.storage = Locked(s)
        self.executor = executor
        super.init(name: name)
        parent.addDependent()
        if id != 0 {
            PromiseObservation.emit(.created(id: id, parents: [parent.id], name: name, attributes: attributes))
        }
    }

    // MARK: Making promises

    /// Runs `body` at once with a resolver, like JavaScript's `new Promise(executor)`.
    /// If `body` throws before settling, the promise rejects with the thrown error.
    public convenience init(
        name: String? = nil, attributes: (any Sendable)? = nil,
        on executor: any PromiseExecutor = PromiseExecutors.main,
        _ body: (Resolver<T>) throws -> Void
    ) {
        self.init(name: name, executor: executor, upstream: [], attributes: attributes)
        do {
            try body(Resolver(self))
        } catch {
            settle(.failure(error))
        }
    }

    /// A pending promise and the resolver that settles it.
    public static func pending(
        name: String? = nil, attributes: (any Sendable)? = nil,
        on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> (promise: Promise<T>, resolver: Resolver<T>) {
        let p = Promise(name: name, executor: executor, upstream: [], attributes: attributes)
        return (p, Resolver(p))
    }

    /// An already fulfilled promise (JavaScript's `Promise.resolve(value)`).
    public static func resolve(
        _ value: T, name: String? = nil, on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<T> {
        let p = Promise(name: name, executor: executor, upstream: [])
        p.settle(.success(value))
        return p
    }

    /// An already rejected promise (JavaScript's `Promise.reject(error)`).
    public static func reject(
        _ error: any Error, name: String? = nil, on executor: any PromiseExecutor = PromiseExecutors.main
    ) -> Promise<T> {
        let p = Promise(name: name, executor: executor, upstream: [])
        p.settle(.failure(error))
        return p
    }

    // MARK: State

    /// The outcome, or nil while pending.
    public var result: Result<T, any Error>? { storage.withLock { $0.result } }

    /// True until the promise settles.
    public override var isPending: Bool { storage.withLock { $0.result == nil } }

    // MARK: Settling (internal: the Resolver is the public way)

    /// Settles once; later calls return false and change nothing.
    @discardableResult
    func settle(_ result: Result<T, any Error>) -> Bool {
        let reactions: Reactions? = storage.withLock { s in
            guard s.result == nil else { return nil }
            s.result = result
            let r = s.reactions
            s.reactions = .none
            s.upstream = nil
            if !s.moreUpstream.isEmpty { s.moreUpstream = [] }
            if !s.cancelHandlers.isEmpty { s.cancelHandlers = [] }
            return r
        }
        guard let reactions else { return false }
        if id != 0 {
            switch result {
            case .success(let v): PromiseObservation.emit(.fulfilled(id: id, value: v))
            case .failure(let e): PromiseObservation.emit(.rejected(id: id, error: e))
            }
        }
        switch reactions {
        case .none: break
        case .one(let r): r(result)
        case .many(let all): for r in all { r(result) }
        }
        return true
    }

    /// Adds a reaction, or runs it at once if settled. Reactions themselves hop to an executor.
    private func addReaction(_ reaction: @escaping Reaction) {
        let settled: Result<T, any Error>? = storage.withLock { s in
            if let r = s.result { return r }
            s.reactions.append(reaction)
            return nil
        }
        if let settled { reaction(settled) }
    }

    /// Calls `body` with the outcome on `executor` once settled. Derives no promise and does not
    /// count as a dependent for cancellation.
    public func whenSettled(
        on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let ex = executor ?? self.executor
        if id != 0 { PromiseObservation.emit(.handlerAttached(id: id, child: 0)) }
        addReaction { r in ex.enqueue { body(r) } }
    }

    /// Settles `target` as this promise settles, on `executor`: the adoption step.
    func forward(to target: Promise<T>, on executor: any PromiseExecutor) {
        addReaction { r in executor.enqueue { target.settle(r) } }
    }

    // MARK: Cancellation internals

    override func cancelLocally(reason: String) -> [AnyPromise] {
        let taken: (upstream: [AnyPromise], handlers: [@Sendable () -> Void])? = storage.withLock { s in
            guard s.result == nil else { return nil }
            var u = s.moreUpstream
            if let first = s.upstream { u.append(first) }
            let h = s.cancelHandlers
            s.upstream = nil
            s.moreUpstream = []
            s.cancelHandlers = []
            return (u, h)
        }
        guard let taken else { return [] }
        if id != 0 { PromiseObservation.emit(.cancelled(id: id)) }
        settle(.failure(PromiseCancelledError(reason: reason)))
        for h in taken.handlers { h() }
        return taken.upstream
    }

    override func dependentWasCancelled() -> Bool {
        storage.withLock { s in
            s.cancelledDependents += 1
            return s.result == nil && s.cancelledDependents >= s.dependents
        }
    }

    override func addDependent() {
        storage.withLock { $0.dependents += 1 }
    }

    /// Registers work to stop when this promise is cancelled; runs it at once if it already was.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = storage.withLock { s in
            if let r = s.result {
                if case .failure(let e) = r, e is PromiseCancelledError { return true }
                return false
            }
            s.cancelHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Replaces what this promise waits on (adoption), for cancellation to follow; false, and
    /// nothing replaced, when this promise has already settled (each of `promises` then counts
    /// this one as a dependent that has gone, for the caller to release).
    func setUpstream(_ promises: [AnyPromise]) -> Bool {
        for p in promises { p.addDependent() }
        return storage.withLock { s in
            guard s.result == nil else { return false }
            s.upstream = promises.first
            s.moreUpstream = Array(promises.dropFirst())
            return true
        }
    }

    /// The reason this promise was cancelled with, or nil when it was not cancelled.
    var cancellationReason: String? {
        guard case .failure(let e as PromiseCancelledError)? = result else { return nil }
        return e.reason
    }

    // MARK: Deriving

    /// Makes the derived promise of a handler, settled by `react` on `executor`. `react` does
    /// not run when the derived promise has already settled (it was cancelled): a cancelled
    /// stage runs no handler, since what the handler would start has no one to go to.
    func derive<U>(
        name: String?, attributes: (any Sendable)?, on executor: (any PromiseExecutor)?,
        _ react: @escaping @Sendable (Result<T, any Error>, Promise<U>, any PromiseExecutor) -> Void
    ) -> Promise<U> {
        attach(name: name, attributes: attributes, on: executor) { child, ex in
            { r in ex.enqueue { if child.isPending { react(r, child, ex) } } }
        }
    }

    /// Makes the derived promise and attaches the reaction that `make` builds for it. The hot
    /// paths (`then`) build their reaction here directly, so that it captures the handler itself:
    /// one closure context per hop instead of two.
    @inline(__always)
    func attach<U>(
        name: String?, attributes: (any Sendable)?, on executor: (any PromiseExecutor)?,
        _ make: (Promise<U>, any PromiseExecutor) -> Reaction
    ) -> Promise<U> {
        let ex = executor ?? self.executor
        let child = Promise<U>(name: name, executor: ex, parent: self, attributes: attributes)
        if id != 0 || child.id != 0 { PromiseObservation.emit(.handlerAttached(id: id, child: child.id)) }
        addReaction(make(child, ex))
        return child
    }

    /// Settles `child` with the handler's returned promise: adopts it, two turns later.
    static func adopt<U>(_ child: Promise<U>, _ inner: Promise<U>, on executor: any PromiseExecutor) {
        if inner === child {
            child.settle(.failure(PromiseCycleError()))
            return
        }
        guard child.setUpstream([inner]) else {
            // The adopter was cancelled while its handler ran: nothing waits for `inner` now.
            inner.releaseAsDependent(reason: child.cancellationReason ?? "cancelled")
            return
        }
        if child.id != 0 { PromiseObservation.emit(.adopted(id: child.id, adopted: inner.id)) }
        // JavaScript's PromiseResolveThenableJob: one turn to call `then` on the inner promise,
        // one more for that reaction to run.
        executor.enqueue { inner.forward(to: child, on: executor) }
    }

    /// Runs `body` with the value when this promise fulfils; the derived promise adopts the
    /// promise `body` returns. A rejection passes through untouched; a throw rejects.
    public func then<U>(
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (T) throws -> Promise<U>
    ) -> Promise<U> {
        derive(name: name, attributes: attributes, on: executor) { r, child, ex in
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
    @_disfavoredOverload
    public func then<U>(
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (T) throws -> U
    ) -> Promise<U> {
        attach(name: name, attributes: attributes, on: executor) { child, ex in
            { r in
                ex.enqueue {
                    guard child.isPending else { return }
                    switch r {
                    case .success(let v):
                        do { child.settle(.success(try body(v))) } catch { child.settle(.failure(error)) }
                    case .failure(let e):
                        child.settle(.failure(e))
                    }
                }
            }
        }
    }

    /// JavaScript's `catch`: on rejection, `body` recovers with a promise to adopt (the chain
    /// continues fulfilled if it fulfils) or throws to pass a rejection on. A fulfilment passes
    /// through untouched.
    public func recover(
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (any Error) throws -> Promise<T>
    ) -> Promise<T> {
        derive(name: name, attributes: attributes, on: executor) { r, child, ex in
            switch r {
            case .success: child.settle(r)
            case .failure(let e):
                do { Promise<T>.adopt(child, try body(e), on: ex) } catch { child.settle(.failure(error)) }
            }
        }
    }

    /// `recover` with a plain value: the chain continues fulfilled with what `body` returns.
    @_disfavoredOverload
    public func recover(
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (any Error) throws -> T
    ) -> Promise<T> {
        derive(name: name, attributes: attributes, on: executor) { r, child, _ in
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
    public func finally<U>(
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable () throws -> Promise<U>
    ) -> Promise<T> {
        derive(name: name, attributes: attributes, on: executor) { r, child, ex in
            let inner: Promise<U>
            do { inner = try body() } catch {
                child.settle(.failure(error))
                return
            }
            let passed = inner.then(on: ex) { _ -> T in try r.get() }
            Promise<T>.adopt(child, passed, on: ex)
        }
    }

    /// `finally` with a plain side effect. It takes JavaScript's turns too: `p.finally(() => f())`
    /// settles two turns after `f` runs, as if `f` had returned an already fulfilled promise.
    @_disfavoredOverload
    public func finally(
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable () throws -> Void
    ) -> Promise<T> {
        derive(name: name, attributes: attributes, on: executor) { r, child, ex in
            do { try body() } catch {
                child.settle(.failure(error))
                return
            }
            let passed = Promise<Void>.resolve((), on: ex).then(on: ex) { _ -> T in try r.get() }
            Promise<T>.adopt(child, passed, on: ex)
        }
    }

    /// Observes the outcome without changing it (unless `body` throws, which rejects).
    public func tap(
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) throws -> Void
    ) -> Promise<T> {
        derive(name: name, attributes: attributes, on: executor) { r, child, _ in
            do {
                try body(r)
                child.settle(r)
            } catch {
                child.settle(.failure(error))
            }
        }
    }
}

/// The capability to settle one promise, handed to whoever does the work.
///
/// Only the first call that settles counts; later ones return false and change nothing (as in
/// JavaScript, where a second `resolve` is ignored).
public struct Resolver<T: Sendable>: Sendable {
    /// The promise this resolver settles.
    public let promise: Promise<T>

    init(_ promise: Promise<T>) { self.promise = promise }

    /// Fulfils with `value`. False if the promise had already settled.
    @discardableResult
    public func fulfill(_ value: T) -> Bool { promise.settle(.success(value)) }

    /// Rejects with `error`. False if the promise had already settled.
    @discardableResult
    public func reject(_ error: any Error) -> Bool { promise.settle(.failure(error)) }

    /// Settles with `result`. False if the promise had already settled.
    @discardableResult
    public func settle(_ result: Result<T, any Error>) -> Bool { promise.settle(result) }

    /// Resolves with another promise: this promise adopts it and settles as it does.
    public func adopt(_ other: Promise<T>) {
        Promise<T>.adopt(promise, other, on: promise.executor)
    }

    /// Registers work to stop when the promise is cancelled (abort a request, clear a timer,
    /// kill a process). Runs at once if the promise was already cancelled.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        promise.onCancel(handler)
    }

    /// True once the promise has settled, whatever the outcome.
    public var isSettled: Bool { !promise.isPending }
}

/// What a handler hands back: a plain value, or a promise to adopt.
///
/// JavaScript's `then` accepts both from one handler and adopts only a thenable; returning
/// `.value` settles the derived promise in the same turn, returning `.promise` costs the two
/// extra turns of adoption. Handlers that sometimes finish at once and sometimes wait (an
/// interpreter's stages) use this to keep JavaScript's exact ordering.
public enum Resolution<T: Sendable>: Sendable {
    /// Settle the derived promise with this value now.
    case value(T)
    /// Adopt this promise.
    case promise(Promise<T>)
}

extension Promise {
    /// `then` whose handler returns a value or a promise (see `Resolution`).
    public func then<U>(
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        resolving body: @escaping @Sendable (T) throws -> Resolution<U>
    ) -> Promise<U> {
        attach(name: name, attributes: attributes, on: executor) { child, ex in
            { r in
                ex.enqueue {
                    guard child.isPending else { return }
                    switch r {
                    case .success(let v):
                        do {
                            switch try body(v) {
                            case .value(let u): child.settle(.success(u))
                            case .promise(let p): Promise<U>.adopt(child, p, on: ex)
                            }
                        } catch { child.settle(.failure(error)) }
                    case .failure(let e):
                        child.settle(.failure(e))
                    }
                }
            }
        }
    }

    /// `recover` whose handler returns a value or a promise (see `Resolution`).
    public func recover(
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        resolving body: @escaping @Sendable (any Error) throws -> Resolution<T>
    ) -> Promise<T> {
        derive(name: name, attributes: attributes, on: executor) { r, child, ex in
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
        name: String? = nil, attributes: (any Sendable)? = nil, on executor: (any PromiseExecutor)? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) throws -> Resolution<U>
    ) -> Promise<U> {
        derive(name: name, attributes: attributes, on: executor) { r, child, ex in
            do {
                switch try body(r) {
                case .value(let u): child.settle(.success(u))
                case .promise(let p): Promise<U>.adopt(child, p, on: ex)
                }
            } catch { child.settle(.failure(error)) }
        }
    }
}
