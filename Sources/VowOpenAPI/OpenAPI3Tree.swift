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
        // `#/a/b/c` in the document, `~1` and `~0` read as JSON Pointer has them.
        func resolve(_ ref: String) -> Value? {
            guard ref.hasPrefix("#/") else { return nil }
            var v: Value = tree
            for part in ref.dropFirst(2).split(separator: "/") {
                let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                guard case .record(let r) = v, let next = r[key] else { return nil }
                v = next
            }
            return v
        }
        // A value with its `$ref`s followed, to a depth (a schema that holds itself is cut
        // there, as anything-goes).
        func inlined(_ v: Value, depth: Int = 0) -> Value {
            guard depth < 24 else { return .record(Record()) }
            switch v {
            case .record(let r):
                if let ref = r["$ref"]?.stringValue {
                    return inlined(resolve(ref) ?? .record(Record()), depth: depth + 1)
                }
                var out = Record()
                for (i, k) in r.keys.enumerated() { out[k] = inlined(r.values[i], depth: depth + 1) }
                return .record(out)
            case .list(let l): return .list(l.map { inlined($0, depth: depth + 1) })
            default: return v
            }
        }
        func followed(_ v: Value?) -> Record? {
            guard var v else { return nil }
            for _ in 0..<8 {
                guard case .record(let r) = v, let ref = r["$ref"]?.stringValue, let next = resolve(ref) else { break }
                v = next
            }
            if case .record(let r) = v { return r }
            return nil
        }
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
            return inlined(schema)
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
                let merged = own + common.filter { c in !own.contains { $0.name == c.name && $0.location == c.location } }
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
