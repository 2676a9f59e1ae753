import Foundation
import XCTest

/// Output never fails silently: a write to standard output or error that fails (a full disk, a
/// closed descriptor) is an error with a non-zero status; a closed pipe stays quiet. And what a
/// statement prints is printed once, every result, empty strings too.
final class OutputFailureTests: BoundaryTestCase {
    func test_aFullDeviceIsAnError() throws {
        let r = try shell("\"$VOW\" -c 'echo hi' > /dev/full")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.err, "error[io]: cannot write to standard output: No space left on device\n")
        let emitted = try shell("\"$VOW\" --emit-js -c 'echo hi' > /dev/full")
        XCTAssertEqual(emitted.status, 1)
        XCTAssertTrue(emitted.err.contains("No space left on device"), emitted.err)
    }

    func test_aClosedStandardOutputIsAnError() throws {
        let r = try shell("\"$VOW\" -c 'echo hi' >&-")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.err, "error[io]: cannot write to standard output: Bad file descriptor\n")
        // Both closed: nothing can be said, but the status tells.
        XCTAssertEqual(try shell("\"$VOW\" -c 'echo hi' >&- 2>&-").status, 1)
    }

    /// A file system filled to the brim (a tmpfs of 1 MiB): jq's behaviour, status and words.
    func test_aFullFileSystemIsAnErrorAndStopsTheScript() throws {
        let dir = NSTemporaryDirectory() + "vow-full-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/full", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard try runCommand("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir + "/full"]).status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (not root)")
        }
        defer { _ = try? runCommand("umount", [dir + "/full"]) }
        let r = try shell("cd \(dir) && seq 1 300000 > seq.txt && \"$VOW\" -c \"$SOURCE\" > full/out.txt", environment: ["SOURCE": "read seq.txt\nrun touch after"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.err, "error[io]: cannot write to standard output: No space left on device\n")
        // The statement after the failed write did not run.
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/after"))
    }

    /// A reader that has all it wanted (`| head -1`): no error, as before.
    func test_aClosedPipeStaysQuiet() throws {
        let r = try shell("seq 1 300000 > /tmp/vow-seq-$$.txt; \"$VOW\" -c \"read /tmp/vow-seq-$$.txt\" | head -1; rm -f /tmp/vow-seq-$$.txt")
        XCTAssertEqual(r.out, "1\n")
        XCTAssertEqual(r.err, "")
    }

    /// `--json` prints one line for every result, an empty string as `""`.
    func test_jsonPrintsEmptyStrings() throws {
        XCTAssertEqual(try shell("\"$VOW\" --json -c 'echo \"\"'").out, "\"\"\n")
        XCTAssertEqual(try shell("\"$VOW\" --json -c \"echo [] | pick \\\"join('|', @)\\\"\"").out, "\"\"\n")
        XCTAssertEqual(try shell("\"$VOW\" --json -c 'run true'").out, "\"\"\n")
        // Without --json, a command that printed nothing still prints nothing.
        XCTAssertEqual(try shell("\"$VOW\" -c 'run true'").out, "")
    }

    /// A statement whose last stage printed its value prints nothing more, and its twin agrees.
    func test_printAtTheEndPrintsOnce() throws {
        XCTAssertEqual(try shell("\"$VOW\" -c 'print hello'").out, "hello\n")
        XCTAssertEqual(try shell("\"$VOW\" -c 'echo 5 | print \"got {}\"'").out, "got 5\n")
        XCTAssertEqual(try shell("\"$VOW\" -c 'echo [1, 2] | print'").out, "[\n  1,\n  2\n]\n")
        XCTAssertEqual(try shell("\"$VOW\" -c 'echo 5 | print \"got {}\" | then echo 6'").out, "got 5\n6\n")
        let twin = try shell("\"$VOW\" --emit-js -c \"$SOURCE\" | node -", environment: ["SOURCE": "print hello\necho 5 | print \"got {}\"\necho 7"])
        XCTAssertEqual(twin.out, "hello\ngot 5\n7\n", twin.err)
    }

    /// An append starts on a new line when the file does not end with one, as `>>` after `>`.
    func test_appendingAfterWriteStartsANewLine() throws {
        let dir = NSTemporaryDirectory() + "vow-append-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try shell(
            "cd \(dir) && \"$VOW\" -c \"$SOURCE\" >/dev/null && cat f",
            environment: ["SOURCE": "echo one | write f\necho two | write --append f\necho three | write --append f"])
        XCTAssertEqual(r.out, "one\ntwo\nthree\n", r.err)
        // The same through the twin, under node.
        let twin = try shell(
            "cd \(dir) && rm f && \"$VOW\" --emit-js -c \"$SOURCE\" | node - >/dev/null && cat f",
            environment: ["SOURCE": "echo one | write f\necho two | write --append f"])
        XCTAssertEqual(twin.out, "one\ntwo\n", twin.err)
    }
}
