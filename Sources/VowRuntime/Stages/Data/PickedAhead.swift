import JMESPath
import VowValue

/// What `json` hands to the `pick EXPR` right after it: the value at EXPR's path, found without
/// building the document (`JSONPathScan`), or the document read into a tape for EXPR to search
/// (`JSONTape`), which is never built into values.
///
/// Only that `pick` ever sees it: the plan pairs the two stages, and `json` builds the whole
/// document instead whenever a trace or the timeline watches the promises.
struct PickedAhead: OpaqueValue {
    /// What `json` read.
    enum Content {
        /// The value at the expression's path (null when the path found nothing): the answer.
        case answer(Value)
        /// The document, for the expression to search.
        case tape(JSONTape)
        /// The answer of a fold over the results of an `each` (`ListFold`), which kept none of
        /// the `count` results: the value or the error of the search. With a `where` between
        /// them (`each json | where EXPR | pick AGG`), `failedScreen` is the error EXPR gave on
        /// a result, which that `where` throws.
        case folded(Result<Value, JMESPathError>, count: Int, failedScreen: (any Error)?)
    }

    /// The expression of the `pick` the content is for.
    let expression: String
    /// What `json` read for it.
    let content: Content
    /// What `json` was given (text, bytes or a response), for `document`.
    let source: Value

    /// The answer's type, or the document's, read from its tape's root (a record tracer
    /// names a large value by its type, and building the document for that took longer than
    /// reading it).
    var typeName: String {
        switch content {
        case .answer(let v): return v.typeName
        case .tape(let t): return JSONTapeValue(tape: t, result: t.root).typeName
        case .folded: return "list"
        }
    }
    var displayText: String {
        if case .folded(_, let count, _) = content { return CountedResults(count: count, folded: true).displayText }
        return JSONWriter.compact(shown)
    }

    /// The answer, or the whole document as values.
    private var shown: Value {
        switch content {
        case .answer(let v): return v
        case .tape(let t): return t.value(0)
        case .folded(_, let count, _): return .opaque(CountedResults(count: count, folded: true))
        }
    }

    /// The whole document: what the `pick` got as its input, as an error of that `pick` shows it
    /// (the same input the stage shows when a trace watches and `json` builds the whole document).
    var document: Value {
        switch content {
        case .tape(let t): return t.value(0)
        case .folded(_, let count, _): return .opaque(CountedResults(count: count, folded: true))
        case .answer:
            switch source {
            case .string(let s): return (try? JSON.parse(s)) ?? source
            case .bytes(let b): return (try? JSON.parse(b)) ?? source
            case .response(let r): return (try? JSON.parse(r.body)) ?? source
            default: return source
            }
        }
    }
}
