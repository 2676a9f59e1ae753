// libFuzzer target: the JSON reader, writing back what it read, and the path scan and the
// demand-driven read, which must agree with reading the whole document and searching it.
import JMESPath
import VowValue

/// The paths the scan is checked with; the input's first byte picks one.
let paths: [[JMESPathStep]] = [
    [], [.field("a")], [.index(0)], [.field("a"), .index(1)], [.index(0), .field("b")],
    [.field("items"), .index(2), .field("name")], [.field("é")], [.field("a\"b")], [.field("")],
]

/// Expressions whose demand builds part of a document; the input's first byte picks one.
let expressions = ["a[*].b", "[?a].b", "a.*", "length(a)", "{x: a[0], y: b}", "a[-1].b", "a[].b | [0]", "b || a[1:]"].map {
    try! JMESPathExpression($0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let path = paths[Int(data[0]) % paths.count]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let parsed = try? JSON.parse(bytes, maxDepth: 64)
    if let v = parsed {
        // What was read must print and read back the same.
        let text = JSONWriter.compact(v)
        guard let again = try? JSON.parse(text), again == v else { fatalError("round trip failed for \(text)") }
    }
    let expected = parsed.map { v in path.reduce(v) { at, step in
        switch (step, at) {
        case (.field(let k), .record(let r)): return r[k] ?? .null
        case (.index(let i), .list(let l)): return i < l.count ? l[i] : .null
        default: return .null
        }
    } }
    let scanned = bytes.withUnsafeBufferPointer { JSONPathScan.value(at: path, in: $0, textIsUTF8: false, maxDepth: 64) }
    guard scanned == expected else { fatalError("scan gave \(String(describing: scanned)), the reader \(String(describing: expected))") }
    let expression = expressions[Int(data[0]) % expressions.count]
    let built = bytes.withUnsafeBufferPointer { JSONPathScan.document(for: expression.demand, in: $0, textIsUTF8: false, maxDepth: 64) }
    guard (built == nil) == (parsed == nil) else { fatalError("the demand read and the reader disagree on validity") }
    if let built, let parsed {
        let a = try? expression.search(built), b = try? expression.search(parsed)
        guard a == b else { fatalError("`\(expression.source)`: \(String(describing: a)) on the built document, \(String(describing: b)) on the whole") }
    }
    if let text = String(validating: bytes, as: UTF8.self) {
        guard JSONPathScan.value(at: path, in: text, maxDepth: 64) == expected else { fatalError("scan of the text disagrees") }
    }
    return 0
}
