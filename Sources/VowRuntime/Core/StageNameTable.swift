/// The stages of a registry by name and alias, in an open-addressed table keyed by a hash of the
/// name's bytes (FNV-1a): a name is found with one pass over its bytes and a comparison or two,
/// where a dictionary hashed the whole String with SipHash (~300 instructions a look-up; a list
/// of one-stage pipelines, `all [resolve 1, …]`, looks a name up twice an element).
struct StageNameTable: Sendable {
    /// The names, each once, in the order first given.
    let names: [String]
    /// The stage of the name at the same index.
    private let stages: [any StageDefinition.Type]
    /// For each slot, the index in `names` plus one, or 0 for an empty slot. Its size is a power
    /// of two at least four times the number of names, so a probe ends soon at an empty slot.
    private let slots: [Int32]

    /// A table of `entries`; a name given twice is the later entry's, as a dictionary's
    /// assignment would make it.
    init(_ entries: [(name: String, stage: any StageDefinition.Type)]) {
        var names: [String] = []
        var stages: [any StageDefinition.Type] = []
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        var slots = [Int32](repeating: 0, count: size)
        for (name, stage) in entries {
            var i = Self.hash(name) & (size - 1)
            while slots[i] != 0, names[Int(slots[i]) - 1] != name { i = (i + 1) & (size - 1) }
            if slots[i] == 0 {
                names.append(name)
                stages.append(stage)
                slots[i] = Int32(names.count)
            } else {
                stages[Int(slots[i]) - 1] = stage
            }
        }
        self.names = names
        self.stages = stages
        self.slots = slots
    }

    /// The stage named `name`, nil when there is none.
    subscript(name: String) -> (any StageDefinition.Type)? {
        let mask = slots.count - 1
        var i = Self.hash(name) & mask
        while true {
            let s = Int(slots[i])
            if s == 0 { return nil }
            if names[s - 1] == name { return stages[s - 1] }
            i = (i + 1) & mask
        }
    }

    /// FNV-1a of `name`'s UTF-8 bytes, read in place (a short string's too).
    static func hash(_ name: String) -> Int {
        var name = name
        return name.withUTF8 { bytes in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            return Int(truncatingIfNeeded: h ^ (h >> 29))
        }
    }
}
