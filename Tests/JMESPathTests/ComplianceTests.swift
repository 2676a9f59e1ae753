import Foundation
import JMESPath
import VowValue
import XCTest

/// Runs every case of the official JMESPath compliance suite (testdata/jmespath-compliance in the
/// repository) against vow's values: results must be equal, errors must be of the named
/// kind, whether raised while compiling or while searching.
final class ComplianceTests: XCTestCase {
    static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["VOW_JMESPATH_COMPLIANCE"] {
            return URL(fileURLWithPath: dir)
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("testdata/jmespath-compliance")
    }()

    struct Outcome {
        var passed = 0
        var failures: [String] = []
    }

    func run(file: String) throws -> Outcome {
        let url = Self.directory.appendingPathComponent(file + ".json")
        let data = try Data(contentsOf: url)
        let suites = try JSON.parse([UInt8](data))
        var outcome = Outcome()
        for suite in suites.listValue ?? [] {
            let given = suite.recordValue?["given"] ?? .null
            for testCase in suite.recordValue?["cases"]?.listValue ?? [] {
                guard let fields = testCase.recordValue,
                    let expression = fields["expression"]?.stringValue
                else { continue }
                if fields["bench"] != nil, fields["result"] == nil, fields["error"] == nil {
                    // A benchmark case: it must compile and run, its result is not given.
                    do {
                        _ = try JMESPathExpression(expression).search(given)
                        outcome.passed += 1
                    } catch {
                        outcome.failures.append("\(file): `\(expression)` (bench) threw \(error)")
                    }
                    continue
                }
                let actual: Result<Value, JMESPathError>
                do throws(JMESPathError) {
                    actual = .success(try JMESPathExpression(expression).search(given))
                } catch {
                    actual = .failure(error)
                }
                switch (fields["error"]?.stringValue, actual) {
                case (let kind?, .failure(let error)):
                    if error.kind.rawValue == kind {
                        outcome.passed += 1
                    } else {
                        outcome.failures.append("\(file): `\(expression)` wanted \(kind) error, got \(error)")
                    }
                case (let kind?, .success(let value)):
                    outcome.failures.append(
                        "\(file): `\(expression)` wanted \(kind) error, got \(JSONWriter.compact(value))")
                case (nil, .success(let value)):
                    let expected = fields["result"] ?? .null
                    if Self.same(value, expected) {
                        outcome.passed += 1
                    } else {
                        outcome.failures.append(
                            "\(file): `\(expression)` on \(JSONWriter.compact(given)) gave \(JSONWriter.compact(value)), wanted \(JSONWriter.compact(expected))"
                        )
                    }
                case (nil, .failure(let error)):
                    outcome.failures.append("\(file): `\(expression)` threw \(error)")
                }
            }
        }
        return outcome
    }

    /// Equality as the suite means it: numbers by value, objects as maps, lists in order.
    static func same(_ a: Value, _ b: Value) -> Bool { a == b }

    static let files = [
        "basic", "benchmarks", "boolean", "current", "escape", "filters", "functions", "identifiers",
        "indices", "literal", "multiselect", "pipe", "slice", "syntax", "unicode", "wildcard",
    ]

    func test_everyComplianceCasePasses() throws {
        // The suite is part of the repository: a missing file is a failure, never a skip.
        let basic = Self.directory.appendingPathComponent("basic.json").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: basic), "the compliance suite is not at \(Self.directory.path)")
        var total = 0
        var failures: [String] = []
        var counts: [String] = []
        for file in Self.files {
            let outcome = try run(file: file)
            total += outcome.passed + outcome.failures.count
            failures += outcome.failures
            counts.append("\(file) \(outcome.passed)/\(outcome.passed + outcome.failures.count)")
        }
        print("JMESPath compliance: " + counts.joined(separator: ", "))
        XCTAssertEqual(total, 908, "the suite has 908 cases (16 of them benchmarks); some were not read")
        XCTAssertTrue(failures.isEmpty, "\(failures.count) of \(total) failed:\n" + failures.prefix(60).joined(separator: "\n"))
    }

    func test_theRunnerCanFail() throws {
        // A wrong expectation must be reported: the runner compares, it does not just count.
        XCTAssertFalse(Self.same(try JMESPathExpression("a").search(["a": 1] as Value), 2))
        XCTAssertTrue(Self.same(try JMESPathExpression("a").search(["a": 1] as Value), 1.0))
    }
}
