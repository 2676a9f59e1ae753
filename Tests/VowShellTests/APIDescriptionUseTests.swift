import Foundation
import TestSupport
import XCTest

@testable import VowShell

/// `api add … --openapi`: the operations kept with the API, `api show` listing them, the REPL
/// completing `NAME/` paths, as a user would use them.
final class APIDescriptionUseTests: XCTestCase {
    var config = ""
    let testdata = projectRoot.appendingPathComponent("testdata/openapi").path

    override func setUpWithError() throws {
        config = FileManager.default.temporaryDirectory.appendingPathComponent("vow-apis-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: config) }

    func vow(_ program: String, input: String = "") throws -> (out: String, err: String, status: Int32) {
        let r = try runWithInput("/usr/bin/env", ["XDG_CONFIG_HOME=\(config)", REPLTests.binary, "-c", program], input: input)
        return (r.out, r.err, r.status)
    }

    /// The REPL through a pseudo-terminal, with the test's configuration, at its first prompt.
    func repl() throws -> PseudoTerminal {
        let t = try PseudoTerminal(REPLTests.binary, [], environment: ["XDG_CONFIG_HOME": config, "VOW_HISTORY": config + "/history"])
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        // libedit sets the terminal up right after the prompt (as REPLTests.start waits).
        Thread.sleep(forTimeInterval: 0.1)
        return t
    }

    func test_theOperationsAreKeptAndListed() throws {
        let added = try vow("api add pets http://127.0.0.1:9/v1 --openapi \(testdata)/petstore.yaml | pick description")
        XCTAssertEqual(added.out, "{\n  \"title\": \"Swagger Petstore\",\n  \"format\": \"3.0.0\",\n  \"operations\": 3\n}\n", added.err)
        // A later run reads them from the API's file.
        let shown = try vow("api show pets | to-json")
        XCTAssertEqual(shown.out, #"[{"method":"GET","path":"/pets","operationId":"listPets","summary":"List all pets"},{"method":"POST","path":"/pets","operationId":"createPets","summary":"Create a pet"},{"method":"GET","path":"/pets/{petId}","operationId":"showPetById","summary":"Info for a specific pet"}]"# + "\n", shown.err)
        XCTAssertEqual(try vow("api show pets --profile | pick base").out, "http://127.0.0.1:9/v1\n")
        let mode = try FileManager.default.attributesOfItem(atPath: config + "/vow/apis/pets.json")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        // The operations are in a file of their own, read only when asked for: resolving
        // `pets/…` reads the small one.
        let kept = try String(contentsOfFile: config + "/vow/apis/pets.json", encoding: .utf8)
        XCTAssertFalse(kept.contains("listPets"), kept)
        let operations = try String(contentsOfFile: config + "/vow/apis/pets.operations", encoding: .utf8)
        XCTAssertTrue(operations.contains("listPets"), operations)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: config + "/vow/apis/pets.operations")[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try vow("api remove pets").out, "removed pets\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: config + "/vow/apis/pets.operations"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: config + "/vow/apis/pets.json"))
    }

    /// `--openapi -` reads the input: what `fetch URL` or `read FILE` gives.
    func test_theDescriptionCanBeTheInput() throws {
        let r = try vow("read \(testdata)/buckets-swagger2.json | api add kinto http://127.0.0.1:9/v1 --openapi - --no-save | pick description.operations")
        XCTAssertEqual(r.out, "5\n", r.err)
        let none = try vow("api add kinto http://127.0.0.1:9/v1 --openapi - --no-save")
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.err.contains("--openapi -: the input is the description, and there is none"), none.err)
    }

    /// `--discover`: the description a `Link: rel="service-desc"` on the base names, fetched
    /// and kept; a base with none anywhere is an error naming every place tried.
    func test_theDescriptionIsFoundWhereTheServerSays() throws {
        let server = try ClockServer.start("testdata/description-server.py")
        defer { server.stop() }
        let found = try vow("api add notes \(server.base) --discover | pick '[description.url, description.operations]' | to-json")
        XCTAssertEqual(found.out, #"[""# + server.base + #"/specs/notes.json",3]"# + "\n", found.err)
        XCTAssertEqual(try vow("api show notes | pick '[*].operationId' | to-json").out, #"["listNotes","addNote","getNote"]"# + "\n")
        let none = try vow("api add nothing \(server.base)/x --discover --no-save")
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.err.contains("no API description found at \(server.base)/x/openapi.json, \(server.base)/x/openapi.yaml, \(server.base)/x/__api__, \(server.base)/x/swagger.json"), none.err)
    }

    /// A document that is no description is refused, nothing kept, the reason named.
    func test_aBrokenDescriptionIsAnError() throws {
        let bad = config + "/bad.json"
        try #"{"openapi": "3.0.0", "info": 5, "paths": {}}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try vow("api add broken http://127.0.0.1:9 --openapi \(bad)")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("is not a valid OpenAPI 3.0.0 document"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: config + "/vow/apis/broken.json"))
    }

    /// `:help NAME.OPERATION`: the call, its parameters, its body's and its response's fields.
    func test_helpOfAnOperationComesFromTheDescription() throws {
        _ = try vow("api add kinto http://127.0.0.1:9/v1 --openapi \(testdata)/buckets-swagger2.json")
        let t = try repl()
        t.type(":help kinto.get_records\r")
        XCTAssertTrue(t.waitFor("op kinto.get_records ID CID"), t.plainOutput)
        XCTAssertTrue(t.waitFor("GET /buckets/{id}/collections/{cid}/records: The records of a collection"), t.plainOutput)
        XCTAssertTrue(t.waitFor("_limit  integer, --_limit VALUE"), t.plainOutput)
        t.clear()
        t.type(":help kinto.create_bucket\r")
        XCTAssertTrue(t.waitFor("Body (--json, checked before it is sent):"), t.plainOutput)
        XCTAssertTrue(t.waitFor("data  object, required"), t.plainOutput)
        XCTAssertTrue(t.waitFor("    id  string"), t.plainOutput)
        t.clear()
        t.type(":help kinto.nope\r")
        XCTAssertTrue(t.waitFor("the API kinto has no operation 'nope'"), t.plainOutput)
        t.type("\u{4}")
    }

    /// Inside `--query {` of `op` or of `fetch NAME/PATH`: the operation's query parameters,
    /// with no space after the colon.
    func test_theREPLCompletesQueryParameters() throws {
        _ = try vow("api add kinto http://127.0.0.1:9/v1 --openapi \(testdata)/buckets-swagger2.json")
        let t = try repl()
        t.type("op kinto.get_records a b --query {_l\t")
        XCTAssertTrue(t.waitFor("imit:"), t.plainOutput)
        t.clear()
        t.type("\u{3}")
        XCTAssertTrue(t.waitFor("^C\nvow> "), t.plainOutput)
        Thread.sleep(forTimeInterval: 0.1)
        t.clear()
        t.type("fetch kinto/buckets/x/collections/y/records --query {\t")
        XCTAssertTrue(t.waitFor("_limit:"), t.plainOutput)
        t.clear()
        t.type("\u{3}")
        XCTAssertTrue(t.waitFor("^C\nvow> "), t.plainOutput)
        Thread.sleep(forTimeInterval: 0.1)
        // As flags of op: the query parameters first.
        t.type("op kinto.get_records a b --_\t")
        XCTAssertTrue(t.waitFor("limit"), t.plainOutput)
        t.type("\u{3}")
        t.type("\u{4}")
    }

    func test_pathCandidatesFollowTheDescription() {
        XCTAssertEqual(Completer.pathCandidates(word: "pets/", api: "pets", paths: ["/pets", "/pets", "/pets/{petId}"]), ["pets/pets", "pets/pets/{petId}"])
        XCTAssertEqual(Completer.pathCandidates(word: "pets/pets/", api: "pets", paths: ["/pets", "/pets/{petId}"]), ["pets/pets/{petId}"])
        XCTAssertEqual(Completer.pathCandidates(word: "pets/x", api: "pets", paths: ["/pets"]), [])
        // A value typed where the path has a parameter, and the rest of the path after it.
        let kinto = ["/buckets", "/buckets/{id}", "/buckets/{bid}/collections", "/buckets/{bid}/collections/{cid}/records"]
        XCTAssertEqual(Completer.pathCandidates(word: "k/buckets/shop/", api: "k", paths: kinto),
                       ["k/buckets/shop/collections", "k/buckets/shop/collections/{cid}/records"])
        // Where the next segment is a parameter: the identifiers seen there first.
        XCTAssertEqual(Completer.pathCandidates(word: "k/buckets/s", api: "k", paths: kinto) { $0 == "/buckets" ? ["shop", "stock", "other"] : [] },
                       ["k/buckets/shop", "k/buckets/stock"])
    }

    /// In the REPL, the identifiers the latest response of a collection held are offered as the
    /// values of the path parameter after it.
    func test_theREPLOffersTheIdentifiersSeen() throws {
        let server = try ClockServer.start("testdata/description-server.py")
        defer { server.stop() }
        _ = try vow("api add notes \(server.base) --openapi \(testdata)/notes-openapi31.json")
        let t = try repl()
        t.type("fetch notes/notes | json | len\r")
        XCTAssertTrue(t.waitFor("2\n"), t.plainOutput)
        XCTAssertTrue(t.waitFor("vow> "), t.plainOutput)
        Thread.sleep(forTimeInterval: 0.1)
        t.clear()
        t.type("fetch notes/notes/\t\t")
        XCTAssertTrue(t.waitFor("notes/notes/7"), t.plainOutput)
        XCTAssertTrue(t.waitFor("notes/notes/9"), t.plainOutput)
        XCTAssertTrue(t.waitFor("notes/notes/{noteId}"), t.plainOutput)
        t.type("\u{3}")
        t.type("\u{4}")
    }

    /// Through a pseudo-terminal: `fetch pets/` and Tab completes the common part, a second Tab
    /// lists the paths.
    func test_theREPLCompletesThePaths() throws {
        _ = try vow("api add pets http://127.0.0.1:9/v1 --openapi \(testdata)/petstore.yaml")
        let t = try repl()
        t.clear()
        t.type("fetch pets/\t")
        XCTAssertTrue(t.waitFor("pets"), t.plainOutput)
        t.type("\t")
        XCTAssertTrue(t.waitFor("pets/pets/{petId}"), t.plainOutput)
        t.type("\u{4}")
        t.type("\u{3}")
        t.type("\u{4}")
    }
}
