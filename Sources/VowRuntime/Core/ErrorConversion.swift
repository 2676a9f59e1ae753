import JMESPath
import VowPromises
import VowValue

/// Converts any error that reaches the runtime into a `VowError` of the right kind.
public func toVowError(_ error: any Error) -> VowError {
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
    case let e as JMESPathError:
        var d = Record()
        d["reason"] = .string(e.kind.rawValue)
        return VowError(.pick, e.message, details: d)
    default: return VowError(.user, String(describing: error))
    }
}
