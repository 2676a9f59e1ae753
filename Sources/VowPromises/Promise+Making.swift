/// Making promises: the internal ones that wait on others (a combinator's result), and the
/// public ways to start a chain.
extension Promise {
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
}
