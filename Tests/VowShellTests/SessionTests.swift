import Foundation
import TestSupport
import VowValue
import XCTest

@testable import VowRuntime

/// `--session NAME`: cookies (RFC 6265) and headers kept across runs in a file of mode 0600,
/// against the fixture server; the cookie jar's rules one by one.
final class SessionTests: ServerTestCase {
    var config: URL!
    var saved: String?

    override func setUpWithError() throws {
        config = FileManager.default.temporaryDirectory.appendingPathComponent("vow-sessions-\(UUID().uuidString)")
        saved = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
        setenv("XDG_CONFIG_HOME", config.path, 1)
    }

    override func tearDownWithError() throws {
        if let saved { setenv("XDG_CONFIG_HOME", saved, 1) } else { unsetenv("XDG_CONFIG_HOME") }
        try? FileManager.default.removeItem(at: config)
    }

    func test_cookiesLastAcrossRuns() throws {
        // The cookie comes on a redirect (set → /cookies): it is already sent on the next hop.
        XCTAssertEqual(vow(#"fetch "$base/cookies/set?k=v" --session s1 | json | pick cookies.k"#).out, "v\n")
        XCTAssertEqual(vow("fetch $base/cookies --session s1 | json | pick cookies.k").out, "v\n")
        // Without the session, or with another, nothing is sent.
        XCTAssertEqual(vow("fetch $base/cookies | json | pick cookies.k").out, "null\n")
        XCTAssertEqual(vow("fetch $base/cookies --session s2 | json | pick cookies.k").out, "null\n")
        // The server expires it: gone from the session too.
        XCTAssertEqual(vow(#"fetch "$base/cookies/delete?k" --session s1 | json | pick cookies.k"#).out, "null\n")
        XCTAssertEqual(vow("fetch $base/cookies --session s1 | json | pick cookies.k").out, "null\n")
    }

    /// 20 vow processes at once, each setting a cookie of its own in one session: every one is
    /// kept (each save merges what its run changed into the file, under a lock).
    func test_concurrentRunsLoseNoUpdate() throws {
        var runs: [Process] = []
        for i in 0..<20 {
            runs.append(try startVow("fetch \"\(base)/cookies/set?c\(i)=v\(i)\" --session shared | status"))
        }
        for p in runs {
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0)
        }
        let r = vow("fetch $base/cookies --session shared | json | pick 'length(keys(cookies))'")
        XCTAssertEqual(r.out, "20\n", r.err)
    }

    /// A hand edit made while a run goes on is kept when the run saves.
    func test_aHandEditDuringARunIsKept() throws {
        let file = config.appendingPathComponent("vow/sessions/edited.json").path
        let edit = config.appendingPathComponent("edit.py").path
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
            import json, sys
            f = sys.argv[1]
            d = json.load(open(f))
            d["headers"].append({"name": "X-Hand", "value": "1", "origin": "http://example.invalid:80"})
            json.dump(d, open(f, "w"))
            """.write(toFile: edit, atomically: true, encoding: .utf8)
        let r = vow(#"fetch "$base/cookies/set?a=1" --session edited | status"# + "\nrun python3 \(edit) \(file)\n" + #"fetch "$base/cookies/set?b=2" --session edited | status"#)
        XCTAssertEqual(r.status, 0, r.err)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.contains("X-Hand"), text)
        XCTAssertTrue(text.contains("\"a\"") && text.contains("\"b\""), text)
    }

    /// What is in the way of the session directory, and why a write failed, are said in words.
    func test_aConfigDirectoryThatIsAFileIsNamed() throws {
        let blocker = config.appendingPathComponent("blocker").path
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        setenv("XDG_CONFIG_HOME", blocker, 1)
        let r = vow(#"fetch "$base/cookies/set?a=1" --session s"#)
        XCTAssertTrue(r.err.contains("\(blocker) is: not a directory"), r.err)
        XCTAssertFalse(r.err.contains("NSCocoaErrorDomain"), r.err)
    }

    func test_theFileIsPrivate() throws {
        _ = vow(#"fetch "$base/cookies/set?k=v" --session s1"#)
        let dir = config.appendingPathComponent("vow/sessions")
        let file = dir.appendingPathComponent("s1.json")
        let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir.path)[.posixPermissions] as? Int
        XCTAssertEqual(fileMode, 0o600)
        XCTAssertEqual(dirMode, 0o700)
    }

    func test_headersGivenWithTheSessionAreKept() {
        _ = vow(#"fetch $base/echo --session api --bearer s3cret --header "X-Team: blue""#)
        let later = vow(#"fetch $base/echo --session api | json | pick '[headers.authorization, headers."x-team"]' | to-json"#)
        XCTAssertEqual(later.out, #"["Bearer s3cret","blue"]"# + "\n", later.err)
        // A header given again replaces the stored one.
        _ = vow(#"fetch $base/echo --session api --header "X-Team: red""#)
        XCTAssertEqual(vow(#"fetch $base/echo --session api | json | pick 'headers."x-team"'"#).out, "red\n")
    }

    func test_readOnlyUsesWithoutUpdating() {
        _ = vow(#"fetch "$base/cookies/set?a=1" --session s1"#)
        XCTAssertEqual(vow(#"fetch "$base/cookies/set?b=2" --session-read-only s1 | json | pick cookies | to-json"#).out, #"{"a":"1","b":"2"}"# + "\n")
        XCTAssertEqual(vow("fetch $base/cookies --session s1 | json | pick cookies | to-json").out, #"{"a":"1"}"# + "\n")
    }

    func test_secretsAreMaskedInTheSessionView() {
        _ = vow(#"fetch "$base/cookies/set?token=abcdef" --session s1 --bearer s3cret"#)
        let shown = vow(":session s1")
        XCTAssertFalse(shown.out.contains("s3cret"), shown.out)
        XCTAssertFalse(shown.out.contains("abcdef"), shown.out)
        XCTAssertTrue(shown.out.contains("\"name\": \"token\""), shown.out)
        XCTAssertTrue(shown.out.contains("<6 characters>"), shown.out)
    }

    func test_badSessionsAreNamed() throws {
        XCTAssertTrue(vow("fetch $base/echo --session 'x y'").err.contains("is not a session name"))
        let dir = config.appendingPathComponent("vow/sessions")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "not json".write(to: dir.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let r = vow("fetch $base/echo --session broken")
        XCTAssertTrue(r.err.contains("is not a vow session file"), r.err)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("broken.json"), encoding: .utf8), "not json", "a broken file was overwritten")
    }

    /// A session's headers belong to the origin they were given for: another port, or the same
    /// server named `localhost`, gets none of them, unless `--session-all-origins` says so;
    /// cookies keep their own scoping.
    func test_headersGoOnlyToTheirOrigin() throws {
        let other = try FixtureServer.start()
        defer { other.shutdown() }
        let vars: [String: Value] = ["base": .string(base), "other": .string(other.base)]
        func run(_ source: String) -> (out: String, err: String, status: Int32) { runVow(source, variables: vars) }
        _ = run(#"fetch $base/echo --session s --header 'X-Api-Key: k1' --bearer t0k"#)
        let pick = #"| json | pick '[headers."x-api-key", headers.authorization]' | to-json"#
        XCTAssertEqual(run("fetch $base/echo --session s " + pick).out, #"["k1","Bearer t0k"]"# + "\n")
        XCTAssertEqual(run("fetch $other/echo --session s " + pick).out, "[null,null]\n")
        let port = base.split(separator: ":").last!
        XCTAssertEqual(run("fetch http://localhost:\(port)/echo --session s " + pick).out, "[null,null]\n")
        XCTAssertEqual(run("fetch $other/echo --session s --session-all-origins " + pick).out, #"["k1","Bearer t0k"]"# + "\n")
        // Headers given for the other origin are its own, and do not replace the first origin's.
        _ = run(#"fetch $other/echo --session s --header 'X-Api-Key: k2'"#)
        XCTAssertEqual(run("fetch $other/echo --session s " + pick).out, #"["k2",null]"# + "\n")
        XCTAssertEqual(run("fetch $base/echo --session s " + pick).out, #"["k1","Bearer t0k"]"# + "\n")
        // A redirect to another origin does not carry them either.
        let hop = run(#"fetch "$base/redirect-to?url=$other/echo" --session s | json | pick 'headers."x-api-key"'"#)
        XCTAssertEqual(hop.out, "null\n", hop.err)
    }

    /// A session file written before headers had an origin: its headers are shown, sent nowhere.
    func test_headersWithoutAnOriginAreNotSent() throws {
        let dir = config.appendingPathComponent("vow/sessions")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try #"{"vow": 1, "headers": [{"name": "X-Api-Key", "value": "old"}], "cookies": []}"#
            .write(to: dir.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(vow(#"fetch $base/echo --session old | json | pick 'headers."x-api-key"'"#).out, "null\n")
        let shown = vow(":session old").out
        XCTAssertTrue(shown.contains("unknown origin"), shown)
        XCTAssertFalse(shown.contains("old\""), shown)
    }
}
