// The 16 `bench` cases of the JMESPath Community compliance suite: compile once, then time evaluations.
// Prints one line per case (ns per evaluation, and compile time) and a summary line.
import Foundation
import JMESPath
import VowValue

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let path = CommandLine.arguments.dropFirst().first
    ?? root.appendingPathComponent("testdata/jmespath-community-compliance/benchmarks.json").path
guard let data = FileManager.default.contents(atPath: path), let suites = try? JSON.parse([UInt8](data)) else {
    FileHandle.standardError.write(Data("jmespath bench: cannot read \(path)\n".utf8))
    exit(1)
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func rss() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    return (Int(s.split(separator: " ")[1]) ?? 0) * 4096
}

if let expr = ProcessInfo.processInfo.environment["VOW_LEAK_CHECK"] {
    // Compiles EXPR 2,000,000 times and reports resident memory before and after.
    let before = rss()
    for _ in 0..<2_000_000 { _ = try? JMESPathExpression(expr) }
    print("leak check: \(expr): \(before / 1_000_000) MB -> \(rss() / 1_000_000) MB")
    exit(0)
}

var total = 0.0
var count = 0
for suite in suites.listValue ?? [] {
    let given = suite.recordValue?["given"] ?? .null
    for c in suite.recordValue?["cases"]?.listValue ?? [] {
        guard let expression = c.recordValue?["expression"]?.stringValue, c.recordValue?["bench"] != nil else { continue }
        let compileStart = now()
        var compiled: JMESPathExpression?
        for _ in 0..<100 { compiled = try? JMESPathExpression(expression) }
        let compileNs = Double(now() - compileStart) / 100
        guard let expr = compiled else {
            print("  error compiling \(expression)")
            continue
        }
        // Warm up, then run for about 50 ms.
        var sink = 0
        for _ in 0..<10 { if (try? expr.search(given)) != nil { sink += 1 } }
        var iterations = 0
        let start = now()
        while now() - start < 50_000_000 {
            for _ in 0..<10 { if (try? expr.search(given)) != nil { sink += 1 } }
            iterations += 10
        }
        let ns = Double(now() - start) / Double(iterations)
        total += ns
        count += 1
        let shown = expression.count > 48 ? String(expression.prefix(47)) + "…" : expression
        let kind = c.recordValue?["bench"]?.stringValue ?? ""
        print("  " + shown.padding(toLength: 50, withPad: " ", startingAt: 0) + String(format: " %10.0f ns/eval  compile %8.0f ns  ", ns, compileNs) + kind)
        if sink < 0 { print(sink) }
    }
}
print(String(format: "jmespath cases=%d mean-ns-per-eval=%.0f", count, total / Double(max(count, 1))))
