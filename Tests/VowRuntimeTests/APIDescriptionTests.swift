import Foundation
import XCTest

@testable import VowOpenAPI

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
