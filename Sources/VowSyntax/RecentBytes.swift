/// What the parser made last, at one place, of a few runs of the source's bytes (stage names,
/// plain words), kept with where those bytes are: a long pipeline repeats a few names and words
/// (`pick @ | pick @ | …`, or `then (pick @) | then (pick @) | …`, whose names alternate), and
/// the same bytes read again give back what was made of them the first time, without a String
/// made from the bytes or a table looked up. Four runs are kept, the oldest replaced first.
struct RecentBytes<Made> {
    /// One run of bytes and what was made of it.
    private struct Slot {
        var start = 0
        var end = 0
        var made: Made?

        /// What was made of `s..<e` of `bytes` when those bytes are this slot's.
        func lookup(_ bytes: [UInt8], _ s: Int, _ e: Int) -> Made? {
            guard let made, e - s == end - start else { return nil }
            var i = 0
            while i < e - s {
                if bytes[s + i] != bytes[start + i] { return nil }
                i += 1
            }
            return made
        }
    }

    private var s0 = Slot()
    private var s1 = Slot()
    private var s2 = Slot()
    private var s3 = Slot()
    /// The slot `keep` fills next (0…3).
    private var next = 0

    /// What was made of the bytes `s..<e` of `bytes` when they are the same as bytes kept
    /// (`keep`, from the same list), else nil.
    func lookup(_ bytes: [UInt8], _ s: Int, _ e: Int) -> Made? {
        if let m = s0.lookup(bytes, s, e) { return m }
        if let m = s1.lookup(bytes, s, e) { return m }
        if let m = s2.lookup(bytes, s, e) { return m }
        return s3.lookup(bytes, s, e)
    }

    /// Keeps `made`, what was made of the bytes `s..<e`, in place of the oldest run kept.
    mutating func keep(_ made: Made, _ s: Int, _ e: Int) {
        let slot = Slot(start: s, end: e, made: made)
        switch next {
        case 0: s0 = slot
        case 1: s1 = slot
        case 2: s2 = slot
        default: s3 = slot
        }
        next = (next + 1) & 3
    }
}
