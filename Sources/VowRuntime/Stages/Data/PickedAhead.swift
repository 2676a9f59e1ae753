import VowValue

/// What `json` hands to the `pick EXPR` right after it when it read only what EXPR needs
/// (`JSONPathScan`): the value at EXPR's path, or the part of the document EXPR can look at.
///
/// Only that `pick` ever sees it: the plan pairs the two stages, and `json` builds the whole
/// document instead whenever a trace or the timeline watches the promises.
struct PickedAhead: OpaqueValue {
    /// The expression of the `pick` the value is for.
    let expression: String
    /// The value at the expression's path (null when the path found nothing), or the document
    /// as far as the expression can look into it.
    let value: Value
    /// True when `value` is the answer (a path's value), false when it is the document to search.
    let isAnswer: Bool
    /// What `json` was given (text, bytes or a response), for `document`.
    let source: Value

    /// The whole document, parsed from `source`: what the `pick` got as its input, as an error
    /// of that `pick` shows it (the same input the stage shows when a trace watches and `json`
    /// builds the whole document).
    var document: Value {
        switch source {
        case .string(let s): return (try? JSON.parse(s)) ?? source
        case .bytes(let b): return (try? JSON.parse(b)) ?? source
        case .response(let r): return (try? JSON.parse(r.body)) ?? source
        default: return source
        }
    }

    var typeName: String { value.typeName }
    var displayText: String { JSONWriter.compact(value) }
}
