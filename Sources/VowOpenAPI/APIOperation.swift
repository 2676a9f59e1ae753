import VowValue

/// One operation of an API, as its description gives it: `GET /buckets/{id}`, its operation id,
/// summary and parameters.
public struct APIOperation: Sendable, Equatable {
    /// The method, upper case (`GET`).
    public let method: String
    /// The path template, as written (`/buckets/{id}`).
    public let path: String
    /// The operation id, when the description names one.
    public let operationId: String?
    /// A line on what it does.
    public let summary: String?
    /// Its parameters: those of its path and its own.
    public let parameters: [APIParameter]
    /// The JSON Schema of its JSON request body, references within the document followed, or
    /// nil when it takes none (or the description gives no JSON schema for it).
    public let body: Value?
    /// The JSON Schema of its successful JSON response (the first 2xx the description gives a
    /// schema for), references followed; nil when there is none.
    public let response: Value?

    /// An operation.
    public init(
        method: String, path: String, operationId: String?, summary: String?, parameters: [APIParameter], body: Value? = nil,
        response: Value? = nil
    ) {
        self.method = method
        self.path = path
        self.operationId = operationId
        self.summary = summary
        // One order whichever reader read them: the path's parameters as the path names them,
        // then the others as given.
        let template = path.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) }
        let inPath = parameters.filter { $0.location == "path" }
            .sorted { (template.firstIndex(of: $0.name) ?? .max) < (template.firstIndex(of: $1.name) ?? .max) }
        self.parameters = inPath + parameters.filter { $0.location != "path" }
        self.body = body.map(Self.rules)
        self.response = response.map(Self.rules)
    }

    /// A schema with only what a check reads: no descriptions, titles or examples (most of a
    /// large description's bytes), so that the API's file stays small and quick to read.
    static func rules(_ schema: Value) -> Value {
        switch schema {
        case .record(let r):
            var out = Record()
            for (i, k) in r.keys.enumerated() where !["description", "title", "example", "examples", "externalDocs", "xml"].contains(k) && !k.hasPrefix("x-") {
                // A property may be named `description`: the keys of `properties` are names, not rules.
                out[k] = k == "properties" ? Self.properties(r.values[i]) : rules(r.values[i])
            }
            return .record(out)
        case .list(let l): return .list(l.map(rules))
        default: return schema
        }
    }

    /// `properties`: each named property's schema, its rules kept.
    static func properties(_ v: Value) -> Value {
        guard case .record(let r) = v else { return v }
        var out = Record()
        for (i, k) in r.keys.enumerated() { out[k] = rules(r.values[i]) }
        return .record(out)
    }

    /// As a row of `api show`: method, path, operation id and summary.
    public var row: Value {
        .record(["method": .string(method), "path": .string(path), "operationId": operationId.map(Value.string) ?? .null,
                 "summary": summary.map(Value.string) ?? .null])
    }

    /// As it is kept in the API's file.
    public var stored: Value {
        var r: Record = ["method": .string(method), "path": .string(path), "operationId": operationId.map(Value.string) ?? .null,
                         "summary": summary.map(Value.string) ?? .null, "parameters": .list(parameters.map(\.stored))]
        if let body { r["body"] = body }
        if let response { r["response"] = response }
        return .record(r)
    }

    /// Read back from `stored`; nil for a value that is not one.
    public init?(stored v: Value) {
        guard case .record(let r) = v, let method = r["method"]?.stringValue, let path = r["path"]?.stringValue else { return nil }
        var parameters: [APIParameter] = []
        if case .list(let ps)? = r["parameters"] { parameters = ps.compactMap(APIParameter.init(stored:)) }
        self.init(
            method: method, path: path, operationId: r["operationId"]?.stringValue, summary: r["summary"]?.stringValue, parameters: parameters,
            body: r["body"], response: r["response"])
    }
}

/// A parameter of an operation: its name, where it goes and whether it must be given.
public struct APIParameter: Sendable, Equatable {
    /// Its name.
    public let name: String
    /// Where it goes: `path`, `query`, `header` or `cookie`.
    public let location: String
    /// True when the operation needs it.
    public let required: Bool
    /// Its JSON type (`string`, `integer`…), when the description gives one.
    public let type: String?

    /// A parameter.
    public init(name: String, location: String, required: Bool, type: String?) {
        self.name = name
        self.location = location
        self.required = required
        self.type = type
    }

    /// An operation's parameters with its path's: the operation's own replace the path's of the
    /// same name and place.
    static func merged(own: [APIParameter], path: [APIParameter]) -> [APIParameter] {
        own + path.filter { p in !own.contains { $0.name == p.name && $0.location == p.location } }
    }

    /// As it is kept in the API's file.
    var stored: Value {
        .record(["name": .string(name), "in": .string(location), "required": .bool(required), "type": type.map(Value.string) ?? .null])
    }

    /// Read back from `stored`; nil for a value that is not one.
    init?(stored v: Value) {
        guard case .record(let r) = v, let name = r["name"]?.stringValue, let location = r["in"]?.stringValue else { return nil }
        self.init(name: name, location: location, required: r["required"] == .bool(true), type: r["type"]?.stringValue)
    }
}
