import Foundation
import XCTest

/// vow's own command line (`CommandLineOptions`): the options, anywhere among the arguments,
/// `--name=value`, `--`, help and version, and the errors (status 64) of one that cannot be read.
final class CommandLineTests: XCTestCase {
    func run(_ arguments: [String]) throws -> (out: String, err: String, status: Int32) {
        try runWithInput(REPLTests.binary, arguments, input: "")
    }

    func test_helpAndVersion() throws {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.hasPrefix("OVERVIEW: An interactive shell for asynchronous work"), help.out)
        XCTAssertTrue(help.out.contains("USAGE: vow [-c <SOURCE>] [--json]"), help.out)
        XCTAssertTrue(help.out.contains("  --color <WHEN>          Colour: auto, always or never. (default: auto)\n"), help.out)
        XCTAssertEqual(try run(["-c", "echo 1", "-h"]).out, help.out)
        XCTAssertEqual(try run(["--version"]).out, "vow 0.1.0\n")
    }

    func test_optionsAnywhereWithTheirValuesAttachedOrNot() throws {
        XCTAssertEqual(try run(["-c", "echo {a: 1}", "--json"]).out, "{\"a\":1}\n")
        XCTAssertEqual(try run(["--json", "-c", "echo {a: 1}"]).out, "{\"a\":1}\n")
        XCTAssertEqual(try run(["-cecho 2"]).out, "2\n")
        XCTAssertEqual(try run(["--color=never", "-c", "echo 3"]).out, "3\n")
        // With -c, the other arguments are the script's; after `--` even those with a dash.
        XCTAssertEqual(try run(["-c", "echo [$1, $2] | to-json", "a", "b"]).out, "[\"a\",\"b\"]\n")
        XCTAssertEqual(try run(["-c", "echo $1", "--", "-x"]).out, "-x\n")
        let dir = NSTemporaryDirectory() + "vow-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = dir + "/s.vow"
        try "echo {first: $1}\n".write(toFile: script, atomically: true, encoding: .utf8)
        // vow's options go before a script's path; every word after it is the script's.
        XCTAssertEqual(try run(["--json", script, "one"]).out, "{\"first\":\"one\"}\n")
        XCTAssertEqual(try run([script, "one", "--json"]).out, "{\n  \"first\": \"one\"\n}\n")
    }

    func test_aCommandLineThatCannotBeReadEndsWithStatus64() throws {
        let usage = "Usage: vow [-c <SOURCE>] [--json] [--trace <FILE>] [--turns] [--html <FILE>] [--js] [--emit-js] [--emit-js-to <FILE>] [--color <WHEN>] [<script> ...]\n  See 'vow --help' for more information.\n"
        let unknown = try run(["--bogus"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.err, "Error: Unknown option '--bogus'\n" + usage)
        let missing = try run(["-c"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.err, "Error: Missing value for '-c <SOURCE>'\nHelp:  -c <SOURCE>  Run SOURCE instead of a file.\n" + usage)
        // A value that looks like an option is not taken as one.
        XCTAssertEqual(try run(["-c", "--json"]).status, 64)
        let color = try run(["--color", "bad", "-c", "echo 1"])
        XCTAssertEqual(color.status, 64)
        XCTAssertEqual(color.err, "Error: --color must be auto, always or never\n" + usage)
        XCTAssertEqual(try run(["-x"]).err, "Error: Unknown option '-x'\n" + usage)
    }
}
