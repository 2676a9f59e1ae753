/// An element of an `IndexedHeap`: it keeps its place in the heap, so that it can be taken out
/// from anywhere in logarithmic time (a timer cleared, a timer list emptied).
protocol HeapPlaced: AnyObject {
    /// Its index in the heap, -1 when out of it.
    var heapIndex: Int { get set }
    /// True when it comes out of the heap before `other`.
    func precedes(_ other: Self) -> Bool
}

/// A binary min-heap of objects that know their place (`HeapPlaced`): the one kind of queue
/// the timers use, for the timers of other executors (`TimerScheduler`) and for the lists of a
/// serial executor's (`TimerLists`). Not thread-safe: its holder keeps it under a lock.
struct IndexedHeap<Element: HeapPlaced> {
    private(set) var items: [Element] = []

    /// The element that comes out first, if any.
    var first: Element? { items.first }

    /// Adds `e`.
    mutating func insert(_ e: Element) {
        e.heapIndex = items.count
        items.append(e)
        siftUp(items.count - 1)
    }

    /// Takes out the element at `i`.
    mutating func remove(at i: Int) {
        let last = items.count - 1
        items[i].heapIndex = -1
        if i != last {
            items.swapAt(i, last)
            items[i].heapIndex = i
        }
        items.removeLast()
        if i < items.count {
            siftDown(i)
            siftUp(i)
        }
    }

    /// Puts the element at `i` back in its place after it came to precede less (a later
    /// expiry).
    mutating func siftDown(_ start: Int) {
        var i = start
        let n = items.count
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < n, items[l].precedes(items[m]) { m = l }
            if r < n, items[r].precedes(items[m]) { m = r }
            if m == i { return }
            swap(i, m)
            i = m
        }
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].precedes(items[parent]) else { break }
            swap(i, parent)
            i = parent
        }
    }

    private mutating func swap(_ i: Int, _ j: Int) {
        items.swapAt(i, j)
        items[i].heapIndex = i
        items[j].heapIndex = j
    }
}
