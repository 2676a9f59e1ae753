import Dispatch

/// The timers of one serial executor, kept as node keeps its own (lib/internal/timers.js): one
/// list per duration, in the order the timers were set, and a priority queue of those lists by
/// their expiry, ties going to the list with the lower id.
///
/// A timer starts at a millisecond (`start`) and is due once `now - start >= msecs`. A pass over
/// the due timers (`nextDue`) has one `now`: it takes the lists in the order of the queue and
/// each list's timers from its head while they are due; the list whose head is not due yet gets
/// a new expiry and a new id and goes back in the queue, as node's `listOnTimeout` does. A timer
/// set while a pass runs starts at that pass's `now` or later, so it never runs in the same pass.
///
/// Not thread-safe: its executor holds it under its lock. The fields of its lists and timers
/// are touched only there, one access at a time: they need no dynamic exclusivity checks (two
/// to four a timer set or taken, 4% of a pending promise with a timer and a handler).
struct TimerLists {
    /// The timers of one duration, in the order they were set (linked through the timers).
    final class List: HeapPlaced {
        let msecs: Double
        @exclusivity(unchecked) var expiry: Double
        @exclusivity(unchecked) var id: UInt64
        @exclusivity(unchecked) var heapIndex = -1
        @exclusivity(unchecked) var head: OneShotTimer?
        @exclusivity(unchecked) unowned(unsafe) var tail: OneShotTimer?

        init(msecs: Double, expiry: Double, id: UInt64) {
            self.msecs = msecs
            self.expiry = expiry
            self.id = id
        }

        /// Earlier expiry first; the same expiry, the lower id.
        @inline(__always)
        func precedes(_ other: List) -> Bool {
            expiry != other.expiry ? expiry < other.expiry : id < other.id
        }
    }

    private var byDuration: [Double: List] = [:]
    private var queue = IndexedHeap<List>()
    private var lastListId: UInt64 = 0

    /// The milliseconds of a wait of `seconds`, as node reads `setTimeout`'s delay: anything
    /// under 1 ms (zero, negative, not a number) is 1 ms, and nothing waits more than 2^31 - 1.
    static func milliseconds(_ seconds: Double) -> Double {
        let ms = seconds * 1000
        return ms >= 1 && ms <= 2_147_483_647 ? ms : 1
    }

    /// The expiry of the list that falls due first, if any timer is set.
    var nextExpiry: Double? { queue.first?.expiry }

    /// Sets `timer`, started at `start` (ms), due `timer.msecs` later.
    mutating func insert(_ timer: OneShotTimer, start: Double) {
        timer.start = start
        let list: List
        if let l = byDuration[timer.msecs] {
            list = l
        } else {
            lastListId &+= 1
            list = List(msecs: timer.msecs, expiry: start + timer.msecs, id: lastListId)
            byDuration[timer.msecs] = list
            queue.insert(list)
        }
        timer.list = list
        timer.next = nil
        timer.prev = list.tail
        if let tail = list.tail { tail.next = timer } else { list.head = timer }
        list.tail = timer
    }

    /// Takes `timer` out of its list (and the list out of the queue once it is empty). False
    /// when the timer is in no list (it fired, or was cleared before).
    mutating func remove(_ timer: OneShotTimer) -> Bool {
        guard let list = timer.list else { return false }
        unlink(timer, from: list)
        if list.head == nil {
            if byDuration[list.msecs] === list { byDuration[list.msecs] = nil }
            if list.heapIndex >= 0 { queue.remove(at: list.heapIndex) }
        }
        return true
    }

    /// The next timer of the pass whose time is `now`, taken out of its list; nil when no timer
    /// is due at `now` (the pass is over).
    mutating func nextDue(now: Double) -> OneShotTimer? {
        while let list = queue.first {
            if list.expiry > now { return nil }
            guard let timer = list.head else {
                if byDuration[list.msecs] === list { byDuration[list.msecs] = nil }
                queue.remove(at: 0)
                continue
            }
            if now - timer.start < list.msecs {
                list.expiry = max(timer.start + list.msecs, now + 1)
                lastListId &+= 1
                list.id = lastListId
                queue.siftDown(0)
                continue
            }
            // Taken out, but the list stays in the queue until a pass finds it empty: a timer
            // set by this one's callback joins it, as in node.
            unlink(timer, from: list)
            return timer
        }
        return nil
    }

    private func unlink(_ timer: OneShotTimer, from list: List) {
        let next = timer.next
        if let prev = timer.prev { prev.next = next } else { list.head = next }
        if let next { next.prev = timer.prev } else { list.tail = timer.prev }
        timer.next = nil
        timer.prev = nil
        timer.list = nil
    }
}

/// The millisecond clock timers start and fall due by (whole milliseconds of uptime, as libuv's
/// loop time is whole milliseconds).
@inline(__always)
func timerClockNow() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds / 1_000_000)
}
