// `:timeline --turns`: every job of the run on a turn axis, checked rule by rule on real runs
// against `vow --turns`, which numbers the same turns.
import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell
import VowSyntax
import VowValue

final class TurnTimelineTests: XCTestCase {
    /// A session whose tracer keeps every statement, as the REPL's does; `print` goes to `out`.
    final class Run {
        /// Text written from any thread.
        final class Text: Sendable {
            let text = VowRuntime.Locked("")
            func add(_ s: String) { text.withLock { $0 += s } }
        }
        let out = Text()
        let session: Session
        let runner: Runner
        let tracer: Tracer

        init(javaScript: Bool) {
            let out = self.out
            session = Session(output: OutputSink({ s in out.add(s) }), diagnostics: OutputSink({ _ in }))
            session.javaScriptMode = javaScript
            runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
            tracer = runner.enableTracing()
            tracer.keepsWholeRun = true
        }

        /// Runs `source` as the REPL runs a line (what it started runs on afterwards, and an
        /// unhandled rejection is a notice), then waits until nothing is left to run, as a
        /// person typing the next line does; returns what it printed.
        @discardableResult
        func run(_ source: String) -> String {
            let before = out.text.withLock { $0.count }
            runner.waitsForJobs = false
            _ = runner.run(source, name: "<test>")
            _ = session.executor.waitUntilQuiescent(timeout: .seconds(20))
            return String(out.text.withLock { $0 }.dropFirst(before))
        }

        /// Runs `source` as a script runs (`vow FILE`): its background jobs waited for.
        func runScript(_ source: String) -> String {
            let before = out.text.withLock { $0.count }
            runner.waitsForJobs = true
            _ = runner.run(source, name: "<test>")
            return String(out.text.withLock { $0 }.dropFirst(before))
        }

        deinit {
            runner.disableTracing()
            session.http.shutdown()
        }
    }

    /// What `vow --turns` shows for `source`.
    func turnsText(_ source: String, javaScript: Bool) -> String {
        let session = Session(diagnostics: OutputSink({ _ in }))
        session.javaScriptMode = javaScript
        defer { session.http.shutdown() }
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
        defer { runner.disableTracing() }
        return TurnView.render(runner.runShowingTurns(source, name: "<test>").turns, colors: false)
    }

    /// The output `vow --turns` reports, each with the turn that wrote it: `s` for the start,
    /// `v` for a step of vow's own, else the turn's number.
    static func outputs(ofTurns text: String) -> [String] {
        var turn = "?"
        var found: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("start") {
                turn = "s"
            } else if line.hasPrefix("turn ") {
                turn = String(line.dropFirst(5).prefix { $0 != " " })
            } else if line.hasPrefix("vow ") {
                turn = "v"
            } else if line.hasPrefix("    prints ") {
                found.append("\(turn): \(line.dropFirst(11))")
            }
        }
        return found
    }

    /// The output a drawn chart shows, each with the title of its column, read from the columns
    /// of its `prints` rows and the notes of what did not fit.
    static func outputs(ofChart text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var notes: [String] = []
        if let i = lines.firstIndex(of: "▪ what did not fit:") {
            for line in lines[(i + 1)...] where line.hasPrefix("  ") {
                guard let r = line.range(of: " prints ") else { continue }
                let place = line[line.index(line.startIndex, offsetBy: 2)..<r.lowerBound]
                let title = place == "the start" ? "s" : place.hasPrefix("vow's step") ? "v" : String(place.dropFirst(5))
                notes.append("\(title): \(line[r.upperBound...])")
            }
        }
        var found: [String] = []
        var header: [(title: String, end: Int)] = []
        var cell = 0
        for line in lines {
            let chars = Array(line)
            if line.hasPrefix("turn ") {
                header = []
                var i = 4
                while i < chars.count {
                    if chars[i] == " " { i += 1; continue }
                    var j = i
                    while j < chars.count, chars[j] != " " { j += 1 }
                    header.append((String(chars[i..<j]), j - 1))
                    i = j
                }
                if header.count > 1 { cell = header[1].end - header[0].end }
            } else if line.hasPrefix("prints ") {
                for (title, end) in header {
                    let lo = end - cell + 1
                    guard lo < chars.count else { continue }
                    let text = String(chars[lo...min(end, chars.count - 1)]).trimmingCharacters(in: .whitespaces)
                    if text == "▪" {
                        while let n = notes.first, n.hasPrefix(title + ": ") { found.append(notes.removeFirst()) }
                    } else if !text.isEmpty {
                        found.append("\(title): \(text)")
                    }
                }
            }
        }
        return found + notes.map { "unplaced " + $0 }
    }

    var puzzles: [(name: String, source: String)] {
        let folder = projectRoot.appendingPathComponent("examples/puzzles")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".vow") }.sorted() ?? []
        return files.map { ($0, (try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) ?? "") }
    }

    /// The rows of the chart of the whole run of `run`.
    func chart(_ run: Run) -> TurnTimeline.Chart {
        TurnTimeline.chart(run.tracer.wholeRun)
    }

    /// Each puzzle, run in a session and then drawn (as `:load` and `:timeline --turns` in the
    /// REPL): each output is in the column of the turn `vow --turns` says wrote it, in both modes.
    func test_eachOutputIsInTheTurnVowTurnsReports() {
        XCTAssertGreaterThanOrEqual(puzzles.count, 14)
        for (name, source) in puzzles {
            // JavaScript mode ends a script at an unhandled rejection, as node ends its process;
            // the REPL goes on (a notice), so the two runs differ there by design.
            for js in [true, false] where !(js && name == "unhandled-rejection.vow") {
                let run = Run(javaScript: js)
                run.run(source)
                let drawn = run.run(":timeline --turns")
                let expected = Self.outputs(ofTurns: turnsText(source, javaScript: js))
                XCTAssertFalse(expected.isEmpty, name)
                XCTAssertEqual(Self.outputs(ofChart: drawn), expected, "\(name) (js: \(js))\n\(drawn)")
            }
        }
    }

    /// `:timeline --turns` as a script's last statement draws once every job that was ready has
    /// run: the background jobs' turns are there, numbered as `vow --turns` numbers them (up to
    /// a timer still pending, drawn pending).
    func test_inAScriptItDrawsWhatTheStatementsBeforeItDid() {
        for (name, source) in puzzles {
            let run = Run(javaScript: false)
            let out = run.runScript(source + "\n:timeline --turns")
            guard let start = out.range(of: "Every job of the run by turn") else { return XCTFail("\(name): no chart in\n\(out)") }
            let drawn = Self.outputs(ofChart: String(out[start.lowerBound...]))
            let expected = Self.outputs(ofTurns: turnsText(source, javaScript: false))
            XCTAssertEqual(drawn, Array(expected.prefix(drawn.count)), name)
            // With no timer, everything has run when it draws; with one, what printed before the
            // first timer fired (a puzzle whose every line waits for a timer draws none).
            if !source.contains("delay") {
                XCTAssertFalse(drawn.isEmpty, "\(name)\n\(out)")
                XCTAssertEqual(drawn, expected, name)
            }
        }
    }

    /// Every statement of a puzzle has a row: a stage of each pipeline is a row's label.
    func test_everyStatementHasARow() throws {
        for (name, source) in puzzles {
            let run = Run(javaScript: true)
            run.run(source)
            let labels = chart(run).rows.map { $0.label.drop { $0 != " " }.dropFirst() }
            let program = try Parser.parse(SourceText(source, name: name))
            let bytes = Array(source.utf8)
            var statements = 0
            for st in program.statements {
                switch st.kind {
                case .pipeline, .letBinding: break
                default: continue
                }
                statements += 1
                let text = String(decoding: bytes[st.span.start..<st.span.end], as: UTF8.self)
                XCTAssertTrue(labels.contains { !$0.isEmpty && text.contains($0) }, "\(name): no row for \(text) in \(labels)")
            }
            XCTAssertGreaterThan(statements, 0, name)
        }
    }

    /// A row is pending from the turn its promise was made to the turn it settled, marked ✓, ✗
    /// or ⊘ there, and nothing but a later job of its own (a combinator's reaction) after it.
    /// Once a puzzle has run to its end, nothing is pending.
    func test_nothingIsDrawnPendingThatSettled() {
        for (name, source) in puzzles {
            for js in [true, false] {
                let run = Run(javaScript: js)
                run.run(source)
                let c = chart(run)
                var settled = Set<Int>()
                for e in run.tracer.wholeRun {
                    switch e.event {
                    case .fulfilled(let id, _), .rejected(let id, _): settled.insert(id)
                    default: break
                    }
                }
                for r in c.rows {
                    let marks = r.marks.filter { $0 != .none }
                    guard let end = r.marks.firstIndex(where: { if case .settled = $0 { return true } else { return false } }) else {
                        XCTAssertFalse(settled.contains(r.id), "\(name): \(r.label) settled but is drawn without a settlement: \(r.marks)")
                        continue
                    }
                    XCTAssertTrue(settled.contains(r.id), "\(name): \(r.label)")
                    XCTAssertFalse(r.marks[end...].contains(.pending), "\(name): \(r.label) pending after it settled: \(r.marks)")
                    XCTAssertFalse(marks.isEmpty)
                }
                XCTAssertFalse(c.rows.contains { $0.marks.last == .pending }, "\(name) (js: \(js)): \(c.rows.filter { $0.marks.last == .pending }.map(\.label))")
                let text = run.run(":timeline --turns")
                for line in text.split(separator: "\n") where line.hasPrefix("p") {
                    if let s = line.firstIndex(where: { "✓✗⊘".contains($0) }) {
                        XCTAssertFalse(line[s...].contains("─"), "\(name): \(line)")
                    }
                }
            }
        }
    }

    /// A handler's turn: the promise's job ran and it settled there (✓), in the turn its output
    /// shows; a returned promise's adoption: ● where the handler ran and where it attached, ✓
    /// two turns after that.
    func test_aJobRunsWhereItsHandlerRanAndSettlesWhereItSettled() throws {
        let run = Run(javaScript: true)
        let source = try String(contentsOf: projectRoot.appendingPathComponent("examples/puzzles/return-promise.vow"), encoding: .utf8)
        run.run(source)
        let c = chart(run)
        func column(_ title: String) -> Int? { c.columns.firstIndex { $0.title == title } }
        guard let adopting = c.rows.first(where: { $0.label.hasPrefix("p2 then do") }), let printOne = c.rows.first(where: { $0.label.hasSuffix("print 1") }) else {
            return XCTFail("\(c.rows.map(\.label))")
        }
        let one = c.columns.firstIndex { $0.turn.printed == ["1"] }
        XCTAssertNotNil(one)
        XCTAssertEqual(one.map { printOne.marks[$0] }, .settled(.fulfilled))
        let ran = adopting.marks.indices.filter { adopting.marks[$0] == .ran }.map { c.columns[$0].title }
        XCTAssertEqual(ran, ["1", "3"], "the handler, then the attaching (PromiseResolveThenableJob)")
        XCTAssertEqual(column("5").map { adopting.marks[$0] }, .settled(.fulfilled))
        XCTAssertEqual(adopting.marks[column("s")!], .pending)
    }

    /// Fulfilled, rejected and cancelled are told apart.
    func test_rejectedAndCancelledAreToldApart() {
        let run = Run(javaScript: false)
        run.run("race [sim --delay 5ms a, sim --delay 300ms b]\nreject no | catch echo caught")
        let c = chart(run)
        func mark(_ label: String) -> [TurnTimeline.Mark] { c.rows.first { $0.label.hasSuffix(label) }?.marks ?? [] }
        XCTAssertTrue(mark("sim --delay 5ms a").contains(.settled(.fulfilled)), "\(c.rows)")
        XCTAssertTrue(mark("sim --delay 300ms b").contains(.settled(.cancelled)), "\(c.rows)")
        XCTAssertTrue(mark("reject no").contains(.settled(.rejected)), "\(c.rows)")
        let text = run.run(":timeline --turns")
        XCTAssertTrue(text.contains("✓") && text.contains("✗") && text.contains("⊘"), text)
    }

    /// A timer's callback is a task turn, marked T, after the microtasks; the timer's promise
    /// settles in it.
    func test_aTimerIsATaskColumn() {
        let run = Run(javaScript: true)
        run.run("delay 0s | print timeout &\nresolve null | print micro &")
        let c = chart(run)
        guard let task = c.columns.firstIndex(where: { $0.turn.isTask }), let micro = c.columns.firstIndex(where: { $0.turn.printed == ["micro"] }) else {
            return XCTFail("\(c.columns.map(\.title))")
        }
        XCTAssertLessThan(micro, task)
        XCTAssertTrue(c.rows.contains { $0.marks[task] == .settled(.fulfilled) }, "the delay's promise settles in the task")
        let text = run.run(":timeline --turns")
        let lines = text.split(separator: "\n").map(String.init)
        guard let header = lines.first(where: { $0.hasPrefix("turn ") }), let taskRow = lines.first(where: { $0.hasPrefix("task ") }),
            let t = taskRow.firstIndex(of: "T")
        else { return XCTFail(text) }
        let offset = taskRow.distance(from: taskRow.startIndex, to: t)
        XCTAssertEqual(String(Array(header)[offset]), c.columns[task].title, text)
    }

    /// Every statement run so far in the session, not only the last; `:step` in between does not
    /// wipe them.
    func test_everyStatementOfTheSession() {
        let run = Run(javaScript: false)
        run.run("resolve 1 | print first")
        _ = run.runner.runShowingTurns("resolve 2 | print stepped", name: "<step>")
        run.run("resolve 3 | print third")
        let text = run.run(":timeline --turns")
        for label in ["print first", "print stepped", "print third"] { XCTAssertTrue(text.contains(label), "\(label) in\n\(text)") }
        let numbers = chart(run).columns.map(\.turn.number).filter { $0 > 0 }
        XCTAssertEqual(numbers, Array(1...numbers.count), "turns numbered across the session")
        XCTAssertEqual(Self.outputs(ofChart: text).filter { !$0.hasPrefix("v:") }.map { String($0.split(separator: " ").last!) }, ["first", "stepped", "third"])
    }

    /// A long run is drawn in bands that fit the width; a very long one leaves turns out and
    /// says so; every line fits.
    func test_aLongRunFitsTheWidth() {
        let chain = "resolve 0" + (1...40).map { " | print n\($0)" }.joined()
        let run = Run(javaScript: false)
        run.run(chain)
        let text = TurnTimeline.render(run.tracer.wholeRun, width: 60, colors: false)
        let lines = text.split(separator: "\n")
        for line in lines { XCTAssertLessThanOrEqual(line.count, 60, String(line)) }
        let headers = lines.filter { $0.hasPrefix("turn ") }
        XCTAssertGreaterThan(headers.count, 1, text)
        let titles = headers.flatMap { $0.dropFirst(4).split(separator: " ").map(String.init) }.filter { $0 != "v" }
        XCTAssertEqual(titles, ["s"] + (1...40).map(String.init), text)

        let long = Run(javaScript: false)
        long.run("resolve 0" + (1...300).map { " | print m\($0)" }.joined())
        let elided = TurnTimeline.render(long.tracer.wholeRun, width: 100, colors: false)
        XCTAssertTrue(elided.contains("turns left out here"), elided)
        XCTAssertTrue(elided.contains(" 300"), "the last turns are drawn")
        for line in elided.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 100, String(line))
        }
    }

    /// What a value prints, or a label, reaches the chart with its control characters escaped.
    func test_noRawControlCharacters() {
        let run = Run(javaScript: false)
        run.run("echo \"a\\u0007b\\u001b]0;x\\u0007\" | print \"{}\" | print \"\\u001b[31mred\"")
        let text = run.run(":timeline --turns")
        XCTAssertFalse(text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7f }, text)
        let coloured = TurnTimeline.render(run.tracer.wholeRun, width: 80, colors: true)
        let withoutColours = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertFalse(withoutColours.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, withoutColours)
    }

    /// Only `:timeline`, `:timeline --turns` and `:timeline --html FILE`.
    func test_anUnknownArgumentIsAnError() {
        let r = runVow("echo 1\n:timeline --turn")
        XCTAssertTrue(r.err.contains(":timeline --turns"), r.err)
        XCTAssertFalse(r.out.contains("Every job"), r.out)
    }

    /// The REPL keeps the session's events, a large value of an earlier statement as what it
    /// was, not the value itself.
    func test_aLargeValueOfAnEarlierStatementIsCondensed() {
        let run = Run(javaScript: false)
        run.tracer.condensesEarlier = true
        run.run("echo [" + (1...300).map(String.init).joined(separator: ", ") + "] | len")
        run.run("echo small")
        let values = run.tracer.wholeRun.compactMap { e -> (any Sendable)? in
            if case .fulfilled(_, let v) = e.event { return v } else { return nil }
        }
        XCTAssertTrue(values.contains { ($0 as? Tracer.LargeValue)?.description == "a list of 300 items" }, "\(values.map { type(of: $0) })")
        XCTAssertTrue(values.contains { ($0 as? Value) == .int(300) }, "small values are kept")
        XCTAssertNil(Tracer.largeValue(.list((1...10).map { .int($0) })))
        XCTAssertEqual(Tracer.largeValue(.string(String(repeating: "x", count: 2000))), "a string of 2000 characters")
    }
}
