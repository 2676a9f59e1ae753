// The one way the suite runs a program's JavaScript twin under node and holds it to vow's own
// run: in process (`runTwin`, the twin `Runner.emitJavaScript` writes) or through the binary
// (`runTwinOfBinary`, `vow --emit-js … | node -`), and the assertion that they agree.
import Foundation
import XCTest

@testable import VowShell

/// node running the twin of `source`, as `Runner.emitJavaScript` writes it: stdout and status.
func runTwin(_ source: String, name: String = "t") throws -> (out: String, status: Int32) {
    try runNode(Runner.emitJavaScript(source, name: name).output)
}

/// node running what `vow --emit-js [OPTIONS] -c SOURCE` prints (or `--emit-js PATH` for a
/// script file with `isPath`): stdout, stderr and status.
func runTwinOfBinary(_ source: String, isPath: Bool = false, input: String = "") throws -> (out: String, err: String, status: Int32) {
    let command = isPath ? "\"\(REPLTests.binary)\" --emit-js \"$0\" | node -" : "\"\(REPLTests.binary)\" --emit-js -c \"$0\" | node -"
    return try runWithInput("/bin/sh", ["-c", command, source], input: input)
}

/// Runs `source` in vow (JavaScript mode with `javaScript`) and its twin under node through the
/// binary, fails the test where their output or status differ, and returns vow's run.
@discardableResult
func assertTwinAgrees(
    _ source: String, javaScript: Bool = false, file: StaticString = #filePath, line: UInt = #line
) throws -> (out: String, err: String, status: Int32) {
    let vow = runVow(source, javaScript: javaScript)
    let twin = try runTwinOfBinary(source)
    XCTAssertEqual(twin.out, vow.out, "twin of: \(source)\n\(twin.err)", file: file, line: line)
    XCTAssertEqual(twin.status, vow.status, "twin of: \(source)\n\(twin.err)", file: file, line: line)
    return vow
}
