// JMESPath Community's functions on lists and objects: `group_by`, `items`, `from_items`, `zip`.

extension Builtin {
    /// `group_by`, `items`, `from_items` and `zip`.
    func applyCollection<V: JMESPathValue>(_ args: [Arg<V>], _ env: Environment) throws(JMESPathError) -> V {
        switch self {
        case .groupBy:
            // Elements by the string `&expr` gives each, groups in the order their keys first
            // appear; an element whose key is null is left out.
            let a = try array(args, 0)
            let e = try expref(args, 1)
            var groups: [(key: String, value: [V])] = []
            var order = GroupOrder()
            for i in a.indices {
                let item = a[i]
                let k = try e.evaluate(item, env)
                switch k.jmesKind {
                case .null:
                    continue
                case .string:
                    let key = k.jmesString ?? ""
                    let (p, isNew) = order.group(key)
                    if isNew { groups.append((key, [item])) } else { groups[p].value.append(item) }
                default:
                    throw GroupOrder.keyError(k, element: i)
                }
            }
            return .jmesObject(groups.map { (key: $0.key, value: V.jmesArray($0.value)) })

        case .items:
            return .jmesArray(try object(args, 0).map { .jmesArray([.jmesString($0.key), $0.value]) })

        case .fromItems:
            // Pairs `[key, value]`; a later pair with the same key replaces the value, in place.
            let what = "an array of [string, value] pairs"
            let pairs = try typed(args, 0, .array, what).jmesArray ?? []
            var out: [(key: String, value: V)] = []
            var position: [String: Int] = [:]
            for i in pairs.indices {
                let pair = pairs[i]
                guard let kv = pair.jmesArray, pair.jmesKind == .array, kv.count == 2, kv[0].jmesKind == .string,
                    let key = kv[0].jmesString
                else {
                    throw typeError(0, what, "an array with \(describe(pair)) at index \(i)")
                }
                if let p = position[key] {
                    out[p].value = kv[1]
                } else {
                    position[key] = out.count
                    out.append((key, kv[1]))
                }
            }
            return .jmesObject(out)

        case .zip:
            // The i-th elements of every list, as long as the shortest list.
            var lists: [[V]] = []
            for n in args.indices { lists.append(try array(args, n)) }
            let count = lists.map(\.count).min() ?? 0
            return .jmesArray((0..<count).map { i in .jmesArray(lists.map { $0[i] }) })

        default:
            preconditionFailure("\(rawValue)() is not a collection function")
        }
    }
}
