import JMESPath
import VowPromises
import VowValue

/// Converts any error that reaches the runtime into a `VowError` of the right kind.
public func toVowError(_ error: any Error) -> VowError {
    var converted = converting(error)
    if !(error is VowError) { converted.underlying = error }
    return converted
}

/// True when `a` and `b` are one rejection passed down a chain, not two that read alike: vow's
/// errors by their identity; the promise core's own (a cancellation, a timer's expiry) are plain
/// values with no identity, so for them alike is the same.
func sameRejection(_ a: any Error, _ b: any Error) -> Bool {
    switch (a, b) {
    case (let x as VowError, let y as VowError): return x.identity == y.identity
    case (is VowError, _), (_, is VowError): return false
    default: return String(describing: a) == String(describing: b)
    }
}

private func converting(_ error: any Error) -> VowError {
    switch error {
    case let e as VowError: return e
    case let e as PromiseCancelledError: return VowError(.cancelled, e.reason)
    case let e as PromiseTimeoutError: return VowError(.timeout, e.description)
    case let e as AggregateError:
        let inner = e.errors.map { toVowError($0) }
        var d = Record()
        d["errors"] = .list(inner.map { .record($0.record) })
        let msg = inner.isEmpty ? "all promises rejected (there were none)"
            : "all \(inner.count) promises rejected: " + inner.map(\.message).joined(separator: "; ")
        return VowError(.aggregate, msg, details: d)
    case is PromiseCycleError: return VowError(.type, String(describing: error))
    case let e as JSONError: return VowError(.json, e.description)
    case let e as NothingToWorkOn: return VowError(.type, e.message)
    case let e as JMESPathError:
        var d = Record()
        d["reason"] = .string(e.kind.rawValue)
        return VowError(.pick, e.message, details: d)
    default: return VowError(.user, String(describing: error))
    }
}
