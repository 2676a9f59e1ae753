import Foundation
import XCTest

@testable import VowShell
import VowValue

/// `vow --html FILE` and `:timeline --html FILE`: the page of a run, built by the `vow` binary
/// from a real script, then loaded, stepped and screenshotted in headless Chromium.
final class HTMLPageTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "vow-html-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs the binary with `arguments`; stdout, stderr and status.
    func vow(_ arguments: [String]) throws -> (out: String, err: String, status: Int32) {
        try runWithInput(REPLTests.binary, arguments, input: "")
    }

    /// The page's embedded run, parsed.
    func embedded(_ page: String) throws -> Record {
        let open = #"<script type="application/json" id="vow-data">"#
        let start = try XCTUnwrap(page.range(of: open), "no data block")
        let end = try XCTUnwrap(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        guard case .record(let r) = try JSON.parse(String(page[start.upperBound..<end.lowerBound])) else {
            throw XCTSkip("the data block is not a record")
        }
        return r
    }

    /// Checks that `page` loads nothing from elsewhere.
    func assertSelfContained(_ page: String, file: StaticString = #filePath, line: UInt = #line) {
        let lower = page.lowercased()
        for attribute in ["src", "href", "xmlns"] {
            for quote in ["\"", "'", ""] {
                for scheme in ["http://", "https://", "//"] {
                    XCTAssertFalse(lower.contains("\(attribute)=\(quote)\(scheme)"), "\(attribute)=\(quote)\(scheme) in the page", file: file, line: line)
                }
            }
        }
        XCTAssertFalse(lower.contains("<link"), "a <link> in the page", file: file, line: line)
        XCTAssertFalse(lower.contains("@import"), "an @import in the page", file: file, line: line)
        XCTAssertFalse(lower.contains("<script src"), "a script from elsewhere", file: file, line: line)
    }

    func test_pageOfLessonAllHoldsTheGraphTheTurnsAndTheTimeline() throws {
        let path = directory + "/all.html"
        let r = try vow(["--html", path, projectRoot.appendingPathComponent("examples/lessons/06-all.vow").path])
        XCTAssertEqual(r.status, 0, r.err)
        // The script runs as usual, its output printed as usual.
        XCTAssertEqual(r.out, "[\"a\",\"b\",\"c\"]\nsimulated failure (seed 1, attempt 1)\n")
        let page = try String(contentsOfFile: path, encoding: .utf8)
        assertSelfContained(page)
        let data = try embedded(page)
        guard case .list(let promises)? = data["promises"], case .list(let edges)? = data["edges"],
              case .list(let turns)? = data["turns"], case .list(let timeline)? = data["timeline"] else {
            return XCTFail("missing parts: \(data.keys)")
        }
        let labels = promises.compactMap { $0["label"]?.stringValue }
        // Both statements are on the page.
        XCTAssertTrue(labels.contains("sim --delay 30ms a"), "\(labels)")
        XCTAssertTrue(labels.contains("sim --delay 10ms --fail 1.0 x"), "\(labels)")
        let states = Dictionary(promises.compactMap { p in p["label"]?.stringValue.map { ($0, p["state"]?.stringValue ?? "") } }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(states["sim --delay 30ms a"], "fulfilled")
        XCTAssertEqual(states["sim --delay 10ms --fail 1.0 x"], "rejected")
        XCTAssertEqual(states["sim --delay 50ms slow"], "cancelled")
        let kinds = Set(edges.compactMap { $0["kind"]?.stringValue })
        XCTAssertTrue(kinds.contains("input"), "\(kinds)")
        XCTAssertTrue(kinds.contains("chain"), "\(kinds)")
        XCTAssertGreaterThan(turns.count, 3)
        XCTAssertEqual(turns.first?["title"]?.stringValue, "start: the statements begin")
        XCTAssertTrue(timeline.contains { $0["label"]?.stringValue == "sim --delay 50ms slow" && $0["outcome"]?.stringValue == "cancelled" })
    }

    func test_adoptionIsAnEdgeOfItsOwn() throws {
        let path = directory + "/adopt.html"
        let r = try vow(["--html", path, "-c", "resolve 1 | then (sim --delay 5ms 2) | then print"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out, "2\n2\n")
        let data = try embedded(try String(contentsOfFile: path, encoding: .utf8))
        guard case .list(let edges)? = data["edges"] else { return XCTFail("no edges") }
        XCTAssertTrue(edges.contains { $0["kind"]?.stringValue == "adopt" }, "\(edges)")
    }

    /// Text from the run cannot end the data block or start markup: not in a value, not in the
    /// title (the -c source).
    func test_hostileTextStaysInsideTheData() throws {
        let path = directory + "/hostile.html"
        let evil = "</script><script>alert(1)</script><!-- & \\u0007"
        let r = try vow(["--html", path, "-c", "echo \"\(evil)\" | print"])
        XCTAssertEqual(r.status, 0, r.err)
        let page = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(page.contains("alert(1)</script>"), "the value broke out")
        XCTAssertFalse(page.contains("<!--"), "a comment opened")
        XCTAssertEqual(page.components(separatedBy: "<script").count - 1, 2, "only the page's two script elements")
        let data = try embedded(page)
        XCTAssertTrue(data["title"]?.stringValue?.contains(evil) == true, "the title is kept as text")
        guard case .list(let promises)? = data["promises"] else { return XCTFail("no promises") }
        XCTAssertTrue(promises.contains { $0["outcome"]?.stringValue?.contains("</script><script>alert(1)") == true }, "\(promises)")
        guard let chromium = Chromium.path else { throw XCTSkip(Chromium.missing) }
        let dom = try Chromium.dumpDOM(chromium, file: path)
        XCTAssertEqual(dom.console, [], "console messages")
        XCTAssertTrue(dom.html.contains(#"data-ready="yes""#), "the page's script did not finish")
        XCTAssertFalse(dom.html.contains("<script>alert(1)"), "the value became markup")
    }

    /// The data block's JSON: nothing that ends a script element or opens a comment, no control
    /// characters, and the same value read back.
    func test_scriptSafeJSONKeepsEveryCharacterInsideTheString() throws {
        let text = "</script><!--<script>&\u{0}\u{7}\u{1B}[31m\u{85}\u{2028}\u{2029}\n\"'é"
        let json = HTMLPage.scriptSafeJSON(.record(["v": .string(text)]))
        for bad in ["<", ">", "&", "\u{0}", "\u{7}", "\u{1B}", "\u{85}", "\u{2028}", "\u{2029}", "\n"] {
            XCTAssertFalse(json.contains(bad), "\(bad.debugDescription) in \(json)")
        }
        XCTAssertEqual(try JSON.parse(json), .record(["v": .string(text)]))
        XCTAssertEqual(HTMLPage.escapeHTML("<a href='x'>&\"\u{7}</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\u{FFFD}&lt;/a&gt;")
    }

    func test_pageLoadsInChromiumAndStepsToATurn() throws {
        guard let chromium = Chromium.path else { throw XCTSkip(Chromium.missing) }
        let path = directory + "/race.html"
        let r = try vow(["--html", path, "-c", "race [sim --delay 20ms a, sim --delay 5ms b] | then print won"])
        XCTAssertEqual(r.status, 0, r.err)
        let data = try embedded(try String(contentsOfFile: path, encoding: .utf8))
        guard case .list(let turns)? = data["turns"] else { return XCTFail("no turns") }
        let third = try XCTUnwrap(turns.first { $0["number"] == .int(3) && $0["internal"] == .bool(false) }, "no turn 3")
        let title = try XCTUnwrap(third["title"]?.stringValue)

        let start = try Chromium.dumpDOM(chromium, file: path)
        XCTAssertEqual(start.console, [], "console messages")
        XCTAssertTrue(start.html.contains(#"data-ready="yes""#), "the page's script did not finish")
        XCTAssertTrue(start.html.contains(#"data-turn="0""#), "the page opens at the start")
        XCTAssertTrue(start.html.contains("class=\"node "), "no graph nodes")
        XCTAssertTrue(start.html.contains("class=\"bar "), "no timeline bars")

        let stepped = try Chromium.dumpDOM(chromium, file: path, fragment: "turn=3")
        XCTAssertEqual(stepped.console, [], "console messages")
        XCTAssertTrue(stepped.html.contains(#"data-turn="3""#), "the stepper is not at turn 3")
        XCTAssertTrue(stepped.html.contains(">turn 3 · j"), "turn 3's heading")
        XCTAssertTrue(stepped.html.contains("<p id=\"turn-title\">\(HTMLPage.escapeHTML(title).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'"))</p>"), "turn 3's title: \(title)")
        XCTAssertTrue(stepped.html.contains("touched"), "turn 3 highlights no promise")

        // The keys and the buttons step: → twice, Enter, ← once and "next" once is the fourth step.
        let keyed = directory + "/keyed.html"
        let keys = """
            <script>
            for (const key of ["ArrowRight", "ArrowRight", "Enter", "ArrowLeft"]) document.dispatchEvent(new KeyboardEvent("keydown", { key }));
            document.getElementById("next").click();
            </script>
            </body>
            """
        try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "</body>", with: keys).write(toFile: keyed, atomically: true, encoding: .utf8)
        let moved = try Chromium.dumpDOM(chromium, file: keyed)
        XCTAssertEqual(moved.console, [], "console messages")
        XCTAssertTrue(moved.html.contains(#"data-step="4""#), "keys and buttons did not step")
    }

    /// The page for a class, on the nested-timers puzzle: the start fades only what later turns
    /// make, the console holds all output so far (this turn's marked), the timers not yet due
    /// are listed, and the timeline's axis is the turns.
    func test_thePageForAClassStepsByTurnsWithARunningConsole() throws {
        guard let chromium = Chromium.path else { throw XCTSkip(Chromium.missing) }
        let path = directory + "/timers.html"
        let r = try vow(["--js", "--html", path, projectRoot.appendingPathComponent("examples/puzzles/nested-timers.vow").path])
        XCTAssertEqual(r.status, 0, r.err)
        func node(_ html: String, _ id: Int) -> String? {
            guard let at = html.range(of: "data-id=\"\(id)\"") else { return nil }
            let before = html[..<at.lowerBound]
            guard let open = before.range(of: "<g ", options: .backwards) else { return nil }
            return String(html[open.lowerBound..<at.upperBound])
        }
        let start = try Chromium.dumpDOM(chromium, file: path)
        XCTAssertEqual(start.console, [], "console messages")
        XCTAssertTrue(start.html.contains(#"data-turn="0""#))
        XCTAssertFalse(node(start.html, 1)?.contains("future") ?? true, "p1, made in the start, is faded at the start: \(node(start.html, 1) ?? "no node")")
        XCTAssertTrue(node(start.html, 15)?.contains("future") ?? false, "p15, made in turn 4, is not faded at the start")
        XCTAssertTrue(start.html.contains("<li>p11 due 2 ms after the start</li>"), "the timers of the start")
        XCTAssertTrue(start.html.contains(#"<pre id="console"></pre>"#), "nothing printed before the first turn")

        let nine = try Chromium.dumpDOM(chromium, file: path, fragment: "turn=9")
        XCTAssertEqual(nine.console, [], "console messages")
        XCTAssertTrue(nine.html.contains(#"<pre id="console"><span>sync first"#), "the console keeps what turn 1 printed")
        XCTAssertTrue(nine.html.contains("<span>a\n</span><span>b\n</span></pre>"), "the console at turn 9")
        XCTAssertTrue(nine.html.contains("<li>p15 due 1 ms after turn 4</li>"), "the timers at turn 9")
        XCTAssertFalse(node(nine.html, 15)?.contains("future") ?? true, "p15 is made by turn 9")
        let seven = try Chromium.dumpDOM(chromium, file: path, fragment: "turn=7")
        XCTAssertTrue(seven.html.contains(#"<span class="new">b"#), "turn 7's own output is marked")
        // The axis is the turns: a label for the start and for each numbered turn.
        for label in [">s<", ">1<", ">9<", ">22<"] {
            XCTAssertTrue(start.html.contains("tick-label\"" ) && start.html.contains(label), "axis label \(label)")
        }
    }

    /// The graph draws the JavaScript's promises: `$x` reading a `let` makes no node (the chain
    /// goes on from the let's promise, and the turns say so), and a chain a `do` handler starts
    /// hangs from the promise whose handler started it.
    func test_theGraphHasNoNodeForALetReadAndJoinsWhatAHandlerStarts() throws {
        let path = directory + "/let.html"
        let r = try vow(["--js", "--html", path, "-c", "let x = resolve 1 | print a\n$x | then do (print b) (resolve 2) | print c"])
        XCTAssertEqual(r.status, 0, r.err)
        let data = try embedded(try String(contentsOfFile: path, encoding: .utf8))
        guard case .list(let promises)? = data["promises"], case .list(let edges)? = data["edges"], case .list(let turns)? = data["turns"] else {
            return XCTFail("no data")
        }
        XCTAssertEqual(promises.compactMap { $0["label"]?.stringValue }, ["resolve 1", "print a", "then do (print b) (resolve 2)", "print c", "print b", "do (print b) (resolve 2)"])
        XCTAssertFalse(promises.contains { $0["label"] == .null && $0["name"] == .null }, "a node with neither stage nor name: \(promises)")
        func edge(_ from: Int, _ to: Int, _ kind: String) -> Bool {
            edges.contains { $0["from"] == .int(from) && $0["to"] == .int(to) && $0["kind"] == .string(kind) }
        }
        XCTAssertTrue(edge(2, 4, "chain"), "the let's promise chains on to the then: \(edges)")
        XCTAssertTrue(edge(4, 6, "starts"), "print b hangs from the handler that started it: \(edges)")
        XCTAssertTrue(edge(7, 4, "adopt"), "\(edges)")
        let one = try XCTUnwrap(turns.first { $0["number"] == .int(1) })
        XCTAssertEqual(one["microtasks"], .list([.string("j5 p4 reacts to p2")]))
        guard case .list(let happened)? = one["happened"] else { return XCTFail("no happened") }
        XCTAssertEqual(happened.filter { $0 == .string("p2 fulfils with 1") }.count, 1, "\(happened)")
        guard let chromium = Chromium.path else { throw XCTSkip(Chromium.missing) }
        let dom = try Chromium.dumpDOM(chromium, file: path)
        XCTAssertEqual(dom.console, [], "console messages")
        XCTAssertTrue(dom.html.contains(#"data-ready="yes""#), "the page's script did not finish")
        XCTAssertTrue(dom.html.contains(#"class="edge starts"#), "no edge for a started chain")
    }

    /// The program's JavaScript twin is beside the turns, the line of the stage a turn runs
    /// marked, and the markers the page finds the lines by are not shown.
    func test_theTwinIsBesideTheTurnsWithTheLineThatRuns() throws {
        guard let chromium = Chromium.path else { throw XCTSkip(Chromium.missing) }
        let path = directory + "/twin.html"
        let r = try vow(["--js", "--html", path, projectRoot.appendingPathComponent("examples/puzzles/then-two-handlers.vow").path])
        XCTAssertEqual(r.status, 0, r.err)
        let data = try embedded(try String(contentsOfFile: path, encoding: .utf8))
        XCTAssertTrue(data["twin"]?.stringValue?.contains("/*@4:13*/") == true, "the twin marks the stage at line 4, column 13")
        let two = try Chromium.dumpDOM(chromium, file: path, fragment: "turn=2")
        XCTAssertEqual(two.console, [], "console messages")
        let shown = two.html.components(separatedBy: #"<pre id="twin">"#).last?.components(separatedBy: "</pre>").first ?? ""
        XCTAssertTrue(shown.contains("vow.job(1, Promise.resolve(1)"), shown)
        XCTAssertFalse(shown.contains("/*@"), "a marker is shown")
        let runs = two.html.components(separatedBy: #"<span class="twin-line runs">"#).dropFirst().map { $0.prefix { $0 != "<" } }
        XCTAssertEqual(runs.count, 1, "one line marked at turn 2")
        XCTAssertTrue(runs.first?.contains(#"vow.reject(v1, "from then")"#) == true, "turn 2 runs then (reject \"from then\"): \(runs)")
        XCTAssertFalse(try Chromium.dumpDOM(chromium, file: path).html.contains("twin-line runs"), "the start runs no stage's handler")
    }

    func test_screenshotIsAPictureOfThePage() throws {
        guard let chromium = Chromium.path else { throw XCTSkip(Chromium.missing) }
        let path = directory + "/all.html"
        let r = try vow(["--html", path, projectRoot.appendingPathComponent("examples/lessons/06-all.vow").path])
        XCTAssertEqual(r.status, 0, r.err)
        let png = directory + "/page.png"
        let shot = try Chromium.run(chromium, ["--screenshot=\(png)", "--window-size=1200,900", URL(fileURLWithPath: path).absoluteString])
        XCTAssertTrue(FileManager.default.fileExists(atPath: png), shot.err)
        // A small PNG reader (python3 and zlib): size and how many colours, how much is not background.
        let check = try runWithInput("/usr/bin/env", ["python3", "-c", Self.pngSummary, png], input: "")
        XCTAssertEqual(check.status, 0, check.err)
        let fields = check.out.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(fields.count, 4, check.out)
        guard fields.count == 4 else { return }
        XCTAssertEqual(fields[0], 1200, "width")
        XCTAssertEqual(fields[1], 900, "height")
        XCTAssertGreaterThan(fields[2], 8, "colours: a blank page")
        XCTAssertGreaterThan(fields[3], 1200 * 900 / 20, "pixels unlike the commonest colour")
    }

    func test_timelineMetaCommandWritesThePageOfTheLastStatement() throws {
        let path = directory + "/last.html"
        let r = try vow(["-c", "sim --delay 5ms first\nall [sim --delay 10ms a, sim --delay 5ms b] | len\n:timeline --html \(path)"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out, "first\n2\npage written to \(path)\n")
        let page = try String(contentsOfFile: path, encoding: .utf8)
        assertSelfContained(page)
        guard case .list(let promises)? = try embedded(page)["promises"] else { return XCTFail("no promises") }
        let labels = promises.compactMap { $0["label"]?.stringValue }
        XCTAssertTrue(labels.contains("sim --delay 10ms a"), "\(labels)")
        XCTAssertFalse(labels.contains("sim --delay 5ms first"), "an earlier statement: \(labels)")
        let bad = try vow(["-c", "echo 1\n:timeline --html"])
        XCTAssertTrue(bad.err.contains(":timeline --html FILE"), bad.err)
        // Under vow --html, :timeline still draws the last statement, and the page the whole run.
        let whole = directory + "/whole.html"
        let both = try vow(["--html", whole, "-c", "sim --delay 5ms first\nsim --delay 5ms second\n:timeline --html \(path)\n:timeline"])
        XCTAssertEqual(both.status, 0, both.err)
        XCTAssertFalse(both.out.contains("first │"), both.out)
        XCTAssertTrue(both.out.contains("sim --delay 5ms second │"), both.out)
        guard case .list(let last)? = try embedded(String(contentsOfFile: path, encoding: .utf8))["promises"],
              case .list(let all)? = try embedded(String(contentsOfFile: whole, encoding: .utf8))["promises"] else { return XCTFail("no promises") }
        XCTAssertEqual(last.compactMap { $0["label"]?.stringValue }, ["sim --delay 5ms second"])
        XCTAssertEqual(all.compactMap { $0["label"]?.stringValue }, ["sim --delay 5ms first", "sim --delay 5ms second"])
    }

    /// Prints `WIDTH HEIGHT COLOURS OTHERS` of the 8-bit RGB or RGBA PNG named by argv[1]: its size,
    /// how many colours it has, and how many pixels are not of the commonest colour.
    static let pngSummary = #"""
    import sys, zlib, struct, collections
    data = open(sys.argv[1], "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6), (depth, ctype)
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, counts, i = bytearray(stride), collections.Counter(), 0
    for y in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        counts.update(bytes(line[x:x + 3]) for x in range(0, stride, bpp))
        prev = line
    print(w, h, len(counts), w * h - counts.most_common(1)[0][1])
    """#
}

/// Headless Chromium, as the tests run it.
enum Chromium {
    /// Where `chromium` is, or nil.
    static var path: String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            for name in ["chromium", "chromium-browser"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                return "\(dir)/\(name)"
            }
        }
        return nil
    }

    /// Why the Chromium part is skipped.
    static let missing = "chromium is not installed (scripts/setup installs it): the page was not loaded in a browser"

    /// Runs headless Chromium with `arguments`, at most 120 seconds.
    static func run(_ chromium: String, _ arguments: [String]) throws -> (out: String, err: String, status: Int32) {
        let profile = NSTemporaryDirectory() + "vow-chromium-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: profile) }
        return try runWithInput("/usr/bin/timeout", ["120", chromium, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                                                     "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=0"] + arguments, input: "")
    }

    /// The DOM of the page at `file` (with `#fragment`) after its script ran, and the console
    /// messages it logged (an uncaught exception is one).
    static func dumpDOM(_ chromium: String, file: String, fragment: String? = nil) throws -> (html: String, console: [String]) {
        var url = URL(fileURLWithPath: file).absoluteString
        if let fragment { url += "#" + fragment }
        let r = try run(chromium, ["--dump-dom", url])
        let console = r.err.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return (r.out, console)
    }
}

extension Value {
    /// A field of a record (nil for anything else), for reading the page's data.
    fileprivate subscript(key: String) -> Value? {
        if case .record(let r) = self { return r[key] }
        return nil
    }
}
