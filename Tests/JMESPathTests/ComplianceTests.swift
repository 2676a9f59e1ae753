import Foundation
import JMESPath
import VowValue
import XCTest

/// Runs every case of the JMESPath Community compliance suite
/// (testdata/jmespath-community-compliance in the repository, every file in every folder) against
/// vow's values: results must be equal, errors must be of the named kind, whether raised while
/// compiling or while searching. The files in legacy/ check the literals of before JEP-12, and
/// run with `legacyLiterals`; every other file runs as `pick` does, without it.
final class ComplianceTests: XCTestCase {
    static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["VOW_JMESPATH_COMPLIANCE"] {
            return URL(fileURLWithPath: dir)
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("testdata/jmespath-community-compliance")
    }()

    struct Outcome {
        var passed = 0
        var failures: [String] = []
    }

    func run(file: String) throws -> Outcome {
        try run(url: Self.directory.appendingPathComponent(file + ".json"), file: file, legacy: file.hasPrefix("legacy/"))
    }

    /// The cases of the suite file at `url` (named `file` in failures).
    func run(url: URL, file: String, legacy: Bool) throws -> Outcome {
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
                    // A benchmark case without a result: it must compile and run.
                    do {
                        _ = try JMESPathExpression(expression, legacyLiterals: legacy).search(given)
                        outcome.passed += 1
                    } catch {
                        outcome.failures.append("\(file): `\(expression)` (bench) threw \(error)")
                    }
                    continue
                }
                let actual: Result<Value, JMESPathError>
                do throws(JMESPathError) {
                    actual = .success(try JMESPathExpression(expression, legacyLiterals: legacy).search(given))
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

    /// Equality as the suite means it: numbers by value, strings by code point (`é` is not
    /// `e` + U+0301), objects as maps, lists in order.
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.list(let x), .list(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.record(let x), .record(let y)):
            return x.count == y.count && x.entries.allSatisfy { field in y[field.key].map { same(field.value, $0) } ?? false }
        default:
            return a == b
        }
    }

    /// The suite's files, relative to its folder and without `.json`, in order.
    static func files() throws -> [String] {
        let base = directory.standardizedFileURL.path
        guard let walk = FileManager.default.enumerator(atPath: base) else { return [] }
        return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    func test_everyComplianceCasePasses() throws {
        // The suite is part of the repository: a missing file is a failure, never a skip.
        let basic = Self.directory.appendingPathComponent("basic.json").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: basic), "the compliance suite is not at \(Self.directory.path)")
        let files = try Self.files()
        XCTAssertTrue(files.contains("legacy/legacy-literal") && files.contains("jep-12/jep-12-literal"), "\(files)")
        var total = 0
        var failures: [String] = []
        var counts: [String] = []
        for file in files {
            let outcome = try run(file: file)
            total += outcome.passed + outcome.failures.count
            failures += outcome.failures
            counts.append("\(file) \(outcome.passed)/\(outcome.passed + outcome.failures.count)")
        }
        print("JMESPath compliance: " + counts.joined(separator: ", "))
        XCTAssertEqual(total, 1074, "the suite has 1,074 cases (16 of them benchmarks) in 24 files; some were not read")
        XCTAssertTrue(failures.isEmpty, "\(failures.count) of \(total) failed:\n" + failures.prefix(60).joined(separator: "\n"))
    }

    /// vow's own functions and the choices the suite leaves open (testdata/pick-extras.json), which
    /// the twin's JMESPath passes too (scripts/twin-jmespath-compliance.js): the two agree.
    func test_vowsOwnCasesPassAsTheTwinsDo() throws {
        let url = Self.directory.deletingLastPathComponent().appendingPathComponent("pick-extras.json")
        let outcome = try run(url: url, file: "pick-extras", legacy: false)
        XCTAssertGreaterThan(outcome.passed + outcome.failures.count, 150)
        XCTAssertTrue(outcome.failures.isEmpty, "\(outcome.failures.count) failed:\n" + outcome.failures.prefix(60).joined(separator: "\n"))
    }

    func test_theRunnerCanFail() throws {
        // A wrong expectation must be reported: the runner compares, it does not just count.
        XCTAssertFalse(Self.same(try JMESPathExpression("a").search(["a": 1] as Value), 2))
        XCTAssertTrue(Self.same(try JMESPathExpression("a").search(["a": 1] as Value), 1.0))
        XCTAssertFalse(Self.same("\u{E9}", "e\u{301}"))
    }
}
