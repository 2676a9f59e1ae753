import Foundation
import VowValue
import XCTest

/// `UnnamedFile.create`: a new file appears whole under its name or not at all, never over
/// another file, and leaves nothing behind when it cannot be made.
final class UnnamedFileTests: XCTestCase {
    func test_aNewFileIsThereWholeAndPrivate() throws {
        let dir = NSTemporaryDirectory() + "vow-unnamed-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertTrue(UnnamedFile.create("a.entry", in: dir, bytes: bytes, permissions: 0o600))
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/a.entry").map(Array.init), bytes)
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: dir + "/a.entry")[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o077, 0, "the file can be read by others")

        // A file with that name already: it stays as it was, and nothing else appears.
        XCTAssertFalse(UnnamedFile.create("a.entry", in: dir, bytes: [1, 2, 3], permissions: 0o600))
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/a.entry").map(Array.init), bytes)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["a.entry"])

        // No directory: false, and nothing is made.
        XCTAssertFalse(UnnamedFile.create("b.entry", in: dir + "/missing", bytes: [1], permissions: 0o600))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/missing"))
        XCTAssertTrue(UnnamedFile.create("", in: dir, bytes: [], permissions: 0o600) == false)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["a.entry"])
    }
}
