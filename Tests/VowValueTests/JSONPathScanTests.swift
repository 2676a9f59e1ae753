import Foundation
@testable import JMESPath
import XCTest

@testable import VowValue

/// The path scan (`json | pick PATH` without building the document) against the reader and the
/// JMESPath search: rule by rule, then on generated documents and paths.
final class JSONPathScanTests: XCTestCase {
    /// The scan of `text` at the JMESPath `expression`, which must be a simple path.
    func scan(_ text: String, _ expression: String, file: StaticString = #filePath, line: UInt = #line) throws -> Value? {
        let path = try XCTUnwrap(JMESPathExpression(expression).simplePath, "not a simple path", file: file, line: line)
        let fromText = JSONPathScan.value(at: path, in: text)
        XCTAssertEqual(fromText, JSONPathScan.value(at: path, in: Array(text.utf8)), "text and bytes differ", file: file, line: line)
        return fromText
    }

    /// What reading the whole document and searching it gives (nil: the reader refuses it).
    func reference(_ text: String, _ expression: String) throws -> Value? {
        guard let v = try? JSON.parse(text) else { return nil }
        return try JMESPathExpression(expression).search(v)
    }

    func test_simplePathsAreRecognised() throws {
        XCTAssertEqual(try JMESPathExpression("items[123456].name").simplePath, [.field("items"), .index(123456), .field("name")])
        XCTAssertEqual(try JMESPathExpression(#""a b".c"#).simplePath, [.field("a b"), .field("c")])
        XCTAssertEqual(try JMESPathExpression("@").simplePath, [])
        XCTAssertEqual(try JMESPathExpression("[0][1]").simplePath, [.index(0), .index(1)])
        for other in ["a[-1]", "a[*].b", "a[0:2]", "a || b", "length(a)", "a[?b]", "a[]", "{x: a}", "`1`"] {
            XCTAssertNil(try JMESPathExpression(other).simplePath, other)
        }
    }

    func test_theValueAtThePath() throws {
        let doc = #"{"items": [{"name": "a"}, {"name": "b", "n": [1, 2.5, true, null]}], "x": {"y": "z"}}"#
        XCTAssertEqual(try scan(doc, "items[1].name"), .string("b"))
        XCTAssertEqual(try scan(doc, "items[1].n"), .list([.int(1), .double(2.5), .bool(true), .null]))
        XCTAssertEqual(try scan(doc, "x"), try reference(doc, "x"))
        XCTAssertEqual(try scan(doc, "@"), try JSON.parse(doc))
    }

    func test_whatFindsNothingIsNull() throws {
        let doc = #"{"a": [1, 2], "s": "text", "n": null}"#
        for expression in ["missing", "a[2]", "a.b", "s.b", "s[0]", "n.x", "[0]", "a[0].b"] {
            XCTAssertEqual(try scan(doc, expression), .null, expression)
        }
    }

    func test_theLastDuplicateWinsAtEveryLevel() throws {
        XCTAssertEqual(try scan(#"{"a": 1, "a": 2}"#, "a"), .int(2))
        // The later "a" has no "b": what the earlier one led to no longer counts.
        XCTAssertEqual(try scan(#"{"a": {"b": 1}, "a": {"c": 2}}"#, "a.b"), .null)
        XCTAssertEqual(try scan(#"{"a": {"b": 1}, "a": 5}"#, "a.b"), .null)
        XCTAssertEqual(try scan(#"{"a": {"b": 1, "b": 3}}"#, "a.b"), .int(3))
        XCTAssertEqual(try scan(#"{"a": {"b": 1}, "x": {"a": {"b": 9}}}"#, "a.b"), .int(1))
    }

    func test_keysWithEscapesMatchTheirText() throws {
        XCTAssertEqual(try scan(#"{"\u0061": 1}"#, "a"), .int(1))
        XCTAssertEqual(try scan(#"{"a\"b": 2}"#, #""a\"b""#), .int(2))
        XCTAssertEqual(try scan(#"{"\u00e9": 3}"#, #""é""#), .int(3))
        XCTAssertEqual(try scan(#"{"\ud83d\ude00": 4}"#, #""😀""#), .int(4))
    }

    func test_whatTheReaderRefusesTheScanRefuses() throws {
        for bad in [
            "", " ", "{", #"{"a": 1,}"#, "[1,]", "01", "1.", "-", "1e", "tru", "nul", "falsey", #""\x""#, #""\u12""#,
            #""\u+041""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, "\"a\u{01}\"", "[1] 2", "{\"a\" 1}", "{1: 2}",
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ] {
            XCTAssertNil(JSONPathScan.value(at: [], in: bad), bad)
            XCTAssertThrowsError(try JSON.parse(bad), bad)
        }
        // Bytes that are not UTF-8, inside a string and outside.
        for bytes: [UInt8] in [[0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0xC3, 0xA9]] {
            XCTAssertNil(JSONPathScan.value(at: [], in: bytes), "\(bytes)")
            XCTAssertThrowsError(try JSON.parse(bytes), "\(bytes)")
        }
        XCTAssertEqual(JSONPathScan.value(at: [], in: [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22]), .string("😀"))
    }

    func test_multiselectsOfSimplePathsAreRecognised() throws {
        let hash = try XCTUnwrap(JMESPathExpression("{s: status, t: a.b[2], w: @}").simpleSelection)
        XCTAssertEqual(hash.keys, ["s", "t", "w"])
        XCTAssertEqual(hash.paths, [[.field("status")], [.field("a"), .field("b"), .index(2)], []])
        let list = try XCTUnwrap(JMESPathExpression("[id, customer.name]").simpleSelection)
        XCTAssertNil(list.keys)
        XCTAssertEqual(list.paths, [[.field("id")], [.field("customer"), .field("name")]])
        // Anything else is left to the search: a member that is not a simple path, a key written
        // twice, a multiselect that is a step of a chain, more members than a mask has bits.
        let many = "[" + (0...JMESPathSelection.maxPaths).map { "k\($0)" }.joined(separator: ", ") + "]"
        for other in ["{a: b[-1]}", "{a: x, a: y}", "a.{b: c}", "[a, length(b)]", "[a][0]", "a", many] {
            XCTAssertNil(try JMESPathExpression(other).simpleSelection, other)
        }
    }

    func test_aSelectionFindsEachPathInOnePass() throws {
        let doc = #"{"status": "paid", "total": 12.5, "c": {"name": "é", "tags": [1, 2]}, "status": "shipped"}"#
        let selection = try XCTUnwrap(JMESPathExpression("{s: status, t: total, n: c.name, g: c.tags[1], m: missing, w: c}").simpleSelection)
        XCTAssertEqual(JSONPathScan.value(of: JSONPathQuery(selection), in: doc), try reference(doc, "{s: status, t: total, n: c.name, g: c.tags[1], m: missing, w: c}"))
        // Two paths through the same key: the later duplicate replaces what the earlier one led to, for each.
        let twice = try XCTUnwrap(JMESPathExpression("[a.b, a.c]").simpleSelection)
        XCTAssertEqual(JSONPathScan.value(of: JSONPathQuery(twice), in: #"{"a": {"b": 1}, "a": {"c": 2}}"#), .list([.null, .int(2)]))
        // On null and on a number, every path finds nothing; text that is not JSON is refused.
        XCTAssertEqual(JSONPathScan.value(of: JSONPathQuery(twice), in: "null"), .list([.null, .null]))
        XCTAssertEqual(JSONPathScan.value(of: JSONPathQuery(selection), in: "5"), try reference("5", "{s: status, t: total, n: c.name, g: c.tags[1], m: missing, w: c}"))
        XCTAssertNil(JSONPathScan.value(of: JSONPathQuery(twice), in: #"{"a": {"b": 1,}}"#))
    }

    /// Generated documents and broken copies of them, on generated multiselects (a hash or a
    /// list of one to five generated paths): the scan must give what the reader and the search
    /// of the multiselect give, and refuse exactly what the reader refuses.
    func test_generatedSelectionsAgreeWithTheSearch() throws {
        try onGeneratedDocuments(seed: 0x5E1E_C7ED, count: 3_000) { rng, text in
            let paths = (0...rng.below(5)).map { _ in rng.path() }
            let members = paths.map(Self.expression)
            let expression = rng.below(2) == 0
                ? "[" + members.joined(separator: ", ") + "]"
                : "{" + members.enumerated().map { "k\($0.offset): \($0.element)" }.joined(separator: ", ") + "}"
            let selection = try XCTUnwrap(JMESPathExpression(expression).simpleSelection, expression)
            XCTAssertEqual(selection.paths, paths, expression)
            let expected = try reference(text, expression)
            XCTAssertEqual(JSONPathScan.value(of: JSONPathQuery(selection), in: Array(text.utf8)), expected, "\(expression) on \(text)")
            XCTAssertEqual(JSONPathScan.value(of: JSONPathQuery(selection), in: text), expected, "\(expression) on \(text)")
            return expected
        }
    }

    /// Runs `check` on `count` generated documents, a third of them broken; `check` gives what
    /// the reader and the search give (nil: the reader refuses the text). Both must be common.
    private func onGeneratedDocuments(seed: UInt64, count: Int, _ check: (inout Generator, String) throws -> Value?) rethrows {
        var rng = Generator(seed: seed)
        var agreed = 0
        var refused = 0
        for _ in 0..<count {
            var text = rng.document(depth: 0)
            if rng.below(3) == 0 { text = rng.broken(text) }
            if try check(&rng, text) == nil { refused += 1 } else { agreed += 1 }
        }
        XCTAssertGreaterThan(agreed, 1_000)
        XCTAssertGreaterThan(refused, 300)
    }

    /// The JMESPath text of a simple path.
    static func expression(_ steps: [JMESPathStep]) -> String {
        steps.isEmpty ? "@" : steps.map { step -> String in
            switch step {
            case .field(let k): return "." + JSONWriter.compact(.string(k))
            case .index(let i): return "[\(i)]"
            }
        }.joined().replacingOccurrences(of: "^\\.", with: "", options: .regularExpression)
    }

    /// Generated documents (duplicates, escapes, non-ASCII, deep nesting) and broken copies of
    /// them, on generated paths: the scan must give what the reader and the search give, and
    /// refuse exactly what the reader refuses.
    func test_generatedDocumentsAgreeWithTheReader() throws {
        try onGeneratedDocuments(seed: 0x5EED_0015, count: 4_000) { rng, text in
            let steps = rng.path()
            let expression = Self.expression(steps)
            let compiled = try JMESPathExpression(expression)
            XCTAssertEqual(compiled.simplePath, steps, expression)
            let expected = try reference(text, expression)
            let scanned = JSONPathScan.value(at: steps, in: Array(text.utf8))
            XCTAssertEqual(scanned, expected, "\(expression) on \(text)")
            XCTAssertEqual(JSONPathScan.value(at: steps, in: text), expected, "\(expression) on \(text)")
            return expected
        }
    }
}

/// A seeded generator of JSON texts and paths.
private struct Generator {
    var random: SplitMix64
    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }

    static let keys = ["a", "b", "items", "name", "é", "a\"b", "", "x y"]
    static let spellings: [String: [String]] = [
        "a": [#""a""#, #""\u0061""#], "b": [#""b""#, #""\u0062""#], "items": [#""items""#], "name": [#""name""#, #""n\u0061me""#],
        "é": [#""é""#, #""\u00e9""#, #""\u00E9""#], "a\"b": [#""a\"b""#, #""a\u0022b""#], "": [#""""#], "x y": [#""x y""#],
    ]
    static let scalars = [
        "1", "-0", "0.5", "1e3", "-2.5E-3", "9223372036854775807", "-9223372036854775808", "92233720368547758070", "1e400",
        "true", "false", "null", #""text""#, #""tab\there""#, #""\ud83d\ude00""#, #""ünï""#, #""\/""#, #""""#,
    ]

    mutating func space() -> String { ["", " ", "\n", "\t ", "\r\n"][below(5)] }

    mutating func document(depth: Int) -> String {
        switch depth > 5 ? 0 : below(4) {
        case 0, 1: return Self.scalars[below(Self.scalars.count)]
        case 2:
            let n = below(5)
            return "[" + (0..<n).map { _ in space() + document(depth: depth + 1) + space() }.joined(separator: ",") + "]"
        default:
            let n = below(5)
            return "{" + (0..<n).map { _ in
                let key = Self.keys[below(Self.keys.count)]
                let spelled = Self.spellings[key]!
                return space() + spelled[below(spelled.count)] + space() + ":" + space() + document(depth: depth + 1)
            }.joined(separator: ",") + "}"
        }
    }

    mutating func broken(_ text: String) -> String {
        var chars = Array(text.unicodeScalars)
        guard !chars.isEmpty else { return "," }
        let at = below(chars.count)
        switch below(4) {
        case 0: chars.remove(at: at)
        case 1: chars.insert([",", "]", "}", "\"", "\\", "\u{01}", "0", "-"][below(8)], at: at)
        case 2: chars = Array(chars[0..<at])
        default: chars[at] = ["[", "{", ":", "x", "\u{7F}"][below(5)]
        }
        var s = ""
        s.unicodeScalars.append(contentsOf: chars)
        return s
    }

    mutating func path() -> [JMESPathStep] {
        (0..<below(4)).map { _ in below(3) == 0 ? .index(below(3)) : .field(Self.keys[below(Self.keys.count)]) }
    }
}
