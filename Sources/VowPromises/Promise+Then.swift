/// Chaining, the `then` family: the handlers a caller attaches (`then`, `recover`, `finally`,
/// `tap`, `whenSettled`) and the derived promises they make.
extension Promise {
    /// Calls `body` with the outcome on `executor` once settled. Derives no promise and does not
    /// count as a dependent for cancellation. `bookkeeping` marks an observer that is the
    /// runtime's own, not the program's (its job is reported with `PromiseJob.isOwn`).
    public final func whenSettled(
        on executor: (any PromiseExecutor)? = nil,
        bookkeeping: Bool = false,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let ex = executor.map(ExecutorRef.init) ?? execRef
        let id = observedID
        if id != 0 { PromiseObservation.emit(.handlerAttached(id: id, child: 0)) }
        addReaction(ObserverJob(source: self, execRef: ex, isOwn: bookkeeping, body, step: { $0.react() }), dependent: false)
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

    /// The executor a handler runs on: `executor` when one is named, else this promise's.
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

/// Chaining with handlers that hand back a `Resolution`: a value now, or a promise to adopt.
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
