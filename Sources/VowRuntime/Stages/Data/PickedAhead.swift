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
    }

    /// The expression of the `pick` the content is for.
    let expression: String
    /// What `json` read for it.
    let content: Content

    var typeName: String { document.typeName }
    var displayText: String { JSONWriter.compact(document) }

    /// The answer, or the whole document as values (for an error's input).
    private var document: Value {
        switch content {
        case .answer(let v): return v
        case .tape(let t): return t.value(0)
        }
    }
}
