// What `each` keeps of its results: all of them, or (before `len`) none, so that what the inner
// stage made is freed as each element settles and memory follows --limit, not the list's length.
import Foundation
import VowPromises
import VowSyntax
import VowValue
import XCTest

@testable import VowRuntime

/// An object an element's result holds, to see whether anything still keeps it.
private final class Held: OpaqueValue, @unchecked Sendable {
    var typeName: String { "held" }
    var displayText: String { "<held>" }
}

final class EachResultsTests: XCTestCase {
    /// Runs an `EachRunner` over three elements whose results each hold a fresh object, and
    /// returns the list it settles with and weak references to the objects.
    private func run(keepsResults: Bool, stream: Bool) throws -> (Value, [() -> AnyObject?]) {
        let ex = SerialPromiseExecutor(label: "each-results")
        let made = Locked<[WeakHeld]>([])
        let inner: @Sendable (Value) -> Promise<Value> = { _ in
            let h = Held()
            made.withLock { $0.append(WeakHeld(h)) }
            return Promise.delay(0.001, value: .opaque(h), on: ex)
        }
        let promise: Promise<Value> = onExecutor(ex) {
            if stream {
                let s = ValueStream(label: "items")
                _ = s.push([.int(1), .int(2), .int(3)])
                s.finish()
                return StreamEachRunner(stream: s, limit: 2, inner: inner, ex: ex, cancelsOthers: true, keepsResults: keepsResults).start()
            }
            return EachRunner(items: [.int(1), .int(2), .int(3)], limit: 2, inner: { .promise(inner($0), nil) }, ex: ex, cancelsOthers: true, keepsResults: keepsResults).start()
        }
        let done = DispatchSemaphore(value: 0)
        promise.whenSettled { _ in done.signal() }
        done.wait()
        let value = try XCTUnwrap(promise.result).get()
        // The element promises are released on the executor after they settle: let it finish.
        onExecutor(ex) {}
        return (value, made.withLock { $0.map { w in { w.object } } })
    }

    func test_aCountedEachKeepsNoResult() throws {
        for stream in [false, true] {
            let (kept, keptObjects) = try run(keepsResults: true, stream: stream)
            XCTAssertEqual(kept.listCount, 3)
            XCTAssertEqual(keptObjects.filter { $0() != nil }.count, 3, "the results hold what the elements made")
            let (counted, countedObjects) = try run(keepsResults: false, stream: stream)
            if stream {
                // Over a stream, not even a list of nulls: the count alone, which `len` reads.
                guard case .opaque(let c as CountedResults) = counted else { return XCTFail("\(counted)") }
                XCTAssertEqual(c.count, 3, "the count is the same")
                XCTAssertEqual(counted.typeName, "list")
                XCTAssertEqual(c.displayText, "<3 results, counted rather than kept>")
            } else {
                XCTAssertEqual(counted.listCount, 3, "the count is the same")
            }
            XCTAssertEqual(countedObjects.filter { $0() != nil }.count, 0, "nothing an element made is kept (stream: \(stream))")
            withExtendedLifetime(kept) {}
        }
    }
}

/// `body`'s value, run on `ex`.
private func onExecutor<R: Sendable>(_ ex: SerialPromiseExecutor, _ body: @escaping @Sendable () -> R) -> R {
    let box = Locked<R?>(nil)
    let done = DispatchSemaphore(value: 0)
    ex.enqueue {
        let r = body()
        box.withLock { $0 = r }
        done.signal()
    }
    done.wait()
    return box.withLock { $0! }
}

private final class WeakHeld: @unchecked Sendable {
    weak var object: Held?
    init(_ object: Held) { self.object = object }
}

extension Value {
    fileprivate var listCount: Int? {
        if case .list(let l) = self { return l.count }
        return nil
    }
}
