import Foundation
import JMESPath
import XCTest

@testable import VowValue

/// `pick` against the JMESPath reference implementation (Python's `jmespath` package, which
/// scripts/setup installs): random documents and expressions from a seeded generator
/// (scripts/jmespath-reference.py), each searched by vow after reading the whole document and
/// again through `json | pick`'s reading of only what the expression looks at; the two must be
/// equal, and equal to what the reference gives.
final class PickReferenceTests: XCTestCase {
    /// 5,000 cases in the suite; `PICK_REFERENCE_CASES` and `PICK_REFERENCE_SEED` run others.
    static let cases = Int(ProcessInfo.processInfo.environment["PICK_REFERENCE_CASES"] ?? "") ?? 5000
    static let seed = Int(ProcessInfo.processInfo.environment["PICK_REFERENCE_SEED"] ?? "") ?? 1

    /// A Python that has the `jmespath` package.
    func python() throws -> String {
        for candidate in ["python3", "/usr/bin/python3"] {
            if (try? run(candidate, ["-c", "import jmespath"]))?.status == 0 { return candidate }
        }
        XCTFail("no python3 with the jmespath package (scripts/setup installs it)")
        throw VowError(.io, "no python3 with the jmespath package")
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
        // json | pick: the value at a simple path, or the part of the document the expression
        // can look at, searched.
        let ahead: Value?
        if let path = expression.simplePath {
            ahead = JSONPathScan.value(at: path, in: doc)
        } else {
            ahead = JSONPathScan.document(for: expression.demand, in: doc).flatMap { try? expression.search($0) }
        }
        XCTAssertEqual(ahead, full, "json | pick \(source) on \(doc) differs from reading the whole document")
        return #"{"ok": \#(JSONWriter.compact(full))}"#
    }

    func test_pickAgreesWithTheReferenceImplementation() throws {
        let python = try python()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/jmespath-reference.py").path
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
        XCTAssertEqual(compared.status, 0, compared.out)
        XCTAssertTrue(compared.out.contains(" 0 differ"), compared.out)
        // Cases the reference cannot evaluate are few; most are compared.
        let agreed = compared.out.split(separator: " ").drop { $0 != "pick-reference:" }.dropFirst().first.flatMap { Int($0) } ?? 0
        XCTAssertGreaterThan(agreed, Self.cases * 9 / 10, compared.out)
    }
}
