import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell

/// Every stage's documented examples run as their JavaScript twins too: node, running what
/// `vow --emit-js` writes, prints what vow prints, and ends with the same status; a failing
/// example's twin reports the same error (its first line).
final class TwinExampleTests: XCTestCase {
    /// Stages whose examples the twin cannot run as vow does, each with the reason: known gaps,
    /// listed so that a new one fails the test.
    static let apartStages: [String: String] = [
        "iterate": "no stand-in in the twin's prelude (StageCapabilityTests lists it)",
        "jobs": "no stand-in in the twin's prelude (StageCapabilityTests lists it)",
        "cancel": "its example reads `jobs`, which has no stand-in",
        "api": "no stand-in in the twin's prelude: the twin's requests go to the URLs as written (StageCapabilityTests lists it)",
    ]
    /// Examples the twin cannot run as vow does, each with the reason.
    static let apart: [String: String] = [
        #"fetch https://api.example.com/items --header "X-Trace: it's 1" --curl"#: "the twin's fetch sends with node's fetch; it does not write --curl's command",
        "get http://example.com/a --proxy http://proxy.internal:3128 --curl": "the twin's fetch sends with node's fetch; it does not write --curl's command",
        #"echo '{"a": 1,}' | json"#: "node's JSON.parse words its errors its own way (the kind, json, and the status are the same)",
        "echo {a: 1} | pick 'a.['": "vow refuses the program before it runs (status 2); the twin of a refused stage throws when it is reached",
    ]

    func test_everyExampleRunsTheSameAsItsTwin() throws {
        var count = 0
        var differing: [String] = []
        for stage in StageRegistry.builtins.stages {
            for ex in stage.examples where !ex.needsServer && Self.apart[ex.source] == nil && Self.apartStages[stage.name] == nil {
                count += 1
                let vow = try runWithInput(REPLTests.binary, ["-c", ex.source], input: "")
                let twin = try runTwinOfBinary(ex.source)
                // A failing example fails the same way: the same first line, `error[kind]: message`.
                let firstLine = { (s: String) in s.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? "" }
                if twin.out != vow.out || (twin.status == 0) != (vow.status == 0) || (ex.fails && firstLine(twin.err) != firstLine(vow.err)) {
                    differing.append("\(stage.name): \(ex.source)\n  vow (\(vow.status)): \(vow.out.debugDescription) \(vow.err.prefix(200).debugDescription)\n  twin (\(twin.status)): \(twin.out.debugDescription) \(twin.err.prefix(300).debugDescription)")
                }
            }
        }
        XCTAssertGreaterThan(count, 100)
        XCTAssertTrue(differing.isEmpty, "\(differing.count) of \(count) examples differ from their twins:\n" + differing.joined(separator: "\n"))
    }
}
