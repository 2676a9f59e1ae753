#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JMESPath

/// A list of JSON documents read into one tape as they come, one document at a time: what
/// `each json` over a stream makes for the `pick` after it. Each document is read on its own
/// (`TapeBuilder`, the reader's rules) and refused on its own; its words go after the others',
/// their places in the text moved to where its text goes, so that the tape is the one
/// `[d1,d2,…]` would have, with no tree of values built for any document.
///
/// Not Sendable: one owner adds the documents, then `finish` hands over the tape.
public final class JSONLinesTape {
    /// `[`, then the documents' text, a comma between two.
    private var text: [UInt8] = [UInt8(ascii: "[")]
    /// The words; the first is the list's, set by `finish`.
    private var words: UnsafeMutablePointer<UInt64>
    private var count = 1
    private var capacity = 1024
    private var longSizes: [Int: Int] = [:]
    /// From how many words a size goes to `longSizes` (lower only in tests).
    private let longSize: Int
    /// How many documents were added.
    public private(set) var documents = 0
    private var finished = false
    /// What is kept of each document, when not all of it (`init(keeping:)`), ready to find in a
    /// document's objects.
    private let projection: TapeProjection?
    /// A projected document's text, reused.
    private var projected: [UInt8] = []

    /// An empty list, to add documents to. With `demand`, each document is kept projected to
    /// it (`JSONTape.project`): what an expression that reads only those parts of each element
    /// (`JMESPathExpression.elementDemand`) needs of it.
    public convenience init(keeping demand: JMESPathDemand? = nil) { self.init(longSize: Int(TapeWord.sizeMask), keeping: demand) }

    /// `init(keeping:)`, keeping sizes from `longSize` words in `longSizes` (lower only in tests,
    /// as `JSONTape.read` can).
    init(longSize: Int, keeping demand: JMESPathDemand? = nil) {
        self.longSize = longSize
        self.projection = demand.map(TapeProjection.init)
        words = malloc(capacity * 8)!.assumingMemoryBound(to: UInt64.self)
    }

    deinit {
        if !finished { free(words) }
    }

    /// Adds the document `bytes` hold (a byte order mark before it skipped, as `JSON.parse`
    /// skips it). False, and nothing added, when the bytes are not one JSON document as the
    /// reader reads them, or the list's text would pass what a tape holds.
    /// With a demand, the document is read and checked whole, and its projection added.
    public func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        precondition(!finished, "a finished list takes no more documents")
        let skip = JSONTape.byteOrderMark(bytes) ? 3 : 0
        let n = bytes.count - skip
        guard n > 0, let base = bytes.baseAddress else { return false }
        guard let projection else { return add(base + skip, n) }
        guard let built = TapeBuilder.build(base + skip, n, checkUTF8: true, maxDepth: 512, longSize: longSize) else { return false }
        projected.removeAll(keepingCapacity: true)
        JSONTape.lent(base + skip, count: n, built: built, maxDepth: 512).project(0, projection, into: &projected)
        return projected.withUnsafeBufferPointer { add($0.baseAddress!, $0.count) }
    }

    /// Adds the document of the `n` bytes at `base` (no byte order mark); false when they are
    /// not one, or the list's text would pass what a tape holds.
    private func add(_ base: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let at = text.count + (documents > 0 ? 1 : 0)
        // The closing bracket too must fit the tape's offsets.
        guard at + n + 1 <= JSONTape.largestText,
            let built = TapeBuilder.build(base, n, checkUTF8: true, maxDepth: 512, longSize: longSize)
        else { return false }
        defer { free(built.words) }
        if documents > 0 { text.append(UInt8(ascii: ",")) }
        text.append(contentsOf: UnsafeBufferPointer(start: base, count: n))
        if count + built.count > capacity {
            capacity = max(capacity * 2, count + built.count)
            words = realloc(words, capacity * 8)!.assumingMemoryBound(to: UInt64.self)
        }
        // A word's place in the text is its bits 28–59: the document's own place added to it.
        let moved = UInt64(at) << TapeWord.offsetShift
        for k in 0..<built.count { words[count + k] = built.words[k] &+ moved }
        for (i, size) in built.longSizes { longSizes[count + i] = size }
        count += built.count
        documents += 1
        return true
    }

    /// The documents added, as values (as the reader makes them), in order. The builder is spent.
    public func finishValues() -> [Value] {
        let tape = finish()
        var values: [Value] = []
        values.reserveCapacity(documents)
        var j = 1
        while j < tape.count {
            values.append(tape.value(j))
            j = tape.next(j)
        }
        return values
    }

    /// The tape of the list of the documents added (`[]` for none). The builder is spent.
    public func finish() -> JSONTape {
        precondition(!finished, "a list is finished once")
        finished = true
        text.append(UInt8(ascii: "]"))
        var size = UInt64(count)
        if count >= longSize {
            longSizes[0] = count
            size = TapeWord.sizeMask
        }
        words[0] = UInt64(TapeKind.array.rawValue) << TapeWord.kindShift | size
        let built = TapeBuilder.Built(words: words, count: count, longSizes: longSizes)
        return JSONTape.assembled(text, built: built, maxDepth: 512)
    }
}
