import VowValue

/// OpenAPI 3.0 and 3.1 read straight from the document's tree (vow's own JSON parse, or Yams'
/// YAML): the operations, their parameters (a path's with each operation's), and the JSON
/// schemas of their request bodies and successful responses, references within the document
/// (`#/components/…`) followed. It reads what `APIDescription` keeps and checks the shape of
/// what it reads; the whole document's validity is OpenAPIKit's to check (`APIDescription`
/// uses this reader for documents too large for it to read at a usable speed, and the tests
/// check that the two agree).
enum OpenAPI3Tree {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    static func description(of tree: Value, format: String, source: String) throws -> APIDescription {
        guard case .record(let root) = tree else { throw APIDescriptionError("\(source): an OpenAPI document is a record") }
        guard case .record(let info)? = root["info"], let title = info["title"]?.stringValue else {
            throw APIDescriptionError("\(source) is not a valid OpenAPI \(format) document: `info.title` must be a string")
        }
        let paths: Record
        switch root["paths"] {
        case .record(let p)?: paths = p
        case nil: paths = Record()
        default: throw APIDescriptionError("\(source) is not a valid OpenAPI \(format) document: `paths` must be a record")
        }
        let refs = DocumentReferences(root: tree, depth: 24)
        func followed(_ v: Value?) -> Record? { refs.followed(v) }
        func parameter(_ v: Value) -> APIParameter? {
            guard let r = followed(v), let name = r["name"]?.stringValue, let location = r["in"]?.stringValue else { return nil }
            let schema = followed(r["schema"])
            let type = schema?["type"]?.stringValue
            return APIParameter(name: name, location: location, required: r["required"] == .bool(true) || location == "path", type: type)
        }
        func jsonSchema(_ content: Value?) -> Value? {
            guard case .record(let c)? = content else { return nil }
            let key = c.keys.first { $0 == "application/json" } ?? c.keys.first { $0.contains("json") }
            guard let key, let media = followed(c[key]), let schema = media["schema"] else { return nil }
            return refs.inlined(schema)
        }
        var operations: [APIOperation] = []
        for (i, path) in paths.keys.enumerated() {
            guard let item = followed(paths.values[i]) else { continue }
            let common = (item["parameters"]?.listValue ?? []).compactMap(parameter)
            // In OpenAPIKit's order of the methods, whatever the document's.
            for method in methods {
                guard let entry = item[method] else { continue }
                guard case .record(let op) = entry else {
                    throw APIDescriptionError("\(source) is not a valid OpenAPI \(format) document: \(method) \(path) must be a record")
                }
                let own = (op["parameters"]?.listValue ?? []).compactMap(parameter)
                let merged = APIParameter.merged(own: own, path: common)
                var response: Value? = nil
                if let responses = followed(op["responses"]) {
                    for (k, code) in responses.keys.enumerated() where code.hasPrefix("2") || code == "2XX" {
                        if let schema = jsonSchema(followed(responses.values[k])?["content"]) { response = schema; break }
                    }
                }
                operations.append(APIOperation(
                    method: method.uppercased(), path: path, operationId: op["operationId"]?.stringValue,
                    summary: op["summary"]?.stringValue ?? item["summary"]?.stringValue, parameters: merged,
                    body: jsonSchema(followed(op["requestBody"])?["content"]), response: response))
            }
        }
        return APIDescription(title: title, format: format, operations: operations)
    }
}
