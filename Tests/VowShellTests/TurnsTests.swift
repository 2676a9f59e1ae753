// `vow --turns` and `:step`: a run shown turn by turn, read from the jobs the promise core reports.
import Foundation
import XCTest

@testable import VowRuntime
@testable import VowShell
import VowPromises

final class TurnsTests: XCTestCase {
    /// Runs `source` as `vow --turns` does: output held back for the turns, every event recorded.
    func turns(_ source: String, javaScript: Bool = false) -> RecordedTurns {
        let session = Session(diagnostics: OutputSink({ _ in }))
        session.javaScriptMode = javaScript
        defer { session.http.shutdown() }
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
        defer { runner.disableTracing() }
        return runner.runShowingTurns(source, name: "<test>").turns
    }

    /// Every statement of a script is in its turns, not only the last one's.
    func test_theTurnsOfEveryStatement() {
        let t = turns("resolve null | print first\nresolve null | print second")
        let text = TurnView.render(t, colors: false)
        XCTAssertTrue(text.contains("prints first"), text)
        XCTAssertTrue(text.contains("prints second"), text)
    }

    func number(_ t: RecordedTurns, where match: (RecordedTurns.Turn) -> Bool) -> Int? {
        TurnView.shown(t).first(where: match)?.number
    }

    /// A chain of two handlers takes two turns, each running one handler and queueing the next.
    func test_aChainTakesATurnAHandler() {
        let t = turns("resolve 1 | print a | print b")
        let shown = TurnView.shown(t).filter { !$0.isInternal && $0.number > 0 }
        XCTAssertEqual(shown.count, 2, TurnView.render(t, colors: false))
        XCTAssertTrue(shown[0].happened.contains("prints a"), "\(shown[0].happened)")
        XCTAssertTrue(shown[0].happened.contains { $0.hasPrefix("queues j") && $0.contains("p3 reacts to p2") }, "\(shown[0].happened)")
        XCTAssertTrue(shown[1].happened.contains("prints b"), "\(shown[1].happened)")
        XCTAssertEqual(shown[1].microtasks, [])
    }

    /// A promise is told once, in the legend (its stage, and the turn a later one was made in);
    /// the lines of a turn call it `p3`, and only a turn's title says what the job ran for.
    func test_promisesAreToldOnceInALegend() {
        let t = turns("resolve 1 | print a | then (delay 1ms | print b)", javaScript: true)
        let text = TurnView.render(t, colors: false)
        let legend = text.prefix { _ in true }.components(separatedBy: "\n\n")[0]
        XCTAssertTrue(legend.hasPrefix("promises\n  p1  resolve 1\n  p2  print a\n"), text)
        XCTAssertTrue(legend.contains("(made in turn "), text)
        for line in text.split(separator: "\n") where line.hasPrefix("    ") && !line.contains("prints ") {
            XCTAssertFalse(line.contains("(print") || line.contains("(resolve"), "a turn's line repeats a stage's text: \(line)")
        }
        XCTAssertTrue(text.contains("p2 (print a): its handler reacts to p1, fulfilled"), text)
    }

    /// Timers not yet due wait apart from the task queue, each with its wait and the turn that
    /// set it; one joins the task queue when it is due, named by the promise it fulfils.
    func test_timersWaitApartUntilTheyAreDue() throws {
        let source = try String(contentsOf: projectRoot.appendingPathComponent("examples/puzzles/nested-timers.vow"), encoding: .utf8)
        let t = turns(source, javaScript: true)
        let shown = TurnView.shown(t)
        let text = TurnView.render(t, colors: false)
        XCTAssertEqual(shown.first?.timers, ["p1 due 1 ms after the start", "p7 due 1 ms after the start", "p11 due 2 ms after the start"], text)
        XCTAssertEqual(shown.first?.waiting, [], text)
        XCTAssertTrue(text.contains("tasks: j10 the timer of p7\n    timers: p11 due 2 ms after the start · p15 due 1 ms after turn 4"), text)
        XCTAssertTrue(text.contains("a task: the timer of p7 (delay 0s b) fired"), text)
    }

    /// The queue shown after a turn holds every job waiting, the one that runs next included:
    /// after the start of two chains, both first handlers are queued.
    func test_theQueueAfterATurnHoldsTheJobThatRunsNext() {
        let t = turns("resolve 1 | print a &\nresolve 2 | print b &")
        let shown = TurnView.shown(t)
        XCTAssertEqual(shown.first?.microtasks.count, 2, TurnView.render(t, colors: false))
        XCTAssertTrue(shown.first?.microtasks.first?.contains("p2 reacts to p1") ?? false, "\(shown.first?.microtasks ?? [])")
        // After turn 1 (print a), print b's job is still waiting.
        let one = shown.first { $0.number == 1 }
        XCTAssertEqual(one?.microtasks.count, 1, TurnView.render(t, colors: false))
        XCTAssertTrue(one?.microtasks.first?.contains("p4 reacts to p3") ?? false, "\(one?.microtasks ?? [])")
    }

    /// The puzzle's adoption of a settled promise: returned in one turn, attached two turns later,
    /// settled two turns after that (the other chain runs in between), as node does.
    func test_returnPromiseShowsTheTwoExtraTurnsOfAdoption() throws {
        let source = try String(contentsOf: projectRoot.appendingPathComponent("examples/puzzles/return-promise.vow"), encoding: .utf8)
        let t = turns(source, javaScript: true)
        let text = TurnView.render(t, colors: false)
        guard let adopted = number(t, where: { $0.happened.contains { $0.contains("adopts p") && $0.contains("is fulfilled already") } }),
            let attached = number(t, where: { $0.title.contains("PromiseResolveThenableJob") }),
            let settled = number(t, where: { $0.title.contains("settles as") }),
            let four = number(t, where: { $0.happened.contains("prints 4") }),
            let three = number(t, where: { $0.happened.contains("prints 3") })
        else { return XCTFail(text) }
        XCTAssertEqual(attached - adopted, 2, text)
        XCTAssertEqual(settled - attached, 2, text)
        XCTAssertEqual(four, settled + 2, text)
        XCTAssertLessThan(three, four, text)
    }

    /// A timer's callback is a task, run once no microtask is left; it shows as one.
    func test_aTimerIsATaskAfterTheMicrotasks() {
        let t = turns("delay 0s | print timeout &\nresolve null | print micro &")
        let shown = TurnView.shown(t).filter { $0.number > 0 }
        guard let task = shown.firstIndex(where: \.isTask), let micro = shown.firstIndex(where: { $0.happened.contains("prints micro") }) else {
            return XCTFail(TurnView.render(t, colors: false))
        }
        XCTAssertLessThan(micro, task)
        XCTAssertTrue(shown[task].happened.contains { $0.contains("fulfils") }, "\(shown[task].happened)")
    }

    /// Every job that starts was queued first, with the same number, and each is started once.
    func test_jobEventsPairUp() {
        let session = Session(output: OutputSink({ _ in }, reportsToObservers: true), diagnostics: OutputSink({ _ in }))
        defer { session.http.shutdown() }
        let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
        let tracer = runner.enableTracing()
        defer { runner.disableTracing() }
        _ = runner.run("all [sim --delay 5ms a, resolve b | then (resolve c)] | catch echo x | len", name: "<test>")
        var queued = Set<Int>(), started = Set<Int>()
        for e in tracer.entries {
            switch e.event {
            case .jobQueued: XCTAssertTrue(queued.insert(e.job).inserted)
            case .jobStarted:
                XCTAssertTrue(queued.contains(e.job), "job \(e.job) started unqueued")
                XCTAssertTrue(started.insert(e.job).inserted, "job \(e.job) started twice")
            default: break
            }
        }
        XCTAssertGreaterThan(started.count, 5)
        XCTAssertEqual(started, queued)
    }

    /// The claims of a lesson's `# turn N: TEXT` lines: N and TEXT.
    static func claims(_ lesson: String) -> [(turn: Int, text: String)] {
        lesson.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("# turn "), let colon = line.firstIndex(of: ":"), let n = Int(line[line.index(line.startIndex, offsetBy: 7)..<colon]) else { return nil }
            return (n, String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
    }

    /// The turns of `vow --turns` output by number: each turn's lines (its title, what happened,
    /// the queues after it).
    static func blocks(_ output: String) -> [Int: String] {
        var blocks: [Int: String] = [:]
        var current: Int?
        for line in output.split(separator: "\n") {
            if line.hasPrefix("turn ") {
                current = Int(line.dropFirst(5).prefix { $0 != " " })
            } else if line.hasPrefix("start") || line.hasPrefix("vow ") {
                current = nil
            }
            if let n = current { blocks[n, default: ""] += line + "\n" }
        }
        return blocks
    }

    /// The stepping lesson says, turn by turn, what `vow --turns` shows of it: the real binary,
    /// in both modes, shows each claim in the turn it names.
    func test_theSteppingLessonShowsTheTurnsItClaims() throws {
        let lessons = LessonTests.lessons.filter { !Self.claims($0.text).isEmpty }
        XCTAssertTrue(lessons.contains { $0.file.contains("stepping") && Self.claims($0.text).count >= 10 }, "\(lessons.map(\.file))")
        for (file, text) in lessons {
            let path = projectRoot.appendingPathComponent("examples/lessons/\(file)").path
            for mode in [["--turns"], ["--js", "--turns"]] {
                let run = try runCommand(REPLTests.binary, mode + [path])
                XCTAssertEqual(run.status, LessonTests.status(text), file)
                let blocks = Self.blocks(run.out)
                for claim in Self.claims(text) {
                    XCTAssertTrue(
                        blocks[claim.turn]?.contains(claim.text) == true,
                        "\(file) \(mode): turn \(claim.turn) should show \(claim.text); it shows\n\(blocks[claim.turn] ?? "nothing")")
                }
            }
        }
    }

    /// What a value or a body prints reaches the turns with its control characters escaped.
    func test_outputInTheTurnsHasNoRawControlCharacters() {
        let t = turns("echo \"a\\u0007b\\u001b]0;x\\u0007\" | print \"{}\"")
        let text = TurnView.render(t, colors: false)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, text)
        XCTAssertTrue(text.contains("\\u{7}"), text)
    }
}
