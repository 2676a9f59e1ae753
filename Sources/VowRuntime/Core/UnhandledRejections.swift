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
struct TrackedLets {
    var sites: [ObjectIdentifier: (name: String, what: String, source: SourceText, span: SourceSpan, promise: Promise<Value>)] = [:]

    /// Forgets the promises that fulfilled or were handled, once there are many.
    mutating func prune() {
        guard sites.count >= 512 else { return }
        sites = sites.filter { !$0.value.promise.isHandled && !isFulfilled($0.value.promise) }
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
        get { unhandledHandler.withLock { $0 } }
        set {
            unhandledHandler.withLock { $0 = newValue }
            guard newValue != nil else {
                executor.unhandledRejectionHandler = nil
                return
            }
            executor.unhandledRejectionHandler = { [weak self] promises in
                guard let self, let handler = self.unhandledHandler.withLock({ $0 }) else { return }
                let found = promises.compactMap { self.unhandledLet($0) }
                if !found.isEmpty { handler(found) }
            }
        }
    }

    /// The report of one listed promise, unless it was cancelled or is not a `let`'s.
    private func unhandledLet(_ p: AnyPromise) -> UnhandledLet? {
        guard let site = trackedLets.sites[ObjectIdentifier(p)],
            case .failure(let e)? = site.promise.result
        else { return nil }
        let error = toVowError(e)
        if error.kind == .cancelled { return nil }
        let (line, _) = site.source.lineColumn(of: site.span.start)
        return UnhandledLet(
            name: site.name, what: site.what, statement: site.source.slice(site.span), sourceName: site.source.name, line: line,
            error: error, promise: site.promise)
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
            .compactMap { unhandledLet($0.promise) }
    }
}
