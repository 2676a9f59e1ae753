// sha256, rule by rule: the digest of the bytes it is given, hex or base64, and a clear error
// for anything else.
import VowValue
import XCTest

@testable import VowRuntime

final class Sha256StageTests: XCTestCase {
    /// The digests of FIPS 180-2's test vectors, as sha256sum prints them.
    func test_theDigestOfText() throws {
        XCTAssertEqual(try runStage("echo '' | sha256").value(), .string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
        XCTAssertEqual(
            try runStage("echo 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq' | sha256").value(),
            .string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"))
        // Text is hashed as its UTF-8 bytes.
        XCTAssertEqual(try runStage("echo é | sha256").value(), try runStage("sha256", input: .bytes([0xC3, 0xA9])).value())
    }

    func test_bytesAndResponsesAreHashedAsTheyCame() throws {
        let bytes: [UInt8] = [0, 0xFF, 0x80]
        // Python's hashlib.sha256(bytes([0, 255, 128])).hexdigest().
        let expected = Value.string("f742b965f156c10374bc23aea96e3a8aff8facd6fc079defeaa30219ad86f211")
        XCTAssertEqual(try runStage("sha256", input: .bytes(bytes)).value(), expected)
        let response = HTTPResponse(status: 200, statusText: "OK", url: "http://h/", method: "GET", headers: [], elapsed: 0, body: bytes)
        XCTAssertEqual(try runStage("sha256", input: .response(response)).value(), expected)
    }

    func test_base64() throws {
        XCTAssertEqual(try runStage("echo abc | sha256 --base64").value(), .string("ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="))
    }

    func test_anythingElseIsATypeErrorNamingTheStage() throws {
        let outcome = try runStage("echo {a: 1} | sha256")
        XCTAssertEqual(outcome.error?.kind, .type)
        XCTAssertEqual(outcome.error?.message, "sha256: expected text, bytes or a response, got record")
    }
}
