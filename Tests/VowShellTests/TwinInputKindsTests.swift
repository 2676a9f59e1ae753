import XCTest

/// Each data stage given every kind of value (a number, text, a list, a record, null, a boolean,
/// a list of records), in vow and in its JavaScript twin under node: the same output, or the
/// same first line of the same error, and the same status. A stage's documented examples give
/// it the inputs it is meant for; this gives it the rest, where a twin that reads a value its
/// own way (`Object.keys` of a number, the JSON text of a list split into lines) answers where
/// the stage rejects.
final class TwinInputKindsTests: XCTestCase {
    private let inputs = ["5", "\"a\\nb\"", "[1, 2]", "{a: 1}", "null", "true", "[{a: 1}]"]
    private let stages = [
        "lines", "text", "len", "keys", "values", "to-json", "to-csv", "to-tsv", "csv", "tsv", "sha256", "table", "pick @",
        "format \"<{}>\"", "take 1", "where @", "reduce 'acc' 0", "each (pick @)", "then (pick @)",
    ]

    private func firstLine(_ s: String) -> String { String(s.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }

    func test_eachDataStageMeetsEveryKindOfValueAsItsTwinDoes() throws {
        var compared = 0, rejected = 0
        for stage in stages {
            for input in inputs {
                let program = "echo \(input) | \(stage)"
                let vow = runVow(program)
                let twin = try runTwinOfBinary(program)
                XCTAssertEqual(twin.out, vow.out, "\(program)\n\(twin.err)")
                XCTAssertEqual(twin.status == 0, vow.status == 0, "\(program)\nvow: \(vow.err)\ntwin: \(twin.err)")
                if vow.status != 0 {
                    XCTAssertEqual(firstLine(twin.err), firstLine(vow.err), program)
                    rejected += 1
                }
                compared += 1
            }
        }
        XCTAssertEqual(compared, stages.count * inputs.count)
        // Most stages take some kinds and reject the rest.
        XCTAssertGreaterThan(rejected, 40)
    }
}
