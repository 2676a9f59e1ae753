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
        Promise<T>.adopt(promise, other, on: promise.execRef)
    }

    /// Registers work to stop when the promise is cancelled (abort a request, clear a timer,
    /// kill a process). Runs at once if the promise was already cancelled.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        promise.onCancel(handler)
    }

    /// True once the promise has settled, whatever the outcome.
    public var isSettled: Bool { !promise.isPending }
}
