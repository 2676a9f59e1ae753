import VowValue

/// What `each` over a stream hands to the `len` right after it when nothing watches the
/// promises (`StageCall.keepsResults` false): how many results there are, not a list of that
/// many nulls, which grew with the stream (24 bytes an item, twice over while the list grew and
/// when it was made whole).
///
/// Only that `len` ever sees it: the plan pairs the two stages (`StagePlan.countedAhead`). It
/// shows as what it is (in an error's input, when `where` fails on an item): a count of results
/// not kept.
///
/// `each json | where EXPR | len` hands it to `where`: `count` the records `each` found EXPR
/// holds for, and `unfiltered` the results of the items that went the ordinary way, in order,
/// for `where` to filter as it filters a list; `where` hands `len` the sum, `unfiltered` empty.
struct CountedResults: OpaqueValue {
    /// How many results there are (kept by the filter, not counting `unfiltered`).
    let count: Int
    /// Results `where` has still to filter (empty for `len`).
    var unfiltered: [Value] = []
    /// The results went into the answer of the `pick` after `each` as they came (`ListFold`):
    /// what that `pick` shows as its input.
    var folded = false

    var typeName: String { "list" }
    var displayText: String {
        "<\(count + unfiltered.count) results, \(folded ? "folded into pick's answer" : "counted") rather than kept>"
    }
}
