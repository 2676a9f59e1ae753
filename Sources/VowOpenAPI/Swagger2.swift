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
        // References: `#/parameters/…` for parameters, `#/definitions/…` in schemas.
        let refs = DocumentReferences(root: tree, depth: 16)
        func parameter(_ v: Value) -> APIParameter? {
            guard let r = refs.followed(v), let name = r["name"]?.stringValue, let location = r["in"]?.stringValue else { return nil }
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
                let merged = APIParameter.merged(own: own, path: common)
                // The body's schema: the `in: body` parameter's.
                var body: Value? = nil
                for p in ((op["parameters"]?.listValue ?? []) + (item["parameters"]?.listValue ?? [])).compactMap(refs.followed)
                where p["in"]?.stringValue == "body" {
                    if let s = p["schema"] { body = refs.inlined(s) }
                    break
                }
                // The first 2xx response's schema.
                var response: Value? = nil
                if case .record(let rs)? = op["responses"] {
                    for (k, code) in rs.keys.enumerated() where code.hasPrefix("2") {
                        if case .record(let r) = rs.values[k], let s = r["schema"] { response = refs.inlined(s); break }
                    }
                }
                operations.append(APIOperation(
                    method: method.uppercased(), path: path, operationId: op["operationId"]?.stringValue,
                    summary: op["summary"]?.stringValue, parameters: merged, body: body, response: response))
            }
        }
        return APIDescription(title: title, format: "2.0", operations: operations)
    }
}
