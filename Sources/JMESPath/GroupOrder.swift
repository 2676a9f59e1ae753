// The groups of `group_by` in the order their keys first come, shared with a fold's.

/// The keys of `group_by`'s groups in the order they first come, each with its group's number.
struct GroupOrder {
    private(set) var keys: [String] = []
    private var position: [String: Int] = [:]

    /// The number of `key`'s group, and whether the group is new.
    mutating func group(_ key: String) -> (number: Int, isNew: Bool) {
        if let p = position[key] { return (p, false) }
        position[key] = keys.count
        keys.append(key)
        return (keys.count - 1, true)
    }

    /// `group_by`'s error for a key that is neither a string nor null, at element `i`.
    static func keyError<V: JMESPathValue>(_ k: V, element i: Int) -> JMESPathError {
        JMESPathError(
            kind: .invalidType, message: "group_by() expression must give every element a string or null, got \(kindName(k)) for element \(i)")
    }
}
