// The classic ordering puzzles of examples/puzzles/, each written in vow beside its JavaScript:
// vow in JavaScript mode prints what node prints for the .js, and so does vow's own twin.
import Foundation
import XCTest

@testable import VowShell

final class PuzzleTests: XCTestCase {
    let folder = projectRoot.appendingPathComponent("examples/puzzles")

    func test_everyPuzzlePrintsWhatNodePrintsForItsJavaScript() throws {
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "vow" }.sorted { $0.path < $1.path }
        XCTAssertGreaterThanOrEqual(files.count, 15)
        for vow in files {
            let name = vow.deletingPathExtension().lastPathComponent
            let js = vow.deletingPathExtension().appendingPathExtension("js")
            let source = try String(contentsOf: vow, encoding: .utf8)
            let node = try runCommand("node", [js.path])
            XCTAssertFalse(node.out.isEmpty, name)
            let run = runVow(source, javaScript: true)
            XCTAssertEqual(run.out, node.out, "vow --js \(name).vow against node \(name).js")
            XCTAssertEqual(run.status, node.status, name + ": " + run.err)
            let twin = try runTwin(source, name: name)
            XCTAssertEqual(twin.out, node.out, "the twin of \(name).vow against node \(name).js")
            XCTAssertEqual(twin.status, node.status, name)
        }
    }
}
