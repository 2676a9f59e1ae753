import VowValue

/// Swagger 2.0 (OpenAPI 2.0), which OpenAPIKit does not read: its paths, operations and
/// parameters, the parameters' references within the document (`#/parameters/…`) followed.
enum Swagger2 {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch"]

    /// The operations of the document `tree`.
    static func description(of tree: Value, source: String) throws -> APIDescription {
        guard case .record(let root) = tree else { throw APIDescriptionError("\(source): a Swagger document is a record") }
        let title: String
        if case .record(let info)? = root["info"], let t = info["title"]?.stringValue { title = t } else { title = "" }
        guard case .record(let paths)? = root["paths"] else { throw APIDescriptionError("\(source): a Swagger document has `paths`") }
        let shared: Record
        if case .record(let p)? = root["parameters"] { shared = p } else { shared = Record() }
        func parameter(_ v: Value) -> APIParameter? {
            var v = v
            if case .record(let r) = v, let ref = r["$ref"]?.stringValue, ref.hasPrefix("#/parameters/") {
                v = shared[String(ref.dropFirst("#/parameters/".count))] ?? .null
            }
            guard case .record(let r) = v, let name = r["name"]?.stringValue, let location = r["in"]?.stringValue else { return nil }
            let type = r["type"]?.stringValue ?? (location == "body" ? "object" : nil)
            return APIParameter(name: name, location: location, required: r["required"] == .bool(true) || location == "path", type: type)
        }
        var operations: [APIOperation] = []
        for (i, path) in paths.keys.enumerated() {
            guard case .record(let item) = paths.values[i] else { continue }
            var common: [APIParameter] = []
            if case .list(let ps)? = item["parameters"] { common = ps.compactMap(parameter) }
            for (j, method) in item.keys.enumerated() where methods.contains(method.lowercased()) {
                guard case .record(let op) = item.values[j] else { continue }
                var own: [APIParameter] = []
                if case .list(let ps)? = op["parameters"] { own = ps.compactMap(parameter) }
                // An operation's parameter replaces the path's of the same name and place.
                let merged = common.filter { c in !own.contains { $0.name == c.name && $0.location == c.location } } + own
                operations.append(APIOperation(
                    method: method.uppercased(), path: path, operationId: op["operationId"]?.stringValue,
                    summary: op["summary"]?.stringValue, parameters: merged))
            }
        }
        return APIDescription(title: title, format: "2.0", operations: operations)
    }
}
