// A multiselect of simple paths: what a host can answer from a document without building it.

/// An expression that is a multiselect of simple paths: `{s: status, t: total}` or
/// `[id, customer.name]`, each member a chain of object fields and non-negative list indexes.
///
/// A host that finds the value at each path (without building the whole document) makes the
/// expression's value from them: a record of `keys` (in order) for a multiselect hash, a list
/// for a multiselect list. On any input, null included, the value is that record or list, each
/// path that finds nothing giving null, as the search gives.
public struct JMESPathSelection: Sendable, Equatable {
    /// The keys of a multiselect hash, in order (no key twice), or nil for a multiselect list.
    public let keys: [String]?
    /// The members' paths, in order.
    public let paths: [[JMESPathStep]]

    /// The most members a selection has: a host tracks them in one 64-bit mask.
    public static let maxPaths = 64

    /// The selection `node` is, or nil: anything but a multiselect of 1 to `maxPaths` simple
    /// paths (a hash with a key written twice, whose later value would replace the first in its
    /// place, is left to the search).
    static func of(_ node: Node) -> JMESPathSelection? {
        let keys: [String]?
        let members: [Node]
        switch node {
        case .multiSelectList(let items):
            (keys, members) = (nil, items)
        case .multiSelectHash(let pairs):
            guard Set(pairs.map(\.key)).count == pairs.count else { return nil }
            (keys, members) = (pairs.map(\.key), pairs.map(\.value))
        default:
            return nil
        }
        guard (1...maxPaths).contains(members.count) else { return nil }
        var paths: [[JMESPathStep]] = []
        for member in members {
            guard let path = JMESPathStep.path(of: member) else { return nil }
            paths.append(path)
        }
        return JMESPathSelection(keys: keys, paths: paths)
    }
}
