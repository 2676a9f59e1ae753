/// The stages of one pipeline run (`PipelineRun.entries`), in order: the first kept in place,
/// the others in a list. Most runs are of one stage (an element of a list, a handler's body,
/// an item of `each`), and a list of one costs its allocation, and its freeing through the
/// element type's generic destroy, on every run.
struct RunEntries: RandomAccessCollection {
    private var head: PipelineRun.Entry?
    private var rest: [PipelineRun.Entry] = []

    /// No stages.
    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { head == nil ? 0 : rest.count + 1 }

    subscript(i: Int) -> PipelineRun.Entry {
        precondition(i >= 0 && i < endIndex, "index out of range")
        return i == 0 ? head! : rest[i - 1]
    }

    /// Adds `entry` after the others.
    mutating func append(_ entry: PipelineRun.Entry) {
        if head == nil { head = entry } else { rest.append(entry) }
    }

    /// Makes room for `n` stages in all, so that appending them does not grow the list.
    mutating func reserveCapacity(_ n: Int) {
        if n > 1 { rest.reserveCapacity(n - 1) }
    }
}
