// A list with its first element in place (`FirstInPlaceList`: a run's stages, a stage's
// positional arguments) reads and changes as the array of the same elements would. Generated,
// seeded: runs of 0 to 40 stages, appended after any reservation, compared with an array of the
// same entries by count, by index, by slice and by search; lists of values put through random
// appends, inserts, removals, replacements and assignments, compared with an array after each.
import VowPromises
import VowSyntax
import VowValue
import XCTest

@testable import VowRuntime

final class FirstInPlaceListTests: XCTestCase {
    func test_theEntriesReadAsAnArrayOfThem() throws {
        // Entries told apart by their stages' places: a plan a stage of a long pipeline.
        let text = (0..<60).map { "pick a\($0)" }.joined(separator: " | ")
        let plans = try Planner(registry: .builtins, defs: [:]).plan(Parser.parsePipeline(SourceText(text)))
        let promise = Promise<Value>.resolve(.null)
        var rng = SplitMix64(seed: 4)
        var compared = 0
        for _ in 0..<500 {
            let n = Int.random(in: 0...40, using: &rng)
            var entries = FirstInPlaceList<PipelineRun.Entry>()
            var array: [PipelineRun.Entry] = []
            entries.reserveCapacity(Int.random(in: 0...n, using: &rng))
            XCTAssertTrue(entries.isEmpty)
            for _ in 0..<n {
                let plan = plans[Int.random(in: 0..<plans.count, using: &rng)]
                let e = PipelineRun.Entry(plan: plan, promise: promise, span: plan.writtenSpan)
                entries.append(e)
                array.append(e)
            }
            XCTAssertEqual(entries.count, array.count)
            XCTAssertEqual(entries.map(\.span), array.map(\.span))
            for i in array.indices { XCTAssertEqual(entries[i].span, array[i].span) }
            let cut = Int.random(in: 0...n, using: &rng)
            XCTAssertEqual(entries[cut...].map(\.span), array[cut...].map(\.span))
            let probe = Int.random(in: 0...(text.utf8.count), using: &rng)
            XCTAssertEqual(entries.firstIndex { $0.span.start >= probe }, array.firstIndex { $0.span.start >= probe })
            compared += n
        }
        XCTAssertGreaterThan(compared, 5000)
    }

    func test_aListOfValuesChangesAsAnArrayOfThem() {
        var rng = SplitMix64(seed: 11)
        func value() -> Value {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return .null
            case 1: return .int(Int.random(in: -5...5, using: &rng))
            case 2: return .string(String(repeating: "x", count: Int.random(in: 0...20, using: &rng)))
            default: return .list([.int(Int.random(in: 0...3, using: &rng))])
            }
        }
        var steps = 0
        for _ in 0..<300 {
            var list: FirstInPlaceList<Value> = Bool.random(using: &rng) ? [] : [value()]
            var array: [Value] = Array(list)
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                let n = array.count
                switch Int.random(in: 0..<8, using: &rng) {
                case 0:
                    let v = value()
                    list.append(v)
                    array.append(v)
                case 1:
                    let at = Int.random(in: 0...n, using: &rng)
                    let v = value()
                    list.insert(v, at: at)
                    array.insert(v, at: at)
                case 2 where n > 0:
                    let at = Int.random(in: 0..<n, using: &rng)
                    XCTAssertEqual(list.remove(at: at), array.remove(at: at))
                case 3 where n > 0:
                    XCTAssertEqual(list.removeFirst(), array.removeFirst())
                case 4:
                    let lo = Int.random(in: 0...n, using: &rng)
                    let hi = Int.random(in: lo...n, using: &rng)
                    let new = (0..<Int.random(in: 0...3, using: &rng)).map { _ in value() }
                    list.replaceSubrange(lo..<hi, with: new)
                    array.replaceSubrange(lo..<hi, with: new)
                case 5 where n > 0:
                    let at = Int.random(in: 0..<n, using: &rng)
                    let v = value()
                    list[at] = v
                    array[at] = v
                case 6:
                    let k = Int.random(in: 0...4, using: &rng)
                    list = FirstInPlaceList(repeating: .null, count: k)
                    array = Array(repeating: .null, count: k)
                default:
                    list.removeAll()
                    array.removeAll()
                }
                XCTAssertEqual(Array(list), array)
                XCTAssertEqual(list.count, array.count)
                XCTAssertEqual(list.isEmpty, array.isEmpty)
                XCTAssertEqual(list.dropFirst().map { $0 }, Array(array.dropFirst()))
                XCTAssertEqual(list, FirstInPlaceList(array))
                steps += 1
            }
        }
        XCTAssertGreaterThan(steps, 3000)
    }
}
