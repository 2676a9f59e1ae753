import VowValue

/// What `each` over a stream hands to the `len` right after it when nothing watches the
/// promises (`StageCall.keepsResults` false): how many results there are, not a list of that
/// many nulls, which grew with the stream (24 bytes an item, twice over while the list grew and
/// when it was made whole).
///
/// Only that `len` ever sees it: the plan pairs the two stages (`StagePlan.countedAhead`). It
/// shows as the list it stands for.
struct CountedResults: OpaqueValue {
    /// How many results there are.
    let count: Int

    var typeName: String { "list" }
    var displayText: String { "[" + Array(repeating: "null", count: count).joined(separator: ", ") + "]" }
}
