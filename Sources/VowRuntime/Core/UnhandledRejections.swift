import VowPromises
import VowSyntax
import VowValue

/// A `let` whose promise rejected while nothing waited on it (no handler was attached and no
/// `$name` had been read by the time the session's executor had run every job that was ready:
/// node's unhandled rejection, checked as node checks it), or a statement of `do` that rejected.
public struct UnhandledLet: Sendable {
    /// The name the promise was bound to first; empty for a statement of `do`.
    public let name: String
    /// What the promise is, for a report: "`let p`", "statement 1 of `do`".
    public let what: String
    /// The `let` statement, as written.
    public let statement: String
    /// The program it is in (`<command>`, a file name, `<repl>`).
    public let sourceName: String
    /// Its line, from 1.
    public let line: Int
    /// Its error.
    public let error: VowError
    /// The bound promise.
    public let promise: Promise<Value>
}

/// The `let` promises the session tracks; on the executor.
///
/// A class of its own, which the executor's handler of unhandled rejections holds, rather than
/// the session: a weak reference to the session would give it a side table, and every retain of
/// the session (one or more a stage) would then take the slow path.
///
/// Sendable: `sites` is touched only on the session's executor (`track`, the handler, the
/// reports at the end of a script, all run there); `handler` is behind its lock.
final class TrackedLets: @unchecked Sendable {
    var sites: [ObjectIdentifier: (name: String, what: String, source: SourceText, span: SourceSpan, promise: Promise<Value>)] = [:]
    /// The session's `onUnhandledRejection`.
    let handler = Locked<(@Sendable ([UnhandledLet]) -> Void)?>(nil)

    /// Forgets the promises that fulfilled or were handled, once there are many.
    func prune() {
        guard sites.count >= 512 else { return }
        sites = sites.filter { !$0.value.promise.isHandled && !isFulfilled($0.value.promise) }
    }

    /// The report of one listed promise, unless it was cancelled or is not a `let`'s.
    func unhandledLet(_ p: AnyPromise) -> UnhandledLet? {
        guard let site = sites[ObjectIdentifier(p)],
            case .failure(let e)? = site.promise.result
        else { return nil }
        let error = toVowError(e)
        if error.kind == .cancelled { return nil }
        let (line, _) = site.source.lineColumn(of: site.span.start)
        return UnhandledLet(
            name: site.name, what: site.what, statement: site.source.slice(site.span), sourceName: site.source.name, line: line,
            error: error, promise: site.promise)
    }

    private func isFulfilled(_ p: Promise<Value>) -> Bool {
        if case .success? = p.result { return true }
        return false
    }
}

extension Session {
    /// Tracks the promise a `let` bound: a rejection nothing waits on is reported through
    /// `onUnhandledRejection`. On the executor.
    func track(`let` name: String, _ promise: Promise<Value>, source: SourceText, span: SourceSpan) {
        track(promise, what: "`let \(name)`", name: name, source: source, span: span)
    }

    /// Tracks a promise that nothing waits for (a statement of `do`, `what` naming it); on the
    /// executor.
    func track(_ promise: Promise<Value>, what: String, name: String = "", source: SourceText, span: SourceSpan) {
        let key = ObjectIdentifier(promise)
        guard trackedLets.sites[key] == nil else { return }
        trackedLets.prune()
        trackedLets.sites[key] = (name, what, source, span, promise)
        promise.trackUnhandledRejection()
    }

    /// Told, on the executor, of the `let` promises that rejected (not cancelled) and that nothing
    /// waited on once every job that was ready had run. Nil: they are not looked for.
    public var onUnhandledRejection: (@Sendable ([UnhandledLet]) -> Void)? {
        get { trackedLets.handler.withLock { $0 } }
        set {
            trackedLets.handler.withLock { $0 = newValue }
            guard newValue != nil else {
                executor.unhandledRejectionHandler = nil
                return
            }
            let tracked = trackedLets
            executor.unhandledRejectionHandler = { promises in
                guard let handler = tracked.handler.withLock({ $0 }) else { return }
                let found = promises.compactMap { tracked.unhandledLet($0) }
                if !found.isEmpty { handler(found) }
            }
        }
    }

    /// Stops tracking a `let` promise once its rejection has been reported.
    public func forgetUnhandled(_ u: UnhandledLet) {
        trackedLets.sites[ObjectIdentifier(u.promise)] = nil
    }

    /// The `let` promises tracked that have rejected (not cancelled) and that nothing has waited
    /// on yet: what is left unhandled when a script ends. On the executor.
    public func unhandledLets() -> [UnhandledLet] {
        trackedLets.sites.values
            .filter { !$0.promise.isHandled && !$0.promise.isPending }
            .sorted { $0.span.start < $1.span.start }
            .compactMap { trackedLets.unhandledLet($0.promise) }
    }
}
