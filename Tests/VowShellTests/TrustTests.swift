import Foundation
import TestSupport
import XCTest

@testable import VowRuntime
@testable import VowShell
import VowValue

/// Trust at the edges: files are never clobbered or half-written, nothing from outside reaches a
/// terminal with raw control bytes, secrets stay masked, and endless definitions end in an error.
final class TrustTests: ServerTestCase {
    func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vow-trust-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    func isCharacterDevice(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR
    }

    /// A newline in a path is shown as `\n` in an error, never as a line break.
    func test_aNewlineInAPathIsShownEscaped() {
        let r = runVow(#"read "/nonexistent/a\nb""#)
        XCTAssertTrue(r.err.contains(#"cannot read /nonexistent/a\nb: no such file or directory"#), r.err)
    }

    /// `read` is capped as `fetch` is: a 4 GiB sparse file is refused before a byte is read
    /// (vow's resident memory stays small), `--max-size` moves the cap, `--stream` reads any
    /// size; the twin refuses alike under node.
    func test_readIsCapped() throws {
        let dir = try temporaryDirectory()
        let big = dir + "/sparse.bin"
        XCTAssertEqual(truncate(big, 0), -1)  // not there yet
        XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: nil))
        XCTAssertEqual(truncate(big, 4 << 30), 0)
        let r = try runWithInput("/usr/bin/time", ["-f", "maxrss=%M", REPLTests.binary, "-c", "read \(big) | len"], input: "")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("\(big) is 4294967296 bytes, over the limit of 1073741824 bytes (--max-size); --stream reads it"), r.err)
        let rss = r.err.split(separator: "\n").compactMap { $0.hasPrefix("maxrss=") ? Int($0.dropFirst(7)) : nil }.first ?? .max
        XCTAssertLessThan(rss, 200_000, "resident memory in KiB: \(rss)")
        try "hello\n".write(toFile: dir + "/small.txt", atomically: true, encoding: .utf8)
        XCTAssertEqual(runVow("read \(dir)/small.txt --max-size 6 | len").out, "6\n")
        XCTAssertEqual(runVow("read \(dir)/small.txt --max-size 3").status, 1)
        let twin = try runWithInput(
            "/bin/sh", ["-c", "\"\(REPLTests.binary)\" --emit-js -c 'read \(dir)/small.txt --max-size 3 | catch pick message' | node -"], input: "")
        XCTAssertEqual(twin.out, "\(dir)/small.txt is 6 bytes, over the limit of 3 bytes (--max-size); --stream reads it line by line in bounded memory\n", twin.err)
    }

    /// Bidirectional overrides and isolates in data are shown, not obeyed, by everything that
    /// prints to a terminal (a result, `pick`, `table`, `print`), on a real pseudo-terminal.
    func test_bidiControlsAreVisibleOnATerminal() throws {
        let name = "invoice\u{202E}fdp.exe"
        for source in [
            "echo '\(name)'", "echo {f: '\(name)'} | pick f", "echo [{f: '\(name)'}] | table", "print '\(name)'",
            "echo 'a\u{2066}b\u{2069}c'", "echo ['\(name)']", "echo '[\"a\u{2066}b\"]' | json",
        ] {
            let t = try PseudoTerminal(REPLTests.binary, ["-c", source])
            XCTAssertEqual(t.waitExit(), 0, source)
            XCTAssertFalse(t.output.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }, source)
            XCTAssertTrue(["\\u{202e}", "\\u{2066}", "\\u202e", "\\u2066"].contains { t.output.contains($0) }, "\(source): \(t.output.debugDescription)")
        }
        // Piped, text passes byte for byte; JSON escapes them, as it does U+2028 (still valid JSON).
        XCTAssertEqual(runVow("echo '\(name)'").out, name + "\n")
        XCTAssertEqual(runVow("echo ['\(name)'] | to-json").out, #"["invoice\u202efdp.exe"]"# + "\n")
        XCTAssertEqual(runVow("echo '[\"a\u{2066}b\u{2069}\"]' | json | to-json").out, #"["a\u2066b\u2069"]"# + "\n")
    }

    /// A file name that is not valid UTF-8 is listed by `glob` with its bytes kept, so the name
    /// listed opens the file (`read`, `run`, `write` to a name made from it); on a terminal and in
    /// errors its bad bytes show as `\xff`.
    func test_fileNamesThatAreNotUTF8KeepTheirBytes() throws {
        let dir = try temporaryDirectory()
        let bad: [UInt8] = Array("bad".utf8) + [0xFF] + Array("name.txt".utf8)
        let path = Array(dir.utf8) + [UInt8(ascii: "/")] + bad
        let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = "hi\n".withCString { write(fd, $0, 3) }
        close(fd)
        try "ok\n".write(toFile: dir + "/caf\u{e9}.txt", atomically: true, encoding: .utf8)
        XCTAssertEqual(runVow("glob '\(dir)/*.txt' | each read | to-json").out, #"["hi\n","ok\n"]"# + "\n")
        XCTAssertEqual(runVow("let f = glob '\(dir)/bad*' | pick '[0]'\nrun cat $f | lines | to-json").out, #"["hi"]"# + "\n")
        let copy = runVow("let f = glob '\(dir)/bad*' | pick '[0]'\necho copied | write \"${f}.copy\"")
        XCTAssertEqual(copy.status, 0, copy.err)
        let copied = open((path + Array(".copy".utf8)).map { CChar(bitPattern: $0) } + [0], O_RDONLY)
        XCTAssertGreaterThanOrEqual(copied, 0, "the copy is named with the original's bytes")
        close(copied)
        let missing = runVow("let f = glob '\(dir)/bad*' | pick '[0]'\nread \"$f.gone\"")
        XCTAssertTrue(missing.err.contains("cannot read \(dir)/bad\\xffname.txt.gone: no such file or directory"), missing.err)
        let t = try PseudoTerminal(REPLTests.binary, ["-c", "glob '\(dir)/bad*' | pick '[0]'"])
        XCTAssertEqual(t.waitExit(), 0)
        XCTAssertTrue(t.output.contains("bad\\xffname.txt"), t.output.debugDescription)
    }

    /// Bytes that break UTF-8 in a name, each kept as its own character and given back as it was.
    func test_fileNameBytesRoundTrip() {
        for bytes: [UInt8] in [
            [0x61, 0xFF, 0x62], [0xC3, 0xA9], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xE2, 0x82], [0x80, 0x61], Array("plain".utf8),
        ] {
            let name = FileName.decode(bytes)
            XCTAssertEqual(FileName.system(name).dropLast().map { UInt8(bitPattern: $0) }, bytes, "\(bytes)")
        }
        XCTAssertEqual(FileName.decode([0xC3, 0xA9] as [UInt8]), "\u{e9}")
        XCTAssertEqual(FileName.decode([0xC0, 0xAF] as [UInt8]).unicodeScalars.count, 2, "an overlong form is two bytes")
        XCTAssertEqual(TerminalText.visible(FileName.decode([0x61, 0xFF] as [UInt8])), "a\\xff")
    }

    /// `write` onto a device writes through it and reports its failure; the device stays one.
    func test_writeGoesThroughDevices() throws {
        let full = runVow("echo hello | write /dev/full")
        XCTAssertEqual(full.status, 1)
        XCTAssertTrue(full.err.contains("cannot write /dev/full: no space left on device"), full.err)
        XCTAssertTrue(isCharacterDevice("/dev/full"))
        XCTAssertEqual(runVow("echo hello | write /dev/null").status, 0)
        XCTAssertTrue(isCharacterDevice("/dev/null"))
        // A copy of /dev/null (as root: a device node of the test's own) under --output too.
        let dir = try temporaryDirectory()
        if getuid() == 0, mknod("\(dir)/null", S_IFCHR | 0o666, (1 << 8) | 3) == 0 {
            XCTAssertEqual(vow("fetch $base/echo --output \(dir)/null | pick bytes").status, 0)
            XCTAssertTrue(isCharacterDevice("\(dir)/null"), "--output replaced a device")
            XCTAssertEqual(runVow("echo hi | write \(dir)/null").status, 0)
            XCTAssertTrue(isCharacterDevice("\(dir)/null"), "write replaced a device")
        }
        // A FIFO is written through, as shell redirection does.
        XCTAssertEqual(mkfifo("\(dir)/fifo", 0o600), 0)
        let received = VowRuntime.Locked([UInt8]())
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            let fd = open("\(dir)/fifo", O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 64)
            while fd >= 0 {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                received.withLock { $0 += buffer[0..<n] }
            }
            close(fd)
            done.signal()
        }
        reader.start()
        XCTAssertEqual(runVow("echo through | write \(dir)/fifo").status, 0)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(String(decoding: received.withLock { $0 }, as: UTF8.self), "through\n")
        var info = stat()
        XCTAssertEqual(stat("\(dir)/fifo", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)
    }

    /// A file is replaced whole: the old one keeps its mode, a symbolic link is followed to its
    /// file, and a failing stream leaves the old contents.
    func test_writeReplacesFilesWhole() throws {
        let dir = try temporaryDirectory()
        let file = "\(dir)/out.txt"
        try "old\n".write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o640)
        XCTAssertEqual(runVow("echo new | write \(file)").status, 0)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "new\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int, 0o640)
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/link.txt", withDestinationPath: file)
        XCTAssertEqual(runVow("echo via | write \(dir)/link.txt").status, 0)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "via\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/link.txt"), file)
        // A stream that fails half-way leaves the old file, and no temporary file behind.
        let failed = runVow("run sh -c 'echo one; echo two; exit 3' --stream | write \(file)")
        XCTAssertEqual(failed.status, 1, failed.err)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "via\n")
        XCTAssertEqual(runVow("run sh -c 'echo one; echo two' --stream | write \(file) | to-json").out, "2\n")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "one\ntwo\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["link.txt", "out.txt"])
    }

    /// A symbolic link planted at FILE.part is not followed by --output.
    func test_aPlantedPartLinkIsNotFollowed() throws {
        let dir = try temporaryDirectory()
        try "precious\n".write(toFile: "\(dir)/victim", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/out.bin.part", withDestinationPath: "\(dir)/victim")
        let r = vow("fetch $base/echo --output \(dir)/out.bin")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("is a symbolic link, which is not followed"), r.err)
        XCTAssertEqual(try String(contentsOfFile: "\(dir)/victim", encoding: .utf8), "precious\n")
    }

    /// A JSON file whose string holds raw escape sequences: the error excerpt shows them made
    /// visible, on a terminal or not; `print` on a terminal shows them visible too.
    func test_escapeSequencesFromOutsideAreMadeVisible() throws {
        let dir = try temporaryDirectory()
        try "{\"a\": \"x\u{1B}]0;PWNED\u{07}\u{1B}[2J".write(toFile: "\(dir)/evil.json", atomically: false, encoding: .utf8)
        let r = runVow("read \(dir)/evil.json | json")
        XCTAssertEqual(r.status, 1)
        XCTAssertFalse(r.err.contains("\u{1B}") || r.err.contains("\u{07}"), r.err)
        XCTAssertTrue(r.err.contains("\\u{1b}]0;PWNED\\u{7}"), r.err)
        // print and tap write text raw into a pipe, visible on a terminal.
        let out = VowRuntime.Locked("")
        var options = SessionOptions()
        options.variables = ["f": .string("\(dir)/evil.json")]
        let session = Session(output: OutputSink { s in out.withLock { $0 += s } }, diagnostics: OutputSink { _ in }, options: options)
        defer { session.http.shutdown() }
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false, terminal: true), errors: { _ in })
        XCTAssertEqual(runner.run("read $f | print | tap | len", name: "<test>"), 0)
        XCTAssertFalse(out.withLock { $0 }.contains("\u{1B}"), out.withLock { $0 })
    }

    /// `--verbose` masks every header whose name says it holds a secret.
    func test_verboseMasksSecretHeaders() {
        let r = vow(#"fetch $base/echo --verbose --header 'X-Api-Key: k3y' --header 'X-Auth-Token: t0k' --header 'X-Client-Secret: s3c' --header 'X-Trace: visible'"#)
        XCTAssertEqual(r.status, 0, r.err)
        for secret in ["k3y", "t0k", "s3c"] { XCTAssertFalse(r.err.contains(secret), r.err) }
        XCTAssertTrue(r.err.contains("X-Api-Key: ***"), r.err)
        XCTAssertTrue(r.err.contains("X-Trace: visible"), r.err)
    }

    /// A def that calls itself without end rejects with kind recursion, in a turn or across turns.
    func test_endlessDefinitionsEndInAnError() {
        for source in ["def f() = f\nf", "def f() = (echo 1 | f)\nf", "def f() = g\ndef g() = (f | then echo 1)\nf"] {
            let r = runVow(source)
            XCTAssertEqual(r.status, 1, source)
            XCTAssertTrue(r.err.contains("error[recursion]: stage"), "\(source): \(r.err)")
            XCTAssertLessThan(r.err.count, 2000, "the context repeats itself")
        }
        XCTAssertEqual(runVow("def f() = f\nf | catch pick kind").out, "recursion\n")
    }

    /// `len` counts a stream's items without keeping them.
    func test_lenCountsAStream() throws {
        let dir = try temporaryDirectory()
        try (1...5000).map(String.init).joined(separator: "\n").write(toFile: "\(dir)/n.txt", atomically: false, encoding: .utf8)
        XCTAssertEqual(runVow("read \(dir)/n.txt --stream | len").out, "5000\n")
        XCTAssertEqual(runVow("read \(dir)/n.txt --stream | take 7 | len").out, "7\n")
    }
}
