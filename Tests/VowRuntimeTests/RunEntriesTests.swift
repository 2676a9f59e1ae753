// A run's stages (`RunEntries`: the first in place, the others in a list) read as the list of
// them would. Generated, seeded: runs of 0 to 40 stages, appended after any reservation, are
// compared with an array of the same entries by count, by index, by slice and by search.
import VowPromises
import VowSyntax
import VowValue
import XCTest

@testable import VowRuntime

final class RunEntriesTests: XCTestCase {
    func test_theEntriesReadAsAnArrayOfThem() throws {
        let plan = try Planner(registry: .builtins, defs: [:]).plan(Parser.parsePipeline(SourceText("pick @")))[0]
        let promise = Promise<Value>.resolve(.null)
        var rng = SplitMix64(seed: 4)
        var compared = 0
        for _ in 0..<500 {
            let n = Int.random(in: 0...40, using: &rng)
            var entries = RunEntries()
            var array: [PipelineRun.Entry] = []
            entries.reserveCapacity(Int.random(in: 0...n, using: &rng))
            XCTAssertTrue(entries.isEmpty)
            for _ in 0..<n {
                let start = Int.random(in: 0...1000, using: &rng)
                let e = PipelineRun.Entry(plan: plan, promise: promise, span: SourceSpan(start: start, end: start + Int.random(in: 0...9, using: &rng)))
                entries.append(e)
                array.append(e)
            }
            XCTAssertEqual(entries.count, array.count)
            XCTAssertEqual(entries.map(\.span), array.map(\.span))
            for i in array.indices { XCTAssertEqual(entries[i].span, array[i].span) }
            let cut = Int.random(in: 0...n, using: &rng)
            XCTAssertEqual(entries[cut...].map(\.span), array[cut...].map(\.span))
            let probe = Int.random(in: 0...1000, using: &rng)
            XCTAssertEqual(entries.firstIndex { $0.span.start >= probe }, array.firstIndex { $0.span.start >= probe })
            compared += n
        }
        XCTAssertGreaterThan(compared, 5000)
    }
}
