import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import VowValue
import Yams

/// What an API's description says of it: its title and operations, read from an OpenAPI 3.0 or
/// 3.1 document (by OpenAPIKit) or a Swagger 2.0 one (`Swagger2`), in JSON or YAML (by Yams).
public struct APIDescription: Sendable, Equatable {
    /// The API's title (`info.title`).
    public let title: String
    /// The version of the description's format (`3.1.0`, `2.0`).
    public let format: String
    /// The operations, in the order of the paths in the document.
    public let operations: [APIOperation]

    /// A description.
    public init(title: String, format: String, operations: [APIOperation]) {
        self.title = title
        self.format = format
        self.operations = operations
    }

    /// Reads a description from the bytes of its document; the error names what was wrong.
    /// `treeFrom` is the size from which an OpenAPI 3 document is read from its tree
    /// (`largeDocument`; the tests set it to read a document both ways).
    public static func read(_ bytes: [UInt8], source: String, treeFrom: Int = largeDocument) throws -> APIDescription {
        let data = Data(bytes)
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let isJSON = first == UInt8(ascii: "{")
        // The version first, with nothing else read: it says which reader to use.
        struct Versions: Decodable { let openapi: String?; let swagger: String? }
        let versions: Versions
        do {
            versions = isJSON ? try JSONDecoder().decode(Versions.self, from: data) : try YAMLDecoder().decode(Versions.self, from: data)
        } catch {
            throw APIDescriptionError("\(source) is not \(isJSON ? "JSON" : "YAML") of an API description: \(Self.reason(error))")
        }
        func decode<D: Decodable>(_ type: D.Type) throws -> D {
            let decoded: Result<D, any Error> = isJSON
                ? Result { try JSONDecoder().decode(type, from: data) } : Result { try YAMLDecoder().decode(type, from: data) }
            switch decoded {
            case .success(let d): return d
            case .failure(let error):
                throw APIDescriptionError("\(source) is not a valid OpenAPI \(versions.openapi ?? "") document: \(Self.reason(error))")
            }
        }
        if let v = versions.openapi {
            guard v.hasPrefix("3.0") || v.hasPrefix("3.1") || v.hasPrefix("3.2") else {
                throw APIDescriptionError("\(source) is OpenAPI \(v): vow reads 3.0, 3.1 and Swagger 2.0")
            }
            // OpenAPIKit reads a document of 1 MB in about 1.7 s (the decoder's bookkeeping of
            // where it is): larger ones are read from the tree (`OpenAPI3Tree`), which keeps the
            // same operations (the tests check), in a fraction of a second.
            if bytes.count >= treeFrom {
                return try OpenAPI3Tree.description(of: try Self.tree(bytes, isJSON: isJSON, source: source), format: v, source: source)
            }
            let document: OpenAPIKit.OpenAPI.Document
            if v.hasPrefix("3.0") {
                document = try decode(OpenAPIKit30.OpenAPI.Document.self).convert(to: .v3_1_1)
            } else if v.hasPrefix("3.1") || v.hasPrefix("3.2") {
                document = try decode(OpenAPIKit.OpenAPI.Document.self)
            } else {
                throw APIDescriptionError("\(source) is OpenAPI \(v): vow reads 3.0, 3.1 and Swagger 2.0")
            }
            // Foundation's JSON decoder does not keep the order of a record's keys: the paths'
            // order is read from the text.
            var order: [String]? = nil
            if isJSON, case .record(let root)? = try? JSON.parse(bytes), case .record(let paths)? = root["paths"] { order = paths.keys }
            return try Self.description(of: document, format: v, source: source, pathOrder: order)
        }
        if let v = versions.swagger {
            guard v.hasPrefix("2.") else { throw APIDescriptionError("\(source) is Swagger \(v): vow reads Swagger 2.0") }
            return try Swagger2.description(of: try Self.tree(bytes, isJSON: isJSON, source: source), source: source)
        }
        throw APIDescriptionError("\(source) names no version: an OpenAPI document has `openapi: 3.x`, a Swagger one `swagger: \"2.0\"`")
    }

    /// The size from which an OpenAPI 3 document is read from its tree rather than by OpenAPIKit.
    public static let largeDocument = 1 << 20

    /// The document's tree: vow's JSON parse, or Yams' YAML.
    static func tree(_ bytes: [UInt8], isJSON: Bool, source: String) throws -> Value {
        if isJSON {
            do { return try JSON.parse(bytes) } catch { throw APIDescriptionError("\(source) is not JSON: \(error)") }
        }
        do { return Self.value(of: try Yams.load(yaml: String(decoding: bytes, as: UTF8.self))) } catch {
            throw APIDescriptionError("\(source) is not YAML: \(Self.reason(error))")
        }
    }

    /// The operations of an OpenAPI document, its references within the document followed.
    static func description(
        of document: OpenAPIKit.OpenAPI.Document, format: String, source: String, pathOrder: [String]? = nil
    ) throws -> APIDescription {
        let resolved: OpenAPIKit.ResolvedDocument
        do {
            resolved = try document.locallyDereferenced().resolved()
        } catch {
            throw APIDescriptionError("\(source): a reference that cannot be followed: \(Self.reason(error))")
        }
        // In the order of the paths in the document, and of the methods within a path.
        var byPath: [String: [OpenAPIKit.ResolvedEndpoint]] = [:]
        for e in resolved.endpoints { byPath[e.path.rawValue, default: []].append(e) }
        var operations: [APIOperation] = []
        for path in pathOrder ?? document.paths.keys.map(\.rawValue) {
            for e in byPath[path] ?? [] {
                let parameters = e.parameters.map { p in
                    APIParameter(name: p.name, location: p.location.rawValue, required: p.required, type: Self.typeName(p.schemaOrContent))
                }
                operations.append(APIOperation(
                    method: e.method.rawValue.uppercased(), path: path, operationId: e.operationId,
                    summary: e.endpointSummary ?? e.routeSummary, parameters: parameters, body: Self.bodySchema(e.requestBody),
                    response: Self.responseSchema(e.responses)))
            }
        }
        return APIDescription(title: document.info.title, format: format, operations: operations)
    }

    /// The JSON Schema of a request's JSON body, as a value.
    static func bodySchema(_ request: OpenAPIKit.DereferencedRequest?) -> Value? {
        request.flatMap { jsonSchema(of: $0.content) }
    }

    /// The JSON Schema of the first successful response with a JSON schema, as a value.
    static func responseSchema(_ responses: OpenAPIKit.DereferencedResponse.Map) -> Value? {
        for (status, response) in responses where status.isSuccess {
            if let schema = jsonSchema(of: response.content) { return schema }
        }
        return nil
    }

    /// The schema of a content map's JSON media type (`application/json`, else the first whose
    /// name holds `json`): OpenAPIKit's schema, its references inlined, encoded as JSON and read
    /// back.
    static func jsonSchema(of content: OpenAPIKit.DereferencedContent.Map) -> Value? {
        let media = content[.json] ?? content.first(where: { $0.key.rawValue.contains("json") })?.value
        guard let schema = media?.schema?.jsonSchema, let data = try? JSONEncoder().encode(schema) else { return nil }
        return try? JSON.parse([UInt8](data))
    }

    /// A parameter's JSON type, when its schema gives one.
    static func typeName(_ schemaOrContent: Either<OpenAPIKit.DereferencedSchemaContext, OpenAPIKit.DereferencedContent.Map>) -> String? {
        guard case .a(let context) = schemaOrContent else { return nil }
        return context.schema.jsonType?.rawValue
    }

    /// A YAML tree (Yams' `load`) as a value.
    static func value(of any: Any?) -> Value {
        switch any {
        case nil, is NSNull: return .null
        case let b as Bool: return .bool(b)
        case let i as Int: return .int(i)
        case let d as Double: return .double(d)
        case let s as String: return .string(s)
        case let a as [Any]: return .list(a.map(value(of:)))
        case let d as [String: Any]:
            var r = Record()
            for k in d.keys.sorted() { r[k] = value(of: d[k]) }
            return .record(r)
        case let d as [AnyHashable: Any]:
            var r = Record()
            for (k, v) in d.sorted(by: { "\($0.key)" < "\($1.key)" }) { r["\(k)"] = value(of: v) }
            return .record(r)
        default: return .string("\(any!)")
        }
    }

    /// A decoding error in a line: what was wrong and where.
    static func reason(_ error: any Error) -> String {
        if let e = error as? DecodingError {
            switch e {
            case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
                let path = c.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                return path.isEmpty ? c.debugDescription : "\(c.debugDescription) (at \(path))"
            @unknown default: return "\(e)"
            }
        }
        return "\(error)"
    }
}

/// Why a description could not be read.
public struct APIDescriptionError: Error, CustomStringConvertible, Sendable {
    /// What was wrong and where.
    public let description: String
    init(_ description: String) { self.description = description }
}
