import Foundation
import TestSupport
import VowPromises
import VowValue
import XCTest

@testable import VowHTTP

/// The HTTP engine on its own, without the language: a request description in, a promise of a
/// response value out, against the fixture server.
final class HTTPEngineTests: XCTestCase {
    nonisolated(unsafe) static var server: FixtureServer!

    override class func setUp() {
        super.setUp()
        server = try? FixtureServer.start()
    }

    override class func tearDown() {
        server?.shutdown()
        super.tearDown()
    }

    /// Runs `spec` on a fresh engine and waits for the outcome.
    func perform(_ spec: HTTPRequestSpec) -> Result<Value, any Error> {
        let engine = HTTPEngine()
        defer { engine.shutdown() }
        let ex = SerialPromiseExecutor(label: "http-test")
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Value, any Error>?>(nil)
        engine.perform(spec, on: ex).whenSettled(on: ex) { r in
            outcome.withLock { $0 = r }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0! }
    }

    /// The response, or a failure naming what came instead.
    func response(_ r: Result<Value, any Error>) throws -> HTTPResponse {
        guard case .response(let response) = try r.get() else { throw VowError(.type, "not a response: \(try r.get())") }
        return response
    }

    func test_aResponseKeepsItsStatusVersionHeadersAndBody() throws {
        let base = try XCTUnwrap(Self.server?.base)
        let r = try response(perform(HTTPRequestSpec(method: "GET", url: base + "/echo?x=1")))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.version, "HTTP/1.1")
        XCTAssertTrue(r.headers.contains { $0.name.lowercased() == "content-type" && $0.value.hasPrefix("application/json") }, "\(r.headers)")
        let body = try JSON.parse(r.body)
        XCTAssertEqual(body.recordValue?["method"], "GET")
        XCTAssertEqual(body.recordValue?["query"], ["x": "1"] as Value)
    }

    func test_redirectsAreFollowedAndTheFinalURLIsKept() throws {
        let base = try XCTUnwrap(Self.server?.base)
        let r = try response(perform(HTTPRequestSpec(method: "GET", url: base + "/redirect/3")))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.url, base + "/echo")
    }

    func test_anErrorStatusRejectsWithKindHTTPAndKeepsTheBody() throws {
        let base = try XCTUnwrap(Self.server?.base)
        guard case .failure(let error) = perform(HTTPRequestSpec(method: "GET", url: base + "/status/404")) else {
            return XCTFail("a 404 fulfilled")
        }
        let e = try XCTUnwrap(error as? VowError, "\(error)")
        XCTAssertEqual(e.kind, VowError.Kind.http)
        XCTAssertTrue(e.message.hasPrefix("404"), e.message)
        XCTAssertEqual(e.details["status"], 404)
        XCTAssertEqual(e.details["body"]?.recordValue?["status"], 404, "the JSON body the server sent")
    }

    func test_aGzipBodyIsDecoded() throws {
        let base = try XCTUnwrap(Self.server?.base)
        let r = try response(perform(HTTPRequestSpec(method: "GET", url: base + "/gzip")))
        XCTAssertNoThrow(try JSON.parse(r.body), String(decoding: r.body, as: UTF8.self))
    }

    func test_aServerThatIsNotThereRejectsWithKindNetwork() {
        var spec = HTTPRequestSpec(method: "GET", url: "http://127.0.0.1:1/")
        spec.timeout = 5
        guard case .failure(let error) = perform(spec) else { return XCTFail("fulfilled") }
        XCTAssertEqual((error as? VowError)?.kind, VowError.Kind.network, "\(error)")
    }
}
