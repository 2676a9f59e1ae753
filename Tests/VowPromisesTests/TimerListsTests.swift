import XCTest

@testable import VowPromises

/// node's timer rules (lib/internal/timers.js), rule by rule, on a clock the test sets: timers
/// are kept in one list a duration; a pass at one `now` takes the lists by expiry (ties to the
/// older list) and each list's due timers in the order they were set.
final class TimerListsTests: XCTestCase {
    private var names: [ObjectIdentifier: String] = [:]

    /// A timer known by a name, never armed: the test drives the lists by hand.
    private func timer(_ name: String, ms: Double) -> OneShotTimer {
        let t = OneShotTimer(unarmedAfter: ms / 1000, on: ExecutorRef(PromiseExecutors.main)) {}
        names[ObjectIdentifier(t)] = name
        return t
    }

    private func name(_ t: OneShotTimer?) -> String? { t.flatMap { names[ObjectIdentifier($0)] } }

    private func pass(_ lists: inout TimerLists, now: Double) -> [String] {
        var out: [String] = []
        while let t = lists.nextDue(now: now) { out.append(name(t) ?? "?") }
        return out
    }

    func test_aWaitUnderOneMillisecondIsOneMillisecond() {
        XCTAssertEqual(TimerLists.milliseconds(0), 1)
        XCTAssertEqual(TimerLists.milliseconds(0.0004), 1)
        XCTAssertEqual(TimerLists.milliseconds(-3), 1)
        XCTAssertEqual(TimerLists.milliseconds(.nan), 1)
        XCTAssertEqual(TimerLists.milliseconds(0.0025), 2.5)
        XCTAssertEqual(TimerLists.milliseconds(1e9), 1, "past 2^31 - 1 ms, node waits 1 ms")
    }

    func test_timersOfOneWaitRunInTheOrderSet() {
        var lists = TimerLists()
        for n in ["a", "b", "c"] { lists.insert(timer(n, ms: 5), start: 100) }
        XCTAssertEqual(pass(&lists, now: 104), [])
        XCTAssertEqual(pass(&lists, now: 105), ["a", "b", "c"])
        XCTAssertNil(lists.nextExpiry)
    }

    func test_aTimerNotDueYetEndsItsListsPassAndTheListGoesBackWithANewExpiry() {
        var lists = TimerLists()
        lists.insert(timer("a", ms: 1), start: 100)
        lists.insert(timer("b", ms: 1), start: 102)
        XCTAssertEqual(pass(&lists, now: 101), ["a"])
        XCTAssertEqual(lists.nextExpiry, 103, "max(start + msecs, now + 1)")
        XCTAssertEqual(pass(&lists, now: 103), ["b"])
    }

    func test_listsGoByExpiryThenByTheOlderList() {
        var lists = TimerLists()
        lists.insert(timer("two", ms: 2), start: 100)   // list of 2 ms, expiry 102
        lists.insert(timer("one", ms: 1), start: 101)   // list of 1 ms, expiry 102, newer
        lists.insert(timer("five", ms: 5), start: 96)   // expiry 101
        XCTAssertEqual(pass(&lists, now: 110), ["five", "two", "one"])
    }

    func test_aListThatGoesBackGetsANewIdAndLosesTiesToOlderLists() {
        // node: the 1 ms list re-queued in the pass at 101 gets a new id, so at 102 the 2 ms list
        // (older) runs first though both expire at 102.
        var lists = TimerLists()
        lists.insert(timer("a", ms: 1), start: 100)
        lists.insert(timer("f", ms: 2), start: 100)
        XCTAssertEqual(pass(&lists, now: 101), ["a"])
        lists.insert(timer("c", ms: 1), start: 101)  // set by a's callback, after the pass took a
        XCTAssertEqual(pass(&lists, now: 101), [], "a timer set during a pass never runs in it")
        XCTAssertEqual(pass(&lists, now: 102), ["f", "c"])
    }

    func test_aListEmptiedByAPassTakesTheTimersItsCallbacksSet() {
        // The list stays queued while its last timer's callback runs, so a timer of the same wait
        // set there joins it; the next pass finds it not due and re-queues the list.
        var lists = TimerLists()
        lists.insert(timer("a", ms: 1), start: 100)
        lists.insert(timer("g", ms: 3), start: 99)  // expiry 102
        XCTAssertEqual(name(lists.nextDue(now: 101)), "a")
        lists.insert(timer("c", ms: 1), start: 101)
        XCTAssertNil(lists.nextDue(now: 101))
        XCTAssertEqual(pass(&lists, now: 102), ["g", "c"])
    }

    func test_aClearedTimerNeverRunsAndAnEmptiedListIsGone() {
        var lists = TimerLists()
        let a = timer("a", ms: 1)
        lists.insert(a, start: 100)
        lists.insert(timer("b", ms: 1), start: 100)
        XCTAssertTrue(lists.remove(a))
        XCTAssertFalse(lists.remove(a), "removing twice")
        XCTAssertEqual(pass(&lists, now: 101), ["b"])
        let only = timer("x", ms: 4)
        lists.insert(only, start: 100)
        XCTAssertTrue(lists.remove(only))
        XCTAssertNil(lists.nextExpiry, "the list went with its last timer")
    }
}
