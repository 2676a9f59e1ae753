import VowValue

/// What `json` hands to the `pick PATH` right after it when it found PATH's value without
/// building the whole document (`JSONPathScan`): the value, and the expression it answers.
///
/// Only that `pick` ever sees it: the plan pairs the two stages, and `json` builds the whole
/// document instead whenever a trace or the timeline watches the promises.
struct PickedAhead: OpaqueValue {
    /// The expression of the `pick` the value is for.
    let expression: String
    /// The value at the expression's path (null when the path found nothing).
    let value: Value

    var typeName: String { value.typeName }
    var displayText: String { JSONWriter.compact(value) }
}
