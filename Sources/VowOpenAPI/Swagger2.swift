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
        let definitions: Record
        if case .record(let d)? = root["definitions"] { definitions = d } else { definitions = Record() }
        // A schema with its references to `#/definitions/…` inlined, to a depth (a schema that
        // holds itself is cut there, as anything-goes).
        func inlined(_ v: Value, depth: Int = 0) -> Value {
            guard depth < 16 else { return .record(Record()) }
            switch v {
            case .record(let r):
                if let ref = r["$ref"]?.stringValue, ref.hasPrefix("#/definitions/") {
                    return inlined(definitions[String(ref.dropFirst("#/definitions/".count))] ?? .record(Record()), depth: depth + 1)
                }
                var out = Record()
                for (i, k) in r.keys.enumerated() { out[k] = inlined(r.values[i], depth: depth + 1) }
                return .record(out)
            case .list(let l): return .list(l.map { inlined($0, depth: depth + 1) })
            default: return v
            }
        }
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
                let merged = own + common.filter { c in !own.contains { $0.name == c.name && $0.location == c.location } }
                // The body's schema: the `in: body` parameter's.
                var body: Value? = nil
                for case .record(let p) in (op["parameters"]?.listValue ?? []) + (item["parameters"]?.listValue ?? [])
                where p["in"]?.stringValue == "body" {
                    if let s = p["schema"] { body = inlined(s) }
                    break
                }
                // The first 2xx response's schema.
                var response: Value? = nil
                if case .record(let rs)? = op["responses"] {
                    for (k, code) in rs.keys.enumerated() where code.hasPrefix("2") {
                        if case .record(let r) = rs.values[k], let s = r["schema"] { response = inlined(s); break }
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
