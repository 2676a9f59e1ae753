import JMESPath

extension ListFold {
    /// Adds the JSON document `bytes` hold (a byte order mark before it skipped, as `JSON.parse`
    /// skips it), read into a tape for the fold's steps and freed once they have read it: the
    /// same element, to the fold, as the value the reader makes of the bytes. False, and nothing
    /// added, when the bytes are not one JSON document as the reader reads them.
    public func addDocument(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let skip = JSONTape.byteOrderMark(bytes) ? 3 : 0
        let n = bytes.count - skip
        guard n > 0, n <= JSONTape.largestText, let base = bytes.baseAddress,
            let built = TapeBuilder.build(base + skip, n, checkUTF8: true, maxDepth: 512, longSize: Int(TapeWord.sizeMask))
        else { return false }
        let tape = JSONTape.lent(base + skip, count: n, built: built, maxDepth: 512)
        withExtendedLifetime(tape) { add(tape.root) }
        return true
    }
}
