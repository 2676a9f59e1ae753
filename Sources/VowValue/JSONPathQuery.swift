import JMESPath

/// Up to 64 simple paths made ready for `JSONPathScan`, once for an expression that is run on
/// many documents (`each (json | pick '{s: status, t: total}')`): each step's key as UTF-8, each
/// index, and which paths end at each depth.
public final class JSONPathQuery: Sendable {
    /// How many paths there are.
    let count: Int
    /// The number of steps of the longest path.
    let stride: Int
    /// Each path's steps, `stride` a path: a field's key as UTF-8, nil for an index step.
    let keys: [[UInt8]?]
    /// Each path's steps, `stride` a path: an index step's position, -1 for a field step.
    let indexes: [Int]
    /// For each depth up to `stride`, the paths that end there (a bit each).
    let endingAt: [UInt64]
    /// The keys of the record the paths' values make (a multiselect hash), or nil for a list.
    public let recordKeys: [String]?

    /// The query of a multiselect of simple paths: its value is a record of its keys, or a list.
    public convenience init(_ selection: JMESPathSelection) {
        self.init(paths: selection.paths, recordKeys: selection.keys)
    }

    /// The query of one simple path, made once for a `pick PATH` run on many documents
    /// (`JSONPathScan.value(atPathOf:in:textIsUTF8:)`).
    public convenience init(path: [JMESPathStep]) {
        self.init(paths: [path])
    }

    /// The query of `paths` (1 to `JMESPathSelection.maxPaths` of them, else a precondition
    /// fails), their values made into a record of `recordKeys` or, when nil, a list.
    init(paths: [[JMESPathStep]], recordKeys: [String]? = nil) {
        precondition((1...JMESPathSelection.maxPaths).contains(paths.count), "a query has 1 to 64 paths")
        let stride = paths.map(\.count).max() ?? 0
        var keys = [[UInt8]?](repeating: nil, count: paths.count * stride)
        var indexes = [Int](repeating: -1, count: paths.count * stride)
        var endingAt = [UInt64](repeating: 0, count: stride + 1)
        for (i, path) in paths.enumerated() {
            endingAt[path.count] |= 1 << UInt64(i)
            for (d, step) in path.enumerated() {
                switch step {
                case .field(let name): keys[i * stride + d] = Array(name.utf8)
                case .index(let n): indexes[i * stride + d] = n
                }
            }
        }
        self.count = paths.count
        self.stride = stride
        self.keys = keys
        self.indexes = indexes
        self.endingAt = endingAt
        self.recordKeys = recordKeys
    }
}
