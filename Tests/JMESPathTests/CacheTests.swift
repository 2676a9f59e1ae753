// The shared compile cache: bounded, shared between threads, never caching errors.
import Dispatch
import VowValue
import XCTest

@testable import JMESPath

final class CacheTests: XCTestCase {
    func test_aHitReturnsTheSameCompiledExpression() throws {
        let a = try JMESPathExpression.cached("cache.hit.same")
        let b = try JMESPathExpression.cached("cache.hit.same")
        XCTAssertTrue(a === b)
    }

    func test_errorsAreNotCachedAndStayErrors() {
        for _ in 0..<2 {
            XCTAssertThrowsError(try JMESPathExpression.cached("cache.[")) { e in
                XCTAssertEqual((e as? JMESPathError)?.kind, .syntax, "\(e)")
            }
        }
    }

    func test_manyThreadsCompilingMoreThanTheCapacityGetCorrectExpressions() throws {
        let distinct = JMESPathExpression.cacheCapacity * 2
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in 0..<distinct {
                let k = (i * 7 + t) % distinct
                let value = Value.record(Record([("k\(k)", .int(k))]))
                guard let e = try? JMESPathExpression.cached("k\(k)"), (try? e.search(value)) == .int(k) else {
                    failures.withLock { $0 += 1 }
                    continue
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        XCTAssertLessThanOrEqual(JMESPathExpression.cachedCount, JMESPathExpression.cacheCapacity)
    }
}
