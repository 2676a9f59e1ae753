import Foundation
import XCTest

@testable import VowShell

/// `op NAME.OPERATION …`: an operation of an API's description called by its operationId, against
/// the fixture server's `/echo`, which reflects the request.
final class OperationCallTests: ServerTestCase {
    let testdata = projectRoot.appendingPathComponent("testdata/openapi").path

    /// The API declared for the run, with its description and a token.
    var declare: String { "api add kinto $base/echo --bearer t0k --openapi \(testdata)/buckets-swagger2.json --no-save | quiet; " }

    func test_theOperationsMethodAndPathWithItsParameters() {
        assertOutput(declare + "op kinto.get_bucket b1 | json | pick '[method, path, headers.authorization]' | to-json", #"["GET","/echo/buckets/b1","Bearer t0k"]"#)
        assertOutput(declare + "op kinto.delete_bucket b1 | json | pick method", "DELETE")
        assertOutput(declare + "op kinto.get_records \"a b\" c/d --query {_limit: 2} | json | pick '[path, query._limit]' | to-json",
                     #"["/echo/buckets/a%20b/collections/c%2Fd/records","2"]"#)
        assertOutput(declare + "op kinto.create_bucket --json {data: {id: x}} | json | pick '[method, body.data.id]' | to-json", #"["POST","x"]"#)
    }

    /// Query parameters as flags of their own, in the order written, beside --query.
    func test_queryParametersAreFlags() {
        assertOutput(declare + "op kinto.get_records a b --_limit 3 --_sort '-n' | json | pick '[query._limit, query._sort]' | to-json", #"["3","-n"]"#)
        assertOutput(declare + "op kinto.get_buckets --_limit 2 --query {x: 1} | json | pick '[query._limit, query.x]' | to-json", #"["2","1"]"#)
        let noValue = vow(declare + "op kinto.get_buckets --_limit")
        XCTAssertEqual(noValue.status, 2)
        XCTAssertTrue(noValue.err.contains("op: --_limit needs a value"), noValue.err)
    }

    /// A missing or extra path parameter, an unknown operation or API: an error naming it, and
    /// nothing sent.
    func test_whatIsWrongIsNamedBeforeAnythingIsSent() {
        let missing = vow(declare + "op kinto.get_records b1")
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.contains("kinto.get_records (GET /buckets/{id}/collections/{cid}/records) needs {id}, {cid}: {cid} is missing"), missing.err)
        let extra = vow(declare + "op kinto.get_buckets b1")
        XCTAssertTrue(extra.err.contains("takes no path parameter, got 1 arguments"), extra.err)
        let unknown = vow(declare + "op kinto.bucket")
        XCTAssertTrue(unknown.err.contains("the API kinto has no operation 'bucket': did you mean kinto.get_buckets, kinto.create_bucket, kinto.get_bucket?"), unknown.err)
        let noAPI = vow("op nope.x")
        XCTAssertTrue(noAPI.err.contains("no API named 'nope'"), noAPI.err)
        let shape = vow("op get_bucket")
        XCTAssertTrue(shape.err.contains("expected NAME.OPERATION"), shape.err)
        let noDescription = vow("api add bare $base --no-save | quiet; op bare.x")
        XCTAssertTrue(noDescription.err.contains("the API bare has no description"), noDescription.err)
    }

    /// A --json body that does not fit the operation's schema is refused, naming the place and
    /// the rule, and nothing reaches the server.
    func test_aBodyIsCheckedBeforeItIsSent() {
        let before = Self.server.hits("/echo/buckets")
        let r = vow(declare + "op kinto.create_bucket --json {data: {id: 5}}")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("kinto.create_bucket: the body does not fit the operation's schema: data.id: expected a string, got the number 5 (type); nothing was sent"), r.err)
        XCTAssertEqual(Self.server.hits("/echo/buckets"), before)
        assertOutput(declare + "op kinto.create_bucket --json {data: {id: b}} | json | pick body.data.id", "b")
        XCTAssertEqual(Self.server.hits("/echo/buckets"), before + 1)
    }

    /// `--validate`: a successful response's JSON body against the operation's schema.
    func test_aResponseIsValidatedWhenAsked() {
        assertOutput(declare + "op kinto.get_buckets --validate | status", "200")
        let r = vow(declare + "op kinto.get_bucket b1 --validate")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("kinto.get_bucket: the response does not fit the operation's schema: the response: the field data is missing (required)"), r.err)
        assertOutput(declare + "op kinto.get_bucket b1 | status", "200")
        let none = vow(declare + "op kinto.delete_bucket b1 --validate")
        XCTAssertTrue(none.err.contains("its description gives no schema for a successful response"), none.err)
    }

    /// `api show NAME OPERATION`: the operation with its parameters.
    func test_oneOperationIsShownWithItsParameters() {
        assertOutput(declare + "api show kinto get_records | pick 'parameters[*].[name, in, required]' | to-json",
                     #"[["id","path",true],["cid","path",true],["_limit","query",false]]"#)
    }
}
