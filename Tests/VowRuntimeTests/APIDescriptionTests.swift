import Foundation
import XCTest

@testable import VowOpenAPI
import VowValue

/// An API's description read from the documents of testdata/openapi: OpenAPI 3.0 (YAML), 3.1
/// (JSON) and Swagger 2.0 (JSON), references within the document followed.
final class APIDescriptionTests: XCTestCase {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("testdata/openapi")

    func read(_ name: String) throws -> APIDescription {
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
        return try APIDescription.read(bytes, source: name)
    }

    func test_openAPI30InYAML() throws {
        let d = try read("petstore.yaml")
        XCTAssertEqual(d.title, "Swagger Petstore")
        XCTAssertEqual(d.format, "3.0.0")
        XCTAssertEqual(d.operations.map { "\($0.method) \($0.path) \($0.operationId ?? "-")" },
                       ["GET /pets listPets", "POST /pets createPets", "GET /pets/{petId} showPetById"])
        XCTAssertEqual(d.operations[0].summary, "List all pets")
        XCTAssertEqual(d.operations[0].parameters, [APIParameter(name: "limit", location: "query", required: false, type: "integer")])
        XCTAssertEqual(d.operations[2].parameters, [APIParameter(name: "petId", location: "path", required: true, type: "string")])
    }

    func test_openAPI31InJSONWithAParameterByReference() throws {
        let d = try read("notes-openapi31.json")
        XCTAssertEqual(d.format, "3.1.0")
        XCTAssertEqual(d.operations.map(\.operationId), ["listNotes", "addNote", "getNote"])
        XCTAssertEqual(d.operations[0].parameters, [APIParameter(name: "tag", location: "query", required: false, type: "string")])
        XCTAssertEqual(d.operations[2].parameters, [APIParameter(name: "noteId", location: "path", required: true, type: "integer")])
    }

    /// Swagger 2.0, as Kinto serves it: a path's parameters join each operation's, and a
    /// parameter by reference (`#/parameters/limit`) is followed.
    func test_swagger20WithPathParametersAndReferences() throws {
        let d = try read("buckets-swagger2.json")
        XCTAssertEqual(d.format, "2.0")
        XCTAssertEqual(d.operations.map { "\($0.method) \($0.path)" }, [
            "GET /buckets", "POST /buckets", "GET /buckets/{id}", "DELETE /buckets/{id}", "GET /buckets/{id}/collections/{cid}/records",
        ])
        XCTAssertEqual(d.operations[0].parameters, [APIParameter(name: "_limit", location: "query", required: false, type: "integer")])
        XCTAssertEqual(d.operations[4].parameters.map(\.name), ["id", "cid", "_limit"])
        XCTAssertEqual(d.operations[1].parameters.first?.location, "body")
    }

    /// A document that is none, or of a version vow does not read, is an error that says what
    /// was wrong and where.
    func test_whatIsNotADescriptionIsNamed() {
        func problem(_ text: String) -> String {
            do {
                _ = try APIDescription.read(Array(text.utf8), source: "doc")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertTrue(problem(#"{"openapi": "3.0.0", "info": 5, "paths": {}}"#).contains("doc is not a valid OpenAPI 3.0.0 document"))
        XCTAssertTrue(problem(#"{"openapi": "4.0.0"}"#).contains("doc is OpenAPI 4.0.0: vow reads 3.0, 3.1 and Swagger 2.0"))
        XCTAssertTrue(problem(#"{"title": "x"}"#).contains("doc names no version"))
        XCTAssertTrue(problem("swagger: \"2.0\"\npaths: [1").contains("doc is not YAML"))
        XCTAssertTrue(problem("swagger: \"2.0\"\ninfo: {title: t}\n").contains("a Swagger document has `paths`"))
    }

    /// What is kept in the API's file reads back the same.
    func test_anOperationReadsBackAsItWasKept() throws {
        for op in try read("buckets-swagger2.json").operations {
            XCTAssertEqual(APIOperation(stored: op.stored), op)
        }
    }
}

/// A request body against its operation's schema, rule by rule.
final class SchemaCheckTests: XCTestCase {
    func schema(_ json: String) throws -> Value { try JSON.parse(json) }
    func problem(_ value: String, _ schema: String) throws -> String? {
        SchemaCheck.problem(try JSON.parse(value), try JSON.parse(schema))
    }

    func test_typesAndNullable() throws {
        XCTAssertNil(try problem("1", #"{"type": "integer"}"#))
        XCTAssertNil(try problem("1.0", #"{"type": "integer"}"#))
        XCTAssertEqual(try problem("1.5", #"{"type": "integer"}"#), "the body: expected an integer, got the number 1.5 (type)")
        XCTAssertEqual(try problem(#""x""#, #"{"type": ["number", "null"]}"#), #"the body: expected a number or a null, got the string "x" (type)"#)
        XCTAssertNil(try problem("null", #"{"type": "string", "nullable": true}"#))
        XCTAssertEqual(try problem("[]", #"{"type": "object"}"#), "the body: expected an object, got an array (type)")
    }

    func test_requiredPropertiesAndAdditional() throws {
        let s = #"{"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}, "additionalProperties": false}"#
        XCTAssertNil(try problem(#"{"id": "a", "tags": ["x"]}"#, s))
        XCTAssertEqual(try problem(#"{"tags": []}"#, s), "the body: the field id is missing (required)")
        XCTAssertEqual(try problem(#"{"id": "a", "tags": ["x", 2]}"#, s), "tags[1]: expected a string, got the number 2 (type)")
        XCTAssertEqual(try problem(#"{"id": "a", "other": 1}"#, s), "other: no such field (additionalProperties is false)")
        XCTAssertEqual(try problem(#"{"m": {"k": 1}}"#, #"{"properties": {"m": {"additionalProperties": {"type": "string"}}}}"#), "m.k: expected a string, got the number 1 (type)")
    }

    func test_enumLengthsAndBounds() throws {
        XCTAssertEqual(try problem(#""c""#, #"{"enum": ["a", "b"]}"#), #"the body: "c" is not one of ["a","b"] (enum)"#)
        XCTAssertEqual(try problem(#""""#, #"{"minLength": 1}"#), "the body: 0 characters, fewer than 1 (minLength)")
        XCTAssertEqual(try problem(#""abc""#, #"{"maxLength": 2}"#), "the body: 3 characters, more than 2 (maxLength)")
        XCTAssertEqual(try problem("-1", #"{"minimum": 0}"#), "the body: -1 is less than 0 (minimum)")
        XCTAssertEqual(try problem("11", #"{"maximum": 10}"#), "the body: 11 is more than 10 (maximum)")
    }

    func test_combinations() throws {
        XCTAssertNil(try problem("1", #"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#))
        XCTAssertEqual(try problem("true", #"{"oneOf": [{"type": "string"}, {"type": "integer"}]}"#), "the body: fits none of the 2 schemas it may be (oneOf)")
        XCTAssertEqual(try problem(#"{"a": 1}"#, #"{"allOf": [{"required": ["a"]}, {"required": ["b"]}]}"#), "the body: the field b is missing (required)")
        // What it does not know passes.
        XCTAssertNil(try problem(#""x""#, #"{"format": "email", "pattern": "^y"}"#))
    }

    /// The body schemas the readers keep: Swagger 2.0's body parameter with its definitions
    /// inlined, OpenAPI 3.1's JSON request body with its reference followed.
    func test_theReadersKeepTheBodySchema() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("testdata/openapi")
        let swagger = try APIDescription.read([UInt8](Data(contentsOf: folder.appendingPathComponent("buckets-swagger2.json"))), source: "s")
        let create = try XCTUnwrap(swagger.operations.first { $0.operationId == "create_bucket" }?.body)
        XCTAssertEqual(SchemaCheck.problem(try JSON.parse(#"{"data": {"id": 5}}"#), create), "data.id: expected a string, got the number 5 (type)")
        XCTAssertEqual(SchemaCheck.problem(try JSON.parse(#"{"data": {"size": -1}}"#), create), "data.size: -1 is less than 0 (minimum)")
        XCTAssertNil(SchemaCheck.problem(try JSON.parse(#"{"data": {"id": "b"}, "permissions": {"read": ["x"]}}"#), create))
        let notes = try APIDescription.read([UInt8](Data(contentsOf: folder.appendingPathComponent("notes-openapi31.json"))), source: "n")
        let add = try XCTUnwrap(notes.operations.first { $0.operationId == "addNote" }?.body)
        XCTAssertEqual(SchemaCheck.problem(try JSON.parse(#"{"txt": 1}"#), add), "the body: the field text is missing (required)")
    }
}

/// The two readers of OpenAPI 3 (OpenAPIKit, and `OpenAPI3Tree` for large documents) keep the
/// same operations, parameters and schemas, on the documents of testdata/openapi and on a
/// generated one with references of every kind the tree reader follows.
final class OpenAPIReadersAgreeTests: XCTestCase {
    func bothWays(_ bytes: [UInt8]) throws -> (APIDescription, APIDescription) {
        (try APIDescription.read(bytes, source: "d", treeFrom: .max), try APIDescription.read(bytes, source: "d", treeFrom: 0))
    }

    func assertAgree(_ a: APIDescription, _ b: APIDescription, _ name: String) {
        XCTAssertEqual(a.title, b.title, name)
        XCTAssertEqual(a.operations.count, b.operations.count, name)
        for (x, y) in zip(a.operations, b.operations) {
            let what = "\(name) \(x.method) \(x.path)"
            XCTAssertEqual([x.method, x.path, x.operationId ?? "-", x.summary ?? "-"], [y.method, y.path, y.operationId ?? "-", y.summary ?? "-"], what)
            XCTAssertEqual(x.parameters, y.parameters, what)
            XCTAssertEqual(x.body == nil, y.body == nil, what)
            XCTAssertEqual(x.response == nil, y.response == nil, what)
            // The schemas judge values alike: each sample fits both or neither.
            for sample in [#"{"text": "a"}"#, #"{"text": 1}"#, "{}", "[]", #"{"data": {"id": "x", "n": -1}}"#, #"{"data": {"id": 5}}"#, #""s""#] {
                let v = try! JSON.parse(sample)
                if let sx = x.body, let sy = y.body { XCTAssertEqual(SchemaCheck.problem(v, sx) == nil, SchemaCheck.problem(v, sy) == nil, "\(what) body \(sample)") }
                if let sx = x.response, let sy = y.response {
                    XCTAssertEqual(SchemaCheck.problem(v, sx) == nil, SchemaCheck.problem(v, sy) == nil, "\(what) response \(sample)")
                }
            }
        }
    }

    func test_theTestdataDocuments() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("testdata/openapi")
        for name in ["petstore.yaml", "notes-openapi31.json"] {
            let (a, b) = try bothWays([UInt8](Data(contentsOf: folder.appendingPathComponent(name))))
            assertAgree(a, b, name)
        }
    }

    /// Path-level parameters, parameters, request bodies, responses and schemas by reference,
    /// `required` arrays, nested objects and arrays, a 201 and a 204.
    func test_aGeneratedDocumentWithEveryKindOfReference() throws {
        var paths: [String: Any] = [:]
        for i in 0..<40 {
            paths["/things\(i)/{id}"] = [
                "parameters": [["$ref": "#/components/parameters/id"]],
                "get": ["operationId": "get\(i)", "summary": "Get \(i)",
                        "parameters": [["name": "n", "in": "query", "required": i % 2 == 0, "schema": ["type": "integer"]]],
                        "responses": ["200": ["$ref": "#/components/responses/thing"]]],
                "put": ["operationId": "put\(i)", "requestBody": ["$ref": "#/components/requestBodies/thing"],
                        "responses": ["201": ["description": "made", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Thing"]]]]]],
                "delete": ["operationId": "delete\(i)", "responses": ["204": ["description": "gone"]]],
            ]
        }
        let doc: [String: Any] = [
            "openapi": "3.0.3", "info": ["title": "Things", "version": "1"], "paths": paths,
            "components": [
                "parameters": ["id": ["name": "id", "in": "path", "required": true, "schema": ["type": "string"]]],
                "schemas": [
                    "Thing": ["type": "object", "required": ["data"], "properties": ["data": ["$ref": "#/components/schemas/Data"]]],
                    "Data": ["type": "object", "properties": ["id": ["type": "string"], "n": ["type": "integer", "minimum": 0], "tags": ["type": "array", "items": ["type": "string"]]]],
                ],
                "requestBodies": ["thing": ["content": ["application/json": ["schema": ["$ref": "#/components/schemas/Thing"]]]]],
                "responses": ["thing": ["description": "ok", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Thing"]]]]],
            ],
        ]
        let bytes = [UInt8](try JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys]))
        let (a, b) = try bothWays(bytes)
        XCTAssertEqual(a.operations.count, 120)
        assertAgree(a, b, "generated")
    }

    /// The tree reader refuses what is not the shape of a description, as OpenAPIKit does.
    func test_theTreeReaderChecksTheShape() {
        for text in [#"{"openapi": "3.0.0", "info": 5, "paths": {}}"#, #"{"openapi": "3.1.0", "info": {"title": "t"}, "paths": []}"#] {
            XCTAssertThrowsError(try APIDescription.read(Array(text.utf8), source: "d", treeFrom: 0), text)
            XCTAssertThrowsError(try APIDescription.read(Array(text.utf8), source: "d", treeFrom: .max), text)
        }
    }
}
