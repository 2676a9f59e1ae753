// Script arguments declared with `arg` (defaults, a usage line when one is missing) and the
// environment as a value (`$env`), in vow and in its twin.
import Foundation
import XCTest

@testable import VowShell

final class ScriptArgumentTests: XCTestCase {
    let script = """
        let name = arg 1 NAME
        let times = arg 2 TIMES --default 2
        echo [$name, $times] | to-json
        """

    func write(_ text: String, _ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "vow-args-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func test_argumentsTheirDefaultsAndTheUsageLine() throws {
        let path = try write(script, "greet.vow")
        let both = try runWithInput(REPLTests.binary, [path, "Ada", "3"], input: "")
        XCTAssertEqual(both.out, "[\"Ada\",\"3\"]\n", both.err)
        let one = try runWithInput(REPLTests.binary, [path, "Ada"], input: "")
        XCTAssertEqual(one.out, "[\"Ada\",2]\n", one.err)
        let none = try runWithInput(REPLTests.binary, [path], input: "")
        XCTAssertEqual(none.status, 2)
        XCTAssertEqual(none.out, "")
        XCTAssertEqual(none.err, "usage: greet.vow NAME [TIMES]\n")
    }

    func test_theTwinReadsArgumentsAsVowDoes() throws {
        let path = try write(script, "greet.vow")
        let twin = try write(Runner.emitJavaScript(script, name: path).output, "greet.js")
        for args in [["Ada", "3"], ["Ada"], []] {
            let vow = try runWithInput(REPLTests.binary, [path] + args, input: "")
            let node = try runWithInput("/usr/bin/env", ["node", twin] + args, input: "")
            XCTAssertEqual(node.out, vow.out, "\(args)")
            XCTAssertEqual(node.err, vow.err, "\(args)")
            XCTAssertEqual(node.status, vow.status, "\(args)")
        }
    }

    func test_theEnvironmentIsAValue() throws {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        XCTAssertEqual(runVow("echo $env.HOME").out, home + "\n")
        XCTAssertEqual(runVow("echo \"${env.HOME}/x\"").out, home + "/x\n")
        XCTAssertEqual(runVow("let env = echo {HOME: mine}; echo $env.HOME").out, "mine\n")
        XCTAssertEqual(runVow("echo $env.VOW_SURELY_UNSET_VARIABLE | to-json").out, "null\n")
    }
}
