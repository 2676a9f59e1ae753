// The classic ordering puzzles of examples/puzzles/, each written in vow beside its JavaScript:
// vow in JavaScript mode prints what node prints for the .js, and so does vow's own twin.
import Foundation
import XCTest

@testable import VowShell
import VowValue

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

    /// Every puzzle takes node's turns too: each line is written after as many turns (promise
    /// jobs) in vow --js as in node running the .js, counted by scripts/difftest-turns.js (node's
    /// async hooks) and from vow's trace (microtasks, vow's own bookkeeping left out).
    func test_everyPuzzleWritesEachLineInNodesTurn() throws {
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "vow" }.sorted { $0.path < $1.path }
        let recorder = projectRoot.appendingPathComponent("scripts/difftest-turns.js").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("puzzle-turns-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for vow in files {
            let name = vow.deletingPathExtension().lastPathComponent
            let js = vow.deletingPathExtension().appendingPathExtension("js").path
            let nodeOut = dir + "/\(name).json", trace = dir + "/\(name).jsonl"
            _ = try runCommand("/usr/bin/env", ["VOW_TURNS_OUT=\(nodeOut)", "node", "-r", recorder, js])
            let node = try JSON.parse(String(contentsOfFile: nodeOut, encoding: .utf8))
            _ = try runCommand(REPLTests.binary, ["--js", "--trace", trace, vow.path])
            XCTAssertEqual(try Self.linesWithTurns(trace), node, "\(name): [turns run, line written], vow --js against node")
        }
    }

    /// The lessons take node's turns too, against node running vow's own twin of each: there the
    /// twin's `await` of a statement's value is a job, as vow's own wait for it is, so vow's own
    /// jobs count. Five lessons are left out, as their twins take jobs that are not the
    /// program's: 02 (the twin's main function settles while its background jobs run), 11 and
    /// 14 (`timeout` is a race in the prelude), 12 (`retry`'s loop in the prelude), 15 (async
    /// generators).
    func test_theLessonsWriteEachLineInNodesTurn() throws {
        let lessons = projectRoot.appendingPathComponent("examples/lessons")
        let notComparable: Set<String> = ["02-adoption", "11-timeout-cancellation", "12-retry", "14-two-modes", "15-streams"]
        let files = try FileManager.default.contentsOfDirectory(at: lessons, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "vow" && !notComparable.contains($0.deletingPathExtension().lastPathComponent) }
            .sorted { $0.path < $1.path }
        XCTAssertEqual(files.count, 13)
        let recorder = projectRoot.appendingPathComponent("scripts/difftest-turns.js").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lesson-turns-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for vow in files {
            let name = vow.deletingPathExtension().lastPathComponent
            let twin = dir + "/\(name).js", nodeOut = dir + "/\(name).json", trace = dir + "/\(name).jsonl"
            let emitted = try runCommand(REPLTests.binary, ["--emit-js", vow.path])
            try emitted.out.write(toFile: twin, atomically: true, encoding: .utf8)
            _ = try runCommand("/usr/bin/env", ["VOW_TURNS_OUT=\(nodeOut)", "node", "-r", recorder, twin])
            guard case .list(let all) = try JSON.parse(String(contentsOfFile: nodeOut, encoding: .utf8)) else { return XCTFail(name) }
            let node = Value.list(all.filter { if case .list(let l) = $0, l.count == 2, let s = l[1].stringValue { !s.hasPrefix("[") } else { false } })
            _ = try runCommand(REPLTests.binary, ["--js", "--trace", trace, vow.path])
            XCTAssertEqual(try Self.linesWithTurns(trace, countingOwn: true), node, "\(name): [turns run, line written], vow --js against node running the twin")
        }
    }

    /// The lines vow wrote, each with the turns run before it, from a trace: every microtask
    /// started but vow's own (an observer marked `own`, a callback), as the recorder counts node's;
    /// with `countingOwn`, vow's own observers too (a statement's value waited for).
    static func linesWithTurns(_ trace: String, countingOwn: Bool = false) throws -> Value {
        var turns = 0, partial = ""
        var lines: [Value] = []
        for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
            guard case .record(let e) = try JSON.parse(String(line)) else { continue }
            switch e["event"]?.stringValue {
            case "job-started":
                if e["task"] != .bool(true), countingOwn || e["own"] != .bool(true), e["kind"]?.stringValue != "callback" { turns += 1 }
            case "output":
                var parts = (partial + (e["text"]?.stringValue ?? "")).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                partial = parts.removeLast()
                for p in parts where !p.hasPrefix("[") { lines.append(.list([.int(turns), .string(p)])) }
            default: break
            }
        }
        if !partial.isEmpty { lines.append(.list([.int(turns), .string(partial)])) }
        return .list(lines)
    }
}
