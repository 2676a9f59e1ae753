// The twin's JavaScript lives in .js files: node checks them, the binary carries them as they
// are, and a twin can require its prelude from beside it instead of carrying it inline.
import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell

final class TwinScriptTests: XCTestCase {
    let folder = projectRoot.appendingPathComponent("Sources/VowRuntime/Teaching/twin")

    func scripts() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "js" }
    }

    /// Every .js file of the twin parses (`node --check`).
    func test_nodeChecksEveryScript() throws {
        let files = try scripts()
        XCTAssertEqual(Set(files.map(\.lastPathComponent)), ["prelude.js", "jmespath.js"])
        for file in files {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["node", "--check", file.path]
            let err = Pipe()
            p.standardError = err
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "\(file.lastPathComponent): " + String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }

    /// The build embeds each file as it is.
    func test_theBinaryCarriesTheFilesAsTheyAre() throws {
        func text(_ name: String) throws -> String {
            let s = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return s.hasSuffix("\n") ? String(s.dropLast()) : s
        }
        XCTAssertEqual(TwinSource.prelude, try text("prelude.js"))
        XCTAssertEqual(TwinSource.jmespath, try text("jmespath.js"))
    }

    /// `--emit-js-to FILE`: a small twin that requires the prelude written beside it, and node
    /// runs it to print what vow --js prints.
    func test_aTwinWithItsPreludeBesideItRunsAsTheInlineOneDoes() throws {
        let dir = NSTemporaryDirectory() + "vow-emit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let program = "let x = delay 10ms a\nresolve 1 | then format \"<{}>\"\necho [1, 2] | each (delay 1ms) | len\n$x | print\n"
        XCTAssertEqual(Runner.emitJavaScript(program, name: "p.vow", to: dir + "/p.js"), 0)
        let twin = try String(contentsOfFile: dir + "/p.js", encoding: .utf8)
        XCTAssertTrue(twin.contains("require(\"./vow-twin-prelude.js\")"), twin)
        XCTAssertLessThan(twin.split(separator: "\n").count, 40, twin)
        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        node.arguments = ["node", dir + "/p.js"]
        let out = Pipe()
        node.standardOutput = out
        try node.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        node.waitUntilExit()
        XCTAssertEqual(node.terminationStatus, 0)
        XCTAssertEqual(printed, runVow(program, javaScript: true).out)
        XCTAssertEqual(printed, "<1>\n2\na\n")
    }
}
