import Foundation
import JMESPath
import XCTest

@testable import VowValue

/// `pick` against JMESPath Community's reference implementation (Python's `jmespath-community`
/// package, in the virtual environment .build/jmespath-venv that scripts/setup makes): random
/// documents and expressions from a seeded generator (scripts/jmespath-reference.py), each
/// searched by vow after reading the whole document and again through `json | pick`'s reading of
/// only what the expression looks at; the two must be equal, and equal to what the reference gives.
final class PickReferenceTests: XCTestCase {
    /// 5,000 cases in the suite; `PICK_REFERENCE_CASES` and `PICK_REFERENCE_SEED` run others.
    static let cases = Int(ProcessInfo.processInfo.environment["PICK_REFERENCE_CASES"] ?? "") ?? 5000
    static let seed = Int(ProcessInfo.processInfo.environment["PICK_REFERENCE_SEED"] ?? "") ?? 1

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Python of the reference's own environment.
    func python() throws -> String {
        let python = Self.root.appendingPathComponent(".build/jmespath-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            XCTFail("no \(python): scripts/setup makes it, with the jmespath-community package")
            throw VowError(.io, "no \(python)")
        }
        return python
    }

    func run(_ program: String, _ arguments: [String]) throws -> (out: String, status: Int32) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [program] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), p.terminationStatus)
    }

    /// What vow's pick gives for one case: `{"ok": VALUE}` or `{"error": KIND}`.
    func pick(_ doc: String, _ source: String) -> String {
        let expression: JMESPathExpression
        do {
            expression = try JMESPathExpression(source)
        } catch {
            return #"{"error": "\#(error.kind.rawValue)"}"#
        }
        guard let whole = try? JSON.parse(doc) else { return #"{"error": "document"}"# }
        let full: Value
        do {
            full = try expression.search(whole)
        } catch {
            return #"{"error": "\#(error.kind.rawValue)"}"#
        }
        // json | pick: the value at a simple path, or the document's tape, searched.
        let ahead: Value?
        if let path = expression.simplePath {
            ahead = JSONPathScan.value(at: path, in: doc)
        } else {
            ahead = JSONTape.read(doc).flatMap { try? $0.search(expression) }
        }
        XCTAssertEqual(ahead, full, "json | pick \(source) on \(doc) differs from reading the whole document")
        return #"{"ok": \#(JSONWriter.compact(full))}"#
    }

    func test_pickAgreesWithTheReferenceImplementation() throws {
        let python = try python()
        let script = Self.root.appendingPathComponent("scripts/jmespath-reference.py").path
        let generated = try run(python, [script, "generate", "\(Self.cases)", "\(Self.seed)"])
        XCTAssertEqual(generated.status, 0)
        let lines = generated.out.split(separator: "\n")
        XCTAssertEqual(lines.count, Self.cases)
        var results: [String] = []
        for line in lines {
            let c = try JSON.parse(String(line))
            guard let doc = c.recordValue?["doc"]?.stringValue, let expr = c.recordValue?["expr"]?.stringValue else {
                return XCTFail("a case without doc and expr: \(line)")
            }
            results.append(pick(doc, expr))
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vow-pick-reference-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases = dir.appendingPathComponent("cases.jsonl")
        let got = dir.appendingPathComponent("vow.jsonl")
        try (generated.out).write(to: cases, atomically: true, encoding: .utf8)
        try (results.joined(separator: "\n") + "\n").write(to: got, atomically: true, encoding: .utf8)
        let compared = try run(python, [script, "compare", cases.path, got.path])
        let errors = results.filter { $0.hasPrefix(#"{"error""#) }.count
        let empty = results.filter { [#"{"ok": null}"#, #"{"ok": []}"#, #"{"ok": {}}"#, #"{"ok": """}"#, #"{"ok": false}"#].contains($0) }.count
        print("PickReferenceTests: \(Self.cases) cases of seed \(Self.seed): vow gave \(results.count - errors) values "
            + "(\(results.count - errors - empty) neither null, false nor empty) and \(errors) errors; "
            + (compared.out.split(separator: "\n").last.map(String.init) ?? ""))
        XCTAssertEqual(compared.status, 0, compared.out)
        XCTAssertTrue(compared.out.contains(" 0 differ"), compared.out)
        // Cases the reference cannot evaluate are few; most are compared.
        let agreed = compared.out.split(separator: " ").drop { $0 != "pick-reference:" }.dropFirst().first.flatMap { Int($0) } ?? 0
        XCTAssertGreaterThan(agreed, Self.cases * 9 / 10, compared.out)
    }
}
