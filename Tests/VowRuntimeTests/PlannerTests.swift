// The planning pass, rule by rule: what a pipeline's syntax becomes before anything runs.
import Foundation
import VowSyntax
import VowValue
import XCTest

@testable import VowRuntime

final class PlannerTests: XCTestCase {
    func plans(_ source: String, defs: [String: UserStage] = [:]) throws -> [StagePlan] {
        try Planner(registry: .builtins, defs: defs).plan(Parser.parsePipeline(SourceText(source)))
    }

    func problems(_ source: String) throws -> [String] {
        let program = try Parser.parse(SourceText(source))
        return Planner.checking(program, registry: .builtins, defs: [:]).problems(in: program).map(\.message)
    }

    func test_namesResolveToBuiltinsDefsAndValues() throws {
        let p = try plans("echo 1 | $x | double")
        XCTAssertTrue(p[0].definition == EchoStage.self)
        guard case .value = p[1].kind else { return XCTFail("a variable is a value stage") }
        guard case .refused(let problem) = p[2].kind else { return XCTFail("an unknown name is refused") }
        XCTAssertEqual(problem.message, "unknown stage 'double'")
        let body = try Parser.parsePipeline(SourceText("format \"<{}>\""))
        let withDef = try plans("echo 1 | double", defs: ["double": UserStage(name: "double", params: [], body: body, source: SourceText(""))])
        guard case .user(let user) = withDef[1].kind else { return XCTFail("a def is found by name") }
        XCTAssertEqual(user.name, "double")
    }

    func test_thenOfAValueStageIsThatStageReportedAsThen() throws {
        let p = try plans("echo 1 | then format \"{}\"")
        XCTAssertTrue(p[1].definition == FormatStage.self)
        XCTAssertEqual(p[1].nameAsWritten, "then")
        XCTAssertNotNil(p[1].rewrittenThen)
        // A control stage after then is not rewritten: then holds it as its inner stage.
        let q = try plans("echo 1 | then catch pick message")
        XCTAssertTrue(q[1].definition == ThenStage.self)
        XCTAssertTrue(q[1].inner?.definition == CatchStage.self)
    }

    func test_flagsAreBoundAndTheInnerStageKeepsItsOwn() throws {
        let p = try plans("echo [1] | each fetch http://x --header a:b --limit 2")
        guard case .builtin(_, let positional) = p[1].kind else { return XCTFail() }
        let flags = p[1].flags
        XCTAssertEqual(flags.keys.sorted(), ["limit"])
        XCTAssertEqual(positional.count, 4)  // fetch http://x --header a:b
        guard case .builtin(let inner, _)? = p[1].inner?.kind, let innerFlags = p[1].inner?.flags else { return XCTFail("each plans its inner stage") }
        XCTAssertTrue(inner == FetchStage.self)
        XCTAssertEqual(innerFlags.keys.sorted(), ["header"])
    }

    func test_lookAheadIsAskedOfTheStage() throws {
        XCTAssertNotNil(try plans("json | pick a.b")[0].pickAhead)
        XCTAssertNil(try plans("text | pick a.b")[0].pickAhead)
        XCTAssertEqual(try plans("read f | json")[0].feedsJSON, true)
        XCTAssertEqual(try plans("read f | catch | json")[0].feedsJSON, false)
        // `each … | len` reads only the count; `len` with an argument, or a handler, reads more.
        XCTAssertEqual(try plans("each fetch $_ | len")[0].countedAhead, true)
        XCTAssertEqual(try plans("each (fetch $_) --limit 4 | len")[0].countedAhead, true)
        XCTAssertEqual(try plans("each fetch $_ | pick 'length(@)'")[0].countedAhead, false)
        XCTAssertEqual(try plans("each fetch $_ | catch len")[0].countedAhead, false)
        XCTAssertEqual(try plans("echo [1] | len")[0].countedAhead, false)
        // `each json | where EXPR | len`: `where` is counted, and `each` with it (looking ahead
        // from the last pair back); not when `each` does not filter ahead.
        let filtered = try plans("each json | where 'a' | len")
        XCTAssertEqual(filtered.map(\.countedAhead), [true, true, false])
        XCTAssertEqual(filtered[0].filterAhead, "a")
        XCTAssertEqual(try plans("each json | where 'a' | to-json").map(\.countedAhead), [false, false, false])
        XCTAssertEqual(try plans("each fetch $_ | where 'a' | len").map(\.countedAhead), [false, true, false])
        XCTAssertEqual(try plans("each json | tap (quiet) | where 'a' | len").map(\.countedAhead), [false, false, true, false])
        // `each json | pick EXPR` searches one tape of the items' documents; not under --rate,
        // nor for an inner stage other than `json` alone.
        XCTAssertEqual(try plans("each json --limit 4 | pick a")[0].pickAhead?.expression, "a")
        XCTAssertNil(try plans("each json --rate 5/s | pick a")[0].pickAhead)
        XCTAssertNil(try plans("each (json | pick a) | pick b")[0].pickAhead)
        XCTAssertNil(try plans("each text | pick a")[0].pickAhead)
        // `each STAGE… | pick EXPR` with EXPR a fold (`ListFold`): any inner stage, --limit or
        // not; not under --rate, nor for an EXPR that reads an element, nor after another stage.
        XCTAssertEqual(try plans("each json --limit 4 | pick 'length(@)'")[0].foldAhead, "length(@)")
        XCTAssertEqual(try plans("each (json | pick s) | pick 'length([?@])'")[0].foldAhead, "length([?@])")
        XCTAssertEqual(try plans("each fetch $_ | pick 'sum([*].n)'")[0].foldAhead, "sum([*].n)")
        XCTAssertNil(try plans("each json --rate 5/s | pick 'length(@)'")[0].foldAhead)
        XCTAssertNil(try plans("each json | pick '[0]'")[0].foldAhead)
        XCTAssertNil(try plans("each json | tap (quiet) | pick 'length(@)'")[0].foldAhead)
        // `each json | where EXPR | pick AGG`: `where` filters ahead, and the kept are folded.
        let screened = try plans("each json | where 'a' | pick 'sum([*].n)'")
        XCTAssertEqual(screened.map(\.foldAhead), ["sum([*].n)", "sum([*].n)", nil])
        XCTAssertEqual(screened[0].filterAhead, "a")
        XCTAssertEqual(try plans("each text | where 'a' | pick 'sum([*].n)'")[0].foldAhead, nil)
        // The tape ahead stays beside it, for a traced run the fold does not serve.
        XCTAssertEqual(try plans("each json | pick 'length(@)'")[0].pickAhead?.expression, "length(@)")
    }

    func test_handlersKeepTheirRoleWhenTheyCannotStart() throws {
        let p = try plans("echo 1 | catch --nope")
        guard case .refused = p[1].kind else { return XCTFail("an unknown flag refuses the stage") }
        XCTAssertTrue(p[1].isHandler)
    }

    func test_problemsBeforeRunningAreFoundAtAnyDepthWithHints() throws {
        XCTAssertEqual(try problems("fetc http://x"), ["unknown stage 'fetc' (did you mean 'fetch'?)"])
        XCTAssertEqual(try problems("echo [1] | each fetch http://x --limt 2"), ["fetch: unknown flag --limt (did you mean --limit?)"])
        XCTAssertEqual(try problems("echo 1 | then (pcik a)"), ["unknown stage 'pcik' (did you mean 'pick'?)"])
        // A flag of the outer stage written before its inner stage is the outer stage's.
        XCTAssertEqual(try problems("echo [1] | each --limt 3 len"), ["each: unknown flag --limt (did you mean --limit?)"])
        XCTAssertEqual(try problems("echo [(jsn), {a: (lenn)}]"), ["unknown stage 'jsn' (did you mean 'json'?)", "unknown stage 'lenn' (did you mean 'len'?)"])
        XCTAssertEqual(try problems("def twice = (echo 1 | dubble)\necho 1 | twice"), ["unknown stage 'dubble'"])
        // A missing flag value is the stage's rejection when it runs, as always.
        XCTAssertEqual(try problems("fetch http://x --timeout"), [])
        // An external stage's arguments are its own.
        XCTAssertEqual(try problems("echo 1 | then (echo 2)"), [])
    }
    /// Every JMESPath a program holds is parsed before it runs, wherever it is: an expression
    /// argument (pick, where, assert, reduce), a condition (if, until) and an expression flag
    /// (watch --until, paginate --items, --next, --cursor), in a branch or a def body too.
    func test_everyExpressionIsReadBeforeTheProgramRuns() throws {
        let cases = [
            ("echo 1 | catch (pick 'a[')", "pick: "),
            ("def f() = where 'a >'", "where: "),
            ("echo {} | if 'a[' (echo 1) else (echo 2)", "if: "),
            ("echo {} | until 'a[' --max 1", "until: "),
            ("watch 1s (echo 1) --until 'a['", "watch: --until: "),
            ("paginate http://h/ --items 'a['", "paginate: --items: "),
            ("paginate http://h/ --next 'a[' --items x", "paginate: --next: "),
            ("echo [1] | reduce 'acc +' 0", "reduce: "),
        ]
        for (source, prefix) in cases {
            let found = try problems(source)
            XCTAssertEqual(found.count, 1, source)
            XCTAssertTrue(found.first?.hasPrefix(prefix) == true, "\(source): \(found)")
        }
        // A condition written as a group, or a template filled in when it runs, is not text to read.
        XCTAssertEqual(try problems("echo {} | if (echo true) (echo 1) else (echo 2)"), [])
        XCTAssertEqual(try problems("watch 1s (echo 1) --until \"{}\""), [])
    }
}

/// The warnings said before a program runs, which do not stop it.
final class PlannerWarningTests: XCTestCase {
    func warnings(_ source: String) throws -> [String] {
        let program = try Parser.parse(SourceText(source))
        return Planner.checking(program, registry: .builtins, defs: [:]).warnings(in: program).map(\.message)
    }

    func test_aLoneWordInAListThatNamesAStageOrADef() throws {
        XCTAssertEqual(try warnings("def async2 = delay 1ms x\nall [(print a), async2]"),
                       ["in a list, async2 is the text \"async2\", though a def of that name exists; write (async2) to run it"])
        XCTAssertEqual(try warnings("echo [len, x]"), ["in a list, len is the text \"len\", though a stage of that name exists; write (len) to run it"])
        XCTAssertEqual(try warnings("echo [(len), x, {type: text}]"), [])
    }

    func test_aSingleQuotedFormatFillsNothingIn() throws {
        XCTAssertEqual(try warnings("echo {a: 1} | format '{a}'"),
                       ["format: '{a}' is in single quotes, so nothing in it is filled in; write it in double quotes to fill it in"])
        XCTAssertEqual(try warnings("echo {a: 1} | format \"{a}\" | format 'plain'"), [])
    }


    /// A program's check plans its statements once; starting them takes those plans instead of
    /// planning again, unless the program defines a stage (its statements are then planned when
    /// they start, against the defs given by then).
    func test_theChecksPlansAreTakenWhenTheStatementsStart() throws {
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        let starter = StatementStarter(session: session)
        let text = SourceText("echo 1 | pick @\nlet x = echo 2 | pick @", name: "<test>")
        let program = try Parser.parse(text)
        XCTAssertTrue(starter.check(program).isEmpty)
        let kept = session.checkedPlans.withLock { $0?.byStart.mapValues { $0.map(\.name) } }
        XCTAssertEqual(kept, [0: ["echo", "pick"], 24: ["echo", "pick"]])
        let started = starter.start(program.statements, in: text)
        XCTAssertEqual(session.checkedPlans.withLock { $0?.byStart.count }, 0, "each statement took its plans")
        guard case .pipeline(let promise, _) = started[0] else { return XCTFail("a pipeline") }
        let done = DispatchSemaphore(value: 0)
        promise.whenSettled { _ in done.signal() }
        done.wait()
        XCTAssertEqual(try promise.result?.get(), .int(1))
        // Another source's statement at the same place plans afresh: the plans are the checked
        // program's only, and each is taken once.
        var plans = CheckedPlans(source: text, byStart: [0: []])
        XCTAssertNil(plans.take(SourceText("echo 1 | pick @", name: "<test>"), at: 0))
        XCTAssertNotNil(plans.take(text, at: 0))
        XCTAssertNil(plans.take(text, at: 0))

        let withDef = SourceText("def two = echo 2\necho 1 | two", name: "<test>")
        XCTAssertTrue(starter.check(try Parser.parse(withDef)).isEmpty)
        XCTAssertFalse(session.checkedPlans.withLock { $0 != nil }, "a program that defines a stage keeps none")
    }

    /// The check does not plan a group written as the group before it (`then (pick @) | then
    /// (pick @)`), but it walks the groups among that group's arguments: an unknown name deep
    /// inside is found before anything runs, at its place.
    func test_theCheckWalksTheGroupsInsideAGroupWrittenAsTheOneBefore() throws {
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        let starter = StatementStarter(session: session)
        for line in ["echo 1 | tap (tap (tap (nosuch)))", "echo 1 | then (then (then (nosuch)))",
                     "echo 1 | then (pick @) | then (tap (tap (nosuch)))", "echo 1 | then (echo (echo (nosuch)))"] {
            let problems = starter.check(try Parser.parse(SourceText(line, name: "<test>")))
            XCTAssertEqual(problems.map(\.message), ["unknown stage 'nosuch'"], line)
            let at = line.utf8.count - "nosuch)))".utf8.count
            XCTAssertEqual(problems.first?.span.start, at, line)
        }
    }

    /// A one-stage group written as the one planned last takes that one's plan (and direct form)
    /// again when it runs (`Session.lastOneStagePlan`, `lastPureStage`), until a `def` is given:
    /// the name may then mean the `def`, and the group is planned afresh.
    func test_aGroupPlannedAsTheOneBeforeIsPlannedAfreshOnceADefIsGiven() throws {
        let session = Session(output: OutputSink { _ in })
        defer { session.http.shutdown() }
        let starter = StatementStarter(session: session)
        func run(_ line: String) throws -> Value? {
            let text = SourceText(line, name: "<test>")
            let program = try Parser.parse(text)
            XCTAssertTrue(starter.check(program).isEmpty, line)
            var last: Value? = nil
            for started in starter.start(program.statements, in: text) {
                guard case .pipeline(let promise, _) = started else { continue }
                let done = DispatchSemaphore(value: 0)
                promise.whenSettled { _ in done.signal() }
                done.wait()
                last = try promise.result?.get()
            }
            return last
        }
        XCTAssertEqual(try run("echo [1, 2] | then (len)"), .int(2))
        XCTAssertNotNil(session.onExecutor { session.lastOneStagePlan }, "the group's plan is kept")
        XCTAssertEqual(try run("echo [1, 2, 3] | then (len)"), .int(3))
        // The direct form made for the first is run on the second's input; one given another
        // expression is made afresh.
        XCTAssertNotNil(session.onExecutor { session.lastPureStage?.pure }, "the group's direct form is kept")
        XCTAssertEqual(try run("echo {a: 1, b: 2} | then (pick a) | then (pick '{c: @}') | then (pick c)"), .int(1))
        XCTAssertEqual(try run("echo {a: 1, b: 2} | then (pick b)"), .int(2))
        _ = try run("def len = echo 7")
        XCTAssertNil(session.onExecutor { session.lastOneStagePlan }, "a def drops it")
        XCTAssertNil(session.onExecutor { session.lastPureStage?.plan }, "and the direct form")
        XCTAssertEqual(try run("echo [1, 2] | then (len)"), .int(7))
    }
}

