/// What the parser made last, at one place, of a run of the source's bytes (a stage's name, a
/// plain word), kept with where those bytes are: a long pipeline repeats a few names and words
/// (`pick @ | pick @ | …`), and the same bytes read again give back what was made of them the
/// first time, without a String made from the bytes or a table looked up.
struct RecentBytes<Made> {
    private var start = 0
    private var end = 0
    private var made: Made?

    /// What was made of the bytes `s..<e` of `bytes` when they are the same as the bytes kept
    /// (`keep`, from the same list), else nil.
    func lookup(_ bytes: [UInt8], _ s: Int, _ e: Int) -> Made? {
        guard let made, e - s == end - start else { return nil }
        var i = 0
        while i < e - s {
            if bytes[s + i] != bytes[start + i] { return nil }
            i += 1
        }
        return made
    }

    /// Keeps `made`, what was made of the bytes `s..<e`.
    mutating func keep(_ made: Made, _ s: Int, _ e: Int) {
        self.made = made
        start = s
        end = e
    }
}
