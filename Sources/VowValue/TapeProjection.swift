#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JMESPath

/// What to keep of a document (`JMESPathDemand`), ready to find in a tape's objects: each
/// field's key as bytes to compare with the key written in the text (`JSONTape.plainKeyEquals`),
/// so that projecting a document makes no string of any of its keys.
///
/// Not Sendable: it belongs to the one `JSONLinesTape` that projects with it.
final class TapeProjection {
    /// The value is kept whole (or, when not an object, as it is anyway).
    let whole: Bool
    /// The fields whose keys are plain ASCII (no quote, backslash or control character, not
    /// empty): found by their bytes.
    private var plainKeys: [JSONTape.WantedKey] = []
    private var plainBelow: [TapeProjection] = []
    /// Whether some field's key is not plain: found by comparing strings, as a record compares
    /// its keys.
    private var hasOtherKeys = false
    /// Every field by key (for those keys, and for objects whose keys need the reader's rules).
    private var byKey: [String: TapeProjection] = [:]
    /// The plain keys' bytes, freed with the projection.
    private var storage: [UnsafeMutableBufferPointer<UInt8>] = []

    init(_ demand: JMESPathDemand) {
        whole = demand.whole
        for (key, below) in demand.fields.sorted(by: { $0.key < $1.key }) {
            let projection = TapeProjection(below)
            byKey[key] = projection
            if JSONTape.isPlainKey(key) {
                let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: key.utf8.count)
                _ = bytes.initialize(from: key.utf8)
                storage.append(bytes)
                plainKeys.append(JSONTape.WantedKey(UnsafeBufferPointer(bytes)))
                plainBelow.append(projection)
            } else {
                hasOtherKeys = true
            }
        }
    }

    deinit { for bytes in storage { bytes.deallocate() } }

    /// What to keep of the member whose value is at `j` of an object none of whose keys needs
    /// the reader's rules (`TapeWord.careful` clear: every key plain ASCII, none twice), or nil.
    @inline(__always) func below(_ tape: JSONTape, member j: Int) -> TapeProjection? {
        for k in plainKeys.indices where tape.plainKeyEquals(j, plainKeys[k]) { return plainBelow[k] }
        return hasOtherKeys ? byKey[tape.key(j)] : nil
    }

    /// What to keep of the member named `key`, or nil.
    func below(key: String) -> TapeProjection? { byKey[key] }
}

/// A document of a tape written again with only what an expression reads of it
/// (`JMESPathDemand`): what `each json | pick EXPR` keeps of each item of a stream when EXPR
/// reads only some fields of each (`JSONLinesTape`).
extension JSONTape {
    /// Appends to `out` the text of the value at `i` projected: the value's own text when it is
    /// kept whole or is not an object; otherwise an object of the members whose keys the
    /// projection names, in the order a record read from the text has them (each key once, with
    /// the value of its last), each projected in turn. Keys and kept values are copied as they
    /// are written, so that the projected text reads back to the same keys and values.
    func project(_ i: Int, _ projection: TapeProjection, into out: inout [UInt8]) {
        let at = offset(i)
        guard !projection.whole, kind(i) == .object else {
            out.append(contentsOf: UnsafeBufferPointer(start: text + at, count: textEnd(i) - at))
            return
        }
        out.append(UInt8(ascii: "{"))
        var first = true
        func member(_ j: Int, _ below: TapeProjection) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            let close = keyEnd(j)
            let open = keyStart(j, close: close)
            out.append(contentsOf: UnsafeBufferPointer(start: text + open, count: close - open + 1))
            out.append(UInt8(ascii: ":"))
            project(j, below, into: &out)
        }
        if flag(i, TapeWord.careful) {
            for (key, j) in members(i) {
                if let below = projection.below(key: key) { member(j, below) }
            }
        } else {
            var j = i + 1
            let end = next(i)
            while j < end {
                if let below = projection.below(self, member: j) { member(j, below) }
                j = next(j)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// One past the last byte of the text of the value at `i`.
    func textEnd(_ i: Int) -> Int {
        let at = offset(i)
        switch kind(i) {
        case .null, .true: return at + 4
        case .false: return at + 5
        case .number: return at + numberLength(i)
        case .string: return at + stringLength(i) + 2
        case .array, .object:
            let end = next(i)
            var k = at + 1
            if i + 1 < end {
                var last = i + 1
                while next(last) < end { last = next(last) }
                k = textEnd(last)
            }
            // Only spaces come between the last value (or the opening bracket) and the closing one.
            while text[k] == 0x20 || text[k] == 0x0A || text[k] == 0x0D || text[k] == 0x09 { k += 1 }
            return k + 1
        }
    }
}
