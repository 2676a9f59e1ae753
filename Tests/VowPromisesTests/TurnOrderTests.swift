import Dispatch
import XCTest

@testable import VowPromises

/// Turn counts of the combinators and of `finally`, checked against node 20. Each test builds
/// two or three chains in one executor turn (as a JavaScript script does in its first task) and
/// compares the order of their events with the order node printed for the JavaScript in the
/// comment, where `log` pushes to an array and the chain `c` is
/// `Promise.resolve().then(() => log('c1')).then(() => log('c2'))…`.
final class TurnOrderTests: XCTestCase {
    typealias LogFn = @Sendable (String) -> Void

    /// Runs `build` as one job on a fresh serial executor, waits until everything ran, and
    /// returns what was logged.
    func order(_ build: @escaping @Sendable (SerialPromiseExecutor, @escaping LogFn) -> Void) -> [String] {
        logged(build)
    }

    func test_all() {
        // Promise.all([Promise.resolve(1), Promise.resolve(2)]).then(() => log('all')); c
        // node: c1 all c2 c3 c4
        let got = order { ex, log in
            _ = Promise.all([.resolve(1, on: ex), .resolve(2, on: ex)], on: ex).then(on: ex) { _ in log("all") }
            turnChain(4, ex, log)
        }
        XCTAssertEqual(got, ["c1", "all", "c2", "c3", "c4"])
    }

    func test_allMapSettlesInTheTurnOfTheLastReaction() {
        // Same as test_all: the map runs in the element's reaction, with no extra turn.
        // node: c1 all c2 c3 c4
        let got = order { ex, log in
            _ = Promise.all([.resolve(1, on: ex), .resolve(2, on: ex)], on: ex) { $0.reduce(0, +) }
                .then(on: ex) { v in log(v == 3 ? "all" : "wrong") }
            _ = Promise.all(keyed: [(key: "a", value: Promise.resolve(1, on: ex))], on: ex)
                .then(on: ex) { kv in log(kv[0].key == "a" ? "keyed" : "wrong") }
            turnChain(4, ex, log)
        }
        XCTAssertEqual(got, ["c1", "all", "keyed", "c2", "c3", "c4"])
    }

    func test_allReject() {
        // Promise.all([Promise.resolve(1), Promise.reject(new Error('x'))]).catch(() => log('all')); c
        // node: c1 all c2 c3 c4
        let got = order { ex, log in
            _ = Promise.all([.resolve(1, on: ex), .reject(TestError("x"), on: ex)], on: ex, cancelsOthers: false)
                .recover(on: ex) { _ -> [Int] in log("all"); return [] }
            turnChain(4, ex, log)
        }
        XCTAssertEqual(got, ["c1", "all", "c2", "c3", "c4"])
    }

    func test_allOfChains() {
        // const a = Promise.resolve(1).then(v => { log('a'); return v; });
        // const b = Promise.resolve(2).then(v => { log('b1'); return v; }).then(v => { log('b2'); return v; });
        // Promise.all([a, b]).then(() => log('all')); c
        // node: a b1 c1 b2 c2 c3 all c4
        let got = order { ex, log in
            let a = Promise.resolve(1, on: ex).then(on: ex) { v -> Int in log("a"); return v }
            let b = Promise.resolve(2, on: ex).then(on: ex) { v -> Int in log("b1"); return v }
                .then(on: ex) { v -> Int in log("b2"); return v }
            _ = Promise.all([a, b], on: ex).then(on: ex) { _ in log("all") }
            turnChain(4, ex, log)
        }
        XCTAssertEqual(got, ["a", "b1", "c1", "b2", "c2", "c3", "all", "c4"])
    }

    func test_race() {
        // Promise.race([Promise.resolve(1), Promise.resolve(2)]).then(() => log('race')); c
        // node: c1 race c2 c3 c4
        let got = order { ex, log in
            _ = Promise.race([.resolve(1, on: ex), .resolve(2, on: ex)], on: ex).then(on: ex) { _ in log("race") }
            turnChain(4, ex, log)
        }
        XCTAssertEqual(got, ["c1", "race", "c2", "c3", "c4"])
    }

    func test_any() {
        // Promise.any([Promise.reject(new Error('x')), Promise.resolve(2)]).then(() => log('any'));
        // Promise.any([Promise.reject(new Error('x')), Promise.reject(new Error('y'))]).catch(() => log('anyAgg')); c
        // node: c1 any anyAgg c2 c3 c4
        let got = order { ex, log in
            _ = Promise.any([.reject(TestError("x"), on: ex), .resolve(2, on: ex)], on: ex).then(on: ex) { _ in log("any") }
            _ = Promise<Int>.any([.reject(TestError("x"), on: ex), .reject(TestError("y"), on: ex)], on: ex)
                .recover(on: ex) { e -> Int in log(e is AggregateError ? "anyAgg" : "wrong"); return 0 }
            turnChain(4, ex, log)
        }
        XCTAssertEqual(got, ["c1", "any", "anyAgg", "c2", "c3", "c4"])
    }

    func test_allSettled() {
        // Promise.allSettled([Promise.reject(new Error('x')), Promise.resolve(2)]).then(() => log('settled')); c
        // node: c1 settled c2 c3 c4
        let got = order { ex, log in
            _ = Promise.settle([.reject(TestError("x"), on: ex), .resolve(2, on: ex)], on: ex) { $0.count }
                .then(on: ex) { n in log(n == 2 ? "settled" : "wrong") }
            turnChain(4, ex, log)
        }
        XCTAssertEqual(got, ["c1", "settled", "c2", "c3", "c4"])
    }

    func test_finallyWithASideEffect() {
        // Promise.resolve(1).finally(() => log('f')).then(() => log('after'));
        // Promise.reject(new Error('e')).finally(() => log('g')).catch(() => log('caught')); c (5)
        // node: f g c1 c2 c3 after caught c4 c5
        let got = order { ex, log in
            _ = Promise.resolve(1, on: ex).finally(on: ex) { log("f") }.then(on: ex) { _ in log("after") }
            _ = Promise<Int>.reject(TestError("e"), on: ex).finally(on: ex) { log("g") }
                .recover(on: ex) { _ -> Int in log("caught"); return 0 }
            turnChain(5, ex, log)
        }
        XCTAssertEqual(got, ["f", "g", "c1", "c2", "c3", "after", "caught", "c4", "c5"])
    }

    func test_finallyReturningAPromise() {
        // Promise.resolve(1).finally(() => { log('f'); return Promise.resolve(0); }).then(() => log('after'));
        // Promise.reject(new Error('e')).finally(() => { log('g'); return Promise.resolve(0).then(() => log('g1')); })
        //   .catch(() => log('caught')); c (6)
        // node: f g c1 g1 c2 c3 after c4 caught c5 c6
        let got = order { ex, log in
            _ = Promise.resolve(1, on: ex).finally(on: ex) { () -> Promise<Int> in log("f"); return .resolve(0, on: ex) }
                .then(on: ex) { _ in log("after") }
            _ = Promise<Int>.reject(TestError("e"), on: ex)
                .finally(on: ex) { () -> Promise<Void> in
                    log("g")
                    return Promise.resolve(0, on: ex).then(on: ex) { _ in log("g1") }
                }
                .recover(on: ex) { _ -> Int in log("caught"); return 0 }
            turnChain(6, ex, log)
        }
        XCTAssertEqual(got, ["f", "g", "c1", "g1", "c2", "c3", "after", "c4", "caught", "c5", "c6"])
    }
}

/// The chain c1, c2, … cN of the turn tests, one event per turn.
func turnChain(_ n: Int, _ ex: SerialPromiseExecutor, _ log: @escaping @Sendable (String) -> Void) {
    var p = Promise<Void>.resolve((), on: ex)
    for i in 1...n { p = p.then(on: ex) { _ in log("c\(i)") } }
}
