import Dispatch
import VowPromises

/// Many values, arriving: an ordered, lazy, asynchronous sequence (the lines of a file or of a
/// process's output, the events of a response) that flows through a pipeline as one value.
///
/// A producer offers items from any thread; at most `capacity` wait in the stream, and a producer
/// that offers more is told to go on only when the consumer has taken some (backpressure: a slow
/// consumer slows the producer, nothing is buffered without bound). The consumer takes items one
/// at a time with `next()` on the session executor. `cancel` stops the source (closes the file,
/// ends the process, aborts the request) and is what a consumer that stops early (`take`, a
/// rejection, Ctrl-C, the end of the statement) calls. In JavaScript a stream is an async
/// iterator, consumed with `for await` (docs/streams.md).
///
/// Sendable: all that changes is in `state`, touched only under its lock; `label` and `capacity`
/// are set in init and never change.
public final class ValueStream: OpaqueValue, @unchecked Sendable {
    /// `stream`.
    public var typeName: String { "stream" }
    /// `<stream lines of FILE>`.
    public var displayText: String { "<stream \(label)>" }

    /// What the stream reads, for messages (`lines of app.log`, `events of GET URL`).
    public let label: String
    /// The most items that wait for the consumer.
    public let capacity: Int

    /// A consumer waiting for items: one (`next`), or up to a number of them (`next(upTo:)`).
    private enum Waiting {
        case one(Resolver<Value?>)
        case some(Resolver<[Value]>, Int)

        /// How many of the items offered the waiting consumer takes.
        var most: Int {
            switch self {
            case .one: return 1
            case .some(_, let most): return most
            }
        }

        /// Gives the waiting consumer the first of `items` it asked for.
        func hand(_ items: ArraySlice<Value>) {
            switch self {
            case .one(let r): r.fulfill(items.first)
            case .some(let r, let most): r.fulfill(Array(items.prefix(most)))
            }
        }

        /// Tells the waiting consumer the stream has ended: normally, or with `error`.
        func end(_ error: (any Error)?) {
            switch (self, error) {
            case (.one(let r), nil): r.fulfill(nil)
            case (.one(let r), let e?): r.reject(e)
            case (.some(let r, _), nil): r.fulfill([])
            case (.some(let r, _), let e?): r.reject(e)
            }
        }
    }

    private struct State {
        var items: [Value] = []
        var head = 0
        var end: Result<Void, any Error>? = nil
        var cancelled = false
        var waiting: Waiting? = nil
        var resume: (@Sendable () -> Void)? = nil
        var stop: (@Sendable () -> Void)? = nil
        var count: Int { items.count - head }
    }
    private let state = Locked(State())

    /// A stream of what `label` names, holding at most `capacity` items unconsumed.
    public init(label: String, capacity: Int = 256) {
        self.label = label
        self.capacity = capacity
    }

    // MARK: the producer's side (any thread)

    /// What stops the source; run once, on cancellation.
    public func onCancel(_ stop: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.cancelled { return true }
            s.stop = stop
            return false
        }
        if now { stop() }
    }

    /// Adds `items`; `resume` is called when the producer may offer more (at once while there is
    /// room; later, when the consumer has taken enough). Returns false once the stream is
    /// cancelled or ended, and the producer should stop.
    @discardableResult
    public func offer(_ items: [Value], resume: @escaping @Sendable () -> Void) -> Bool {
        var handOver: Waiting? = nil
        let (open, later) = state.withLock { s -> (Bool, Bool) in
            guard !s.cancelled, s.end == nil else { return (false, false) }
            var rest = items[...]
            if let w = s.waiting, !rest.isEmpty {
                // The consumer that waits takes its items first (outside the lock, below); the
                // rest wait in the stream.
                s.waiting = nil
                handOver = w
                rest = rest.dropFirst(w.most)
            }
            s.items.append(contentsOf: rest)
            if s.count >= capacity {
                s.resume = resume
                return (true, true)
            }
            return (true, false)
        }
        handOver?.hand(items[...])
        if open && !later { resume() }
        return open
    }

    /// Adds `items` for a producer on the executor (a stage that makes one stream from another):
    /// the promise fulfils when it may offer more (at once while there is room); once the stream
    /// is cancelled or ended, `stop` runs (to stop what feeds the producer) and it fulfils too.
    public func offer(_ items: [Value], on executor: any PromiseExecutor, otherwise stop: @escaping @Sendable () -> Void) -> Promise<Void> {
        let (room, resolver) = Promise<Void>.pending(on: executor)
        if !offer(items, resume: { resolver.fulfill(()) }) {
            stop()
            resolver.fulfill(())
        }
        return room
    }

    /// Adds `items`, waiting (blocking this thread) while the stream is full. For producers with a
    /// thread of their own (files, processes). False once the stream is cancelled or ended.
    public func push(_ items: [Value]) -> Bool {
        let room = DispatchSemaphore(value: 0)
        guard offer(items, resume: { room.signal() }) else { return false }
        room.wait()
        return state.withLock { !$0.cancelled }
    }

    /// Ends the stream: normally, or with the error that ends it (the consumer sees it after the
    /// items already offered).
    public func finish(_ error: (any Error)? = nil) {
        let w = state.withLock { s -> Waiting? in
            guard s.end == nil, !s.cancelled else { return nil }
            s.end = error.map { .failure($0) } ?? .success(())
            defer { s.waiting = nil }
            return s.waiting
        }
        w?.end(error)
    }

    /// True once the consumer has stopped the stream.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    // MARK: the consumer's side (the session executor)

    /// The next item, or nil at the end; rejects with the error that ended the stream.
    public func next(on executor: any PromiseExecutor) -> Promise<Value?> {
        let (promise, resolver) = Promise<Value?>.pending(name: "next", on: executor)
        switch take(1, waiting: .one(resolver)) {
        case .success(let items)?: resolver.fulfill(items.first)
        case .failure(let e)?: resolver.reject(e)
        case nil: break
        }
        return promise
    }

    /// The next items, as many as wait in the stream up to `most` (at least one, once one has
    /// arrived), or none at the end; rejects with the error that ended the stream, after the
    /// items before it. For a consumer that handles items in batches (`each` over a stream): one
    /// promise and one turn for many items.
    public func next(upTo most: Int, on executor: any PromiseExecutor) -> Promise<[Value]> {
        let (promise, resolver) = Promise<[Value]>.pending(name: "next", on: executor)
        switch take(max(most, 1), waiting: .some(resolver, max(most, 1))) {
        case .success(let items)?: resolver.fulfill(items)
        case .failure(let e)?: resolver.reject(e)
        case nil: break
        }
        return promise
    }

    /// Takes up to `most` items now (none at the end, or once cancelled), or the error that ended
    /// the stream; or, when none has arrived yet, leaves `waiting` to be given them, and returns nil.
    private func take(_ most: Int, waiting: Waiting) -> Result<[Value], any Error>? {
        var resume: (@Sendable () -> Void)? = nil
        let outcome = state.withLock { s -> Result<[Value], any Error>? in
            if s.count > 0 {
                let n = min(most, s.count)
                let taken = Array(s.items[s.head..<(s.head + n)])
                s.head += n
                if s.head > 1024 && s.head * 2 > s.items.count {
                    s.items.removeFirst(s.head)
                    s.head = 0
                }
                if s.count < capacity / 2 || s.count == 0 {
                    resume = s.resume
                    s.resume = nil
                }
                return .success(taken)
            }
            if s.cancelled { return .success([]) }
            switch s.end {
            case .success?: return .success([])
            case .failure(let e)?: return .failure(e)
            case nil:
                s.waiting = waiting
                resume = s.resume
                s.resume = nil
                return nil
            }
        }
        resume?()
        return outcome
    }

    /// Stops the stream: the source is stopped, what waits is dropped, `next` gives nil.
    public func cancel() {
        halt(with: nil)
    }

    /// Ends the stream with `error` before its source has ended it (`timeout`): the source is
    /// stopped, the items not yet taken are dropped, and the consumer gets `error`. Nothing
    /// changes once the source has ended the stream or the consumer has stopped it.
    public func stop(with error: any Error) {
        halt(with: error)
    }

    /// Stops the source and drops the items not yet taken; what waits gets nil (a cancellation,
    /// `error` nil) or `error`.
    private func halt(with error: (any Error)?) {
        let taken = state.withLock { s -> (stop: (@Sendable () -> Void)?, waiting: Waiting?, resume: (@Sendable () -> Void)?)? in
            if s.cancelled || (error != nil && s.end != nil) { return nil }
            if let error { s.end = .failure(error) } else { s.cancelled = true }
            s.items = []
            s.head = 0
            defer {
                s.stop = nil
                s.waiting = nil
                s.resume = nil
            }
            return (s.stop, s.waiting, s.resume)
        }
        guard let taken else { return }
        taken.stop?()
        taken.resume?()
        taken.waiting?.end(error)
    }

    /// Calls `body` with each item as it arrives, one after the other (the next is taken when the
    /// promise `body` returns has settled); fulfils when the stream ends. A rejection of `body`
    /// cancels the stream and rejects. Items are taken as many as wait, and while `body` returns
    /// promises already fulfilled (`len`, `take`, printing) they are handled in the same turn,
    /// without a promise and a turn for each.
    public func forEach(on executor: any PromiseExecutor, _ body: @escaping @Sendable (Value) -> Promise<Void>) -> Promise<Void> {
        let (promise, resolver) = Promise<Void>.pending(name: "for await", on: executor)
        resolver.onCancel { self.cancel() }
        @Sendable func failed(_ e: any Error) {
            self.cancel()
            resolver.reject(e)
        }
        @Sendable func handle(_ items: ArraySlice<Value>) {
            var rest = items
            while let v = rest.popFirst() {
                // Stopped by `body` (`take` has its items) or by the consumer: as `next` would
                // then give nil.
                if resolver.isSettled { return }
                if isCancelled {
                    resolver.fulfill(())
                    return
                }
                let done = body(v)
                switch done.result {
                case .success?: continue
                case .failure(let e)?:
                    done.markHandled()
                    return failed(e)
                case nil:
                    let left = rest
                    done.whenSettled(on: executor) { d in
                        if case .failure(let e) = d {
                            failed(e)
                        } else if !resolver.isSettled {
                            handle(left)
                        }
                    }
                    return
                }
            }
            step()
        }
        @Sendable func step() {
            next(upTo: capacity, on: executor).whenSettled(on: executor) { r in
                switch r {
                case .success(let items) where !items.isEmpty: handle(items[...])
                case .success: resolver.fulfill(())
                case .failure(let e): resolver.reject(e)
                }
            }
        }
        step()
        return promise
    }

    /// Every item, as a list, once the stream ends ("a stream that ends fulfils what waits on it
    /// with a list").
    public func collect(on executor: any PromiseExecutor) -> Promise<Value> {
        let items = Locked([Value]())
        return forEach(on: executor) { v in
            items.withLock { $0.append(v) }
            return Promise.resolve((), on: executor)
        }.then(on: executor) { _ in Value.list(items.withLock { $0 }) }
    }
}

extension Value {
    /// The stream inside an opaque value, or nil.
    public var stream: ValueStream? {
        if case .opaque(let o) = self { return o as? ValueStream }
        return nil
    }
}
