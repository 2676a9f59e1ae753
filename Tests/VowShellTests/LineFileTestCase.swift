import Foundation
import XCTest

/// A test case that writes files of lines (NDJSON, logs) into a directory of its own, made
/// before each test and removed after it.
class LineFileTestCase: XCTestCase {
    /// The directory, named after the test case and the process.
    var dir: String { NSTemporaryDirectory() + "vow-\(String(describing: type(of: self)))-\(getpid())" }

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// `lines` written to NAME in the directory, each ended by a line break; its path.
    func file(_ name: String, _ lines: [String]) throws -> String {
        let path = dir + "/" + name
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
