import XCTest

@testable import VowSyntax

final class ParserTests: XCTestCase {
    func parse(_ s: String) throws -> Program { try Parser.parse(SourceText(s)) }

    func pipeline(_ s: String) throws -> Pipeline {
        let p = try parse(s)
        guard case .pipeline(let pl, _) = p.statements[0].kind else { throw XCTSkip("not a pipeline") }
        return pl
    }

    func test_stagesAreJoinedByPipes() throws {
        let p = try pipeline("fetch https://api.example.com/user/me | json | pick user.name | then fetch \"https://api.example.com/followers/{}\" | json | pick count")
        XCTAssertEqual(p.stages.map { $0.name }, ["fetch", "json", "pick", "then", "json", "pick"])
        guard case .word(let t) = p.stages[0].arguments[0].kind else { return XCTFail("expected a word") }
        XCTAssertEqual(t.literalText, "https://api.example.com/user/me")
        guard case .string(let s) = p.stages[3].arguments[1].kind else { return XCTFail("expected a string") }
        XCTAssertEqual(s.parts, [.literal("https://api.example.com/followers/"), .input(path: nil)])
    }

    func test_urlWithQueryAndFragmentIsOneWord() throws {
        let p = try pipeline("fetch https://h/x?a=1&b=2#top")
        XCTAssertEqual(p.stages[0].arguments.count, 1)
        guard case .word(let t) = p.stages[0].arguments[0].kind else { return XCTFail() }
        XCTAssertEqual(t.literalText, "https://h/x?a=1&b=2#top")
    }

    func test_jmespathWithBracketsIsOneWord() throws {
        let p = try pipeline("pick items[0].name")
        guard case .word(let t) = p.stages[0].arguments[0].kind else { return XCTFail() }
        XCTAssertEqual(t.literalText, "items[0].name")
    }

    /// A lone word in a literal is a value, but after a `|` a word is a stage: `[reject x | catch]`
    /// ends with a catch. (Found by the differential test against node.)
    func test_aWordAfterAPipeInALiteralIsAStage() throws {
        let p = try pipeline("race [reject e | catch, b]")
        guard case .list(let elements) = p.stages[0].arguments[0].kind else { return XCTFail("expected a list") }
        XCTAssertEqual(elements[0].stages.map(\.name), ["reject", "catch"])
        XCTAssertNil(elements[1].stages[0].name)
    }

    func test_listElementsArePipelines() throws {
        let p = try pipeline("race [delay 50ms slow, delay 10ms fast]")
        guard case .list(let els) = p.stages[0].arguments[0].kind else { return XCTFail() }
        XCTAssertEqual(els.count, 2)
        XCTAssertEqual(els[1].stages[0].name, "delay")
        guard case .duration(let s, _) = els[1].stages[0].arguments[0].kind else { return XCTFail() }
        XCTAssertEqual(s, 0.01, accuracy: 1e-9)
    }

    func test_recordValuesArePipelines() throws {
        let p = try pipeline("all {a: delay 50ms 1, b: delay 10ms 2, \"k 2\": $x}")
        guard case .record(let f) = p.stages[0].arguments[0].kind else { return XCTFail() }
        XCTAssertEqual(f.map(\.key), ["a", "b", "k 2"])
        guard case .variable(let n, nil) = f[2].value.stages[0].head.argumentKind else { return XCTFail() }
        XCTAssertEqual(n, "x")
    }

    func test_groupAndFlags() throws {
        let p = try pipeline("echo [1, 2, 3] | each (then format \"n{}\") --limit 2")
        let each = p.stages[1]
        guard case .group(let g) = each.arguments[0].kind, case .flag("limit") = each.arguments[1].kind,
            case .number(2, true, "2") = each.arguments[2].kind
        else { return XCTFail() }
        XCTAssertEqual(g.stages[0].name, "then")
    }

    func test_variablesWithPathsAndInterpolation() throws {
        let p = try pipeline("format \"{login} has {stars} stars ${user.name} $x.a\"")
        guard case .string(let t) = p.stages[0].arguments[0].kind else { return XCTFail() }
        XCTAssertEqual(t.parts, [.input(path: "login"), .literal(" has "), .input(path: "stars"), .literal(" stars "),
                                 .variable(name: "user", path: "name"), .literal(" "), .variable(name: "x", path: nil), .literal(".a")])
    }

    func test_letDefBackgroundMetaAndComments() throws {
        let p = try parse("let u = echo 1 # a comment\ndef greet(a, b) = format \"{}\"; delay 1s x &\n:explain echo 1 | len")
        XCTAssertEqual(p.statements.count, 4)
        guard case .letBinding("u", _, _) = p.statements[0].kind else { return XCTFail() }
        guard case .def("greet", ["a", "b"], _, false) = p.statements[1].kind else { return XCTFail() }
        guard case .pipeline(_, true) = p.statements[2].kind else { return XCTFail() }
        guard case .meta("explain", "echo 1 | len", _) = p.statements[3].kind else { return XCTFail() }
    }

    func test_trailingPipeContinuesOnTheNextLine() throws {
        let p = try pipeline("echo 1 |\n  len")
        XCTAssertEqual(p.stages.count, 2)
        XCTAssertFalse(Parser.isComplete("echo 1 |"))
        XCTAssertFalse(Parser.isComplete("echo [1,"))
        XCTAssertFalse(Parser.isComplete("echo \"abc"))
        XCTAssertTrue(Parser.isComplete("echo [1,\n 2]"))
    }

    func test_unclosedBraceNamesLineAndColumn() {
        XCTAssertThrowsError(try parse("echo {\"a\": 1")) { e in
            let e = e as! SyntaxError
            XCTAssertEqual(e.line, 1)
            XCTAssertEqual(e.column, 6)
            XCTAssertTrue(e.isIncomplete)
            XCTAssertTrue(e.render(source: SourceText("echo {\"a\": 1")).contains("     ^"))
        }
    }

    func test_errorsForMalformedPrograms() {
        for bad in ["echo a | | b", "let x echo 1", "def (a) = echo", "echo \"\\q\"", "echo a & echo b", "echo )", "echo 'abc"] {
            XCTAssertThrowsError(try parse(bad), bad)
        }
    }

    func test_numbersDurationsAndLiterals() throws {
        let p = try pipeline("echo 42 -3 1.5 1e3 250ms true null 1.2.3")
        let kinds = p.stages[0].arguments.map { "\($0.kind)" }
        XCTAssertTrue(kinds[0].contains("number(42.0, isInteger: true"))
        XCTAssertTrue(kinds[1].contains("number(-3.0, isInteger: true"))
        XCTAssertTrue(kinds[2].contains("isInteger: false"))
        XCTAssertTrue(kinds[3].contains("number(1000.0, isInteger: false"))
        XCTAssertTrue(kinds[4].contains("duration(seconds: 0.25"))
        XCTAssertTrue(kinds[5].contains("boolean(true)"))
        XCTAssertTrue(kinds[6].contains("null"))
        XCTAssertTrue(kinds[7].contains("word"))
    }

    func test_spansAreExact() throws {
        let p = try pipeline("echo 1 | pick a.b")
        XCTAssertEqual(p.stages[1].span, SourceSpan(start: 9, end: 17))
    }

    func test_deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        XCTAssertThrowsError(try parse("echo " + deep)) { e in
            XCTAssertTrue((e as! SyntaxError).message.contains("nesting"))
        }
    }

    func test_randomInputNeverCrashes() {
        var state: UInt64 = 42
        let alphabet = Array("ab |;&#'\"{}[](),:$%-_.\n\\0123456789x=le tdf")
        for _ in 0..<5_000 {
            var s = ""
            for _ in 0..<Int(state % 40) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                s.append(alphabet[Int((state >> 33) % UInt64(alphabet.count))])
            }
            state = state &* 6364136223846793005 &+ 1442695040888963407
            _ = try? parse(s)
            _ = Parser.isComplete(s)
        }
    }
}

extension StageNode.Head {
    var argumentKind: ArgumentKind? {
        if case .value(let a) = self { return a.kind }
        return nil
    }
}

/// The quoting rule: inside words and double-quoted strings a variable's name ends where the
/// identifier ends; `${name.PATH}` reaches into it; a whole argument `$name.PATH` is a path.
final class QuotingRuleTests: XCTestCase {
    func parts(_ source: String) throws -> [Template.Part] {
        let p = try Parser.parsePipeline(SourceText(source))
        switch p.stages[0].arguments[0].kind {
        case .string(let t), .word(let t): return t.parts
        default: XCTFail("not a template: \(p.stages[0].arguments[0].kind)"); return []
        }
    }

    func test_aVariableInAStringEndsWithItsName() throws {
        XCTAssertEqual(try parts(#"echo "$f.json""#), [.variable(name: "f", path: nil), .literal(".json")])
        XCTAssertEqual(try parts("echo dl/$f.json"), [.literal("dl/"), .variable(name: "f", path: nil), .literal(".json")])
        XCTAssertEqual(try parts(#"echo "${u.name}!""#), [.variable(name: "u", path: "name"), .literal("!")])
        XCTAssertEqual(try parts(#"echo "$a[0]""#), [.variable(name: "a", path: nil), .literal("[0]")])
    }

    func test_aWholeArgumentVariableKeepsItsPath() throws {
        let p = try Parser.parsePipeline(SourceText("echo $user.name"))
        guard case .variable(let name, let path) = p.stages[0].arguments[0].kind else { return XCTFail() }
        XCTAssertEqual(name, "user")
        XCTAssertEqual(path, "name")
    }
}
