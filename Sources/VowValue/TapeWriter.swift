/// Writes values of a tape (`TapeValue`) as JSON straight from the tape and its text, the same
/// bytes `JSONWriter` writes for the values the reader would have made: the same layout and
/// colours, numbers and strings through `JSONText`.
///
/// Most of a document is copied as it is written: a string that has no escapes and nothing the
/// writer escapes, an integer of up to 18 characters (but `-0`), a plain key. Other numbers are
/// read and written again (the shortest text of the double); a string with escapes is decoded
/// into a scratch buffer and escaped again, without making a String.
struct TapeWriter {
    let layout: JSONLayout
    /// The tape the values are in, and its words and text (read here without going through it).
    let tape: JSONTape
    private let words: UnsafeMutablePointer<UInt64>
    private let text: UnsafePointer<UInt8>
    private let textCount: Int
    /// Decoded strings, reused.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity = 256

    init(layout: JSONLayout, tape: JSONTape) {
        self.layout = layout
        self.tape = tape
        words = tape.words
        text = tape.text
        textCount = tape.textCount
        scratch = .allocate(capacity: scratchCapacity)
    }

    /// Frees the scratch buffer.
    func release() { scratch.deallocate() }

    /// Writes `v` at nesting `level`.
    mutating func write(_ v: TapeValue, into out: inout JSONOutput, level: Int) {
        switch v {
        case .node(let n): write(n.index, into: &out, level: level)
        case .null: layout.literal(JSONText.null, into: &out)
        case .bool(let b): layout.literal(b ? JSONText.trueText : JSONText.falseText, into: &out)
        case .int(let i): layout.paint(layout.colors?.number, into: &out) { JSONText.writeInt(i, into: &$0) }
        case .double(let d): layout.paint(layout.colors?.number, into: &out) { JSONText.writeDouble(d, into: &$0) }
        case .string(let s): layout.paint(layout.colors?.string, into: &out) { JSONText.writeString(s, into: &$0) }
        case .array(let a):
            let layout = layout
            layout.container(UInt8(ascii: "["), UInt8(ascii: "]"), count: a.count, level: level, into: &out) { i, out in
                write(a[i], into: &out, level: level + 1)
            }
        case .object(let o):
            let layout = layout
            layout.container(UInt8(ascii: "{"), UInt8(ascii: "}"), count: o.count, level: level, into: &out) { i, out in
                layout.key(o[i].key, into: &out)
                write(o[i].value, into: &out, level: level + 1)
            }
        }
    }

    /// The index after the value at `i`, whose word is `w`.
    @inline(__always) private func next(_ i: Int, _ w: UInt64) -> Int {
        guard w >> TapeWord.kindShift >= UInt64(TapeKind.array.rawValue) else { return i &+ 1 }
        let size = Int(truncatingIfNeeded: w & TapeWord.sizeMask)
        return size == Int(TapeWord.sizeMask) ? tape.next(i) : i &+ size
    }

    /// Writes the tape's value at `i`.
    mutating func write(_ i: Int, into out: inout JSONOutput, level: Int) {
        let w = words[i]
        let kind = w >> TapeWord.kindShift
        guard kind >= UInt64(TapeKind.array.rawValue) else { return scalar(i, w, into: &out) }
        let end = next(i, w)
        let isObject = kind == UInt64(TapeKind.object.rawValue)
        if i &+ 1 == end {
            out.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            out.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            return
        }
        if isObject && w & TapeWord.careful != 0 {
            let layout = layout, members = tape.members(i)
            layout.container(UInt8(ascii: "{"), UInt8(ascii: "}"), count: members.count, level: level, into: &out) { k, out in
                layout.key(members[k].key, into: &out)
                element(members[k].index, into: &out, level: level + 1)
            }
            return
        }
        out.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        var j = i &+ 1
        while j < end {
            if j > i &+ 1 { out.append(UInt8(ascii: ",")) }
            layout.newline(level &+ 1, into: &out)
            let cw = words[j]
            if isObject {
                if let color = layout.colors?.key { out.append(color) }
                plainKey(cw, into: &out)
                if layout.colors != nil, let reset = layout.colors?.reset { out.append(reset) }
                layout.colon(into: &out)
            }
            if cw >> TapeWord.kindShift >= UInt64(TapeKind.array.rawValue) {
                write(j, into: &out, level: level &+ 1)
            } else {
                scalar(j, cw, into: &out)
            }
            out.checkpoint()
            j = next(j, cw)
        }
        layout.newline(level, into: &out)
        out.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// A value inside an object or a list: a scalar written here, an object or a list by `write`.
    @inline(__always) private mutating func element(_ j: Int, into out: inout JSONOutput, level: Int) {
        let w = words[j]
        if w >> TapeWord.kindShift >= UInt64(TapeKind.array.rawValue) {
            write(j, into: &out, level: level)
        } else {
            scalar(j, w, into: &out)
        }
    }

    /// A string, number, boolean or null: the value at `i`, whose word is `w`.
    @inline(__always) private mutating func scalar(_ i: Int, _ w: UInt64, into out: inout JSONOutput) {
        switch w >> TapeWord.kindShift {
        case UInt64(TapeKind.null.rawValue): layout.literal(JSONText.null, into: &out)
        case UInt64(TapeKind.false.rawValue): layout.literal(JSONText.falseText, into: &out)
        case UInt64(TapeKind.true.rawValue): layout.literal(JSONText.trueText, into: &out)
        case UInt64(TapeKind.number.rawValue):
            if let color = layout.colors?.number { out.append(color) }
            number(i, w, into: &out)
            if layout.colors != nil, let reset = layout.colors?.reset { out.append(reset) }
        default:
            if let color = layout.colors?.string { out.append(color) }
            string(i, w, into: &out)
            if layout.colors != nil, let reset = layout.colors?.reset { out.append(reset) }
        }
    }

    @inline(__always) private func offset(_ w: UInt64) -> Int { Int(truncatingIfNeeded: w >> TapeWord.offsetShift & 0xFFFF_FFFF) }

    @inline(__always) private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    /// The key of the member whose word is `w`, in an object that is not careful: plain ASCII,
    /// written as it is unless it holds a DEL.
    @inline(__always) private func plainKey(_ w: UInt64, into out: inout JSONOutput) {
        // Back from the value over the colon to the closing quote, then to the opening one.
        var close = offset(w) &- 1
        while isSpace(text[close]) { close &-= 1 }
        close &-= 1
        while isSpace(text[close]) { close &-= 1 }
        var open = close &- 1
        var del = false
        while text[open] != 0x22 {
            del = del || text[open] == 0x7F
            open &-= 1
        }
        let n = close &- open &- 1
        if !del {
            out.appendShort(text + open, n &+ 2, readable: textCount &- open)
        } else {
            JSONText.writeString(text + open + 1, n, into: &out)
        }
    }

    @inline(__always) private func number(_ i: Int, _ w: UInt64, into out: inout JSONOutput) {
        let at = offset(w)
        var n = Int(truncatingIfNeeded: w & TapeWord.lengthMask)
        if n == Int(TapeWord.lengthMask) { n = tape.numberLength(i) }
        let integer = w & TapeWord.integer != 0
        if integer, n <= 18, !(n == 2 && text[at] == UInt8(ascii: "-")) {
            // An integer of up to 18 characters is written as it was read (but `-0`, which is 0).
            out.appendShort(text + at, n, readable: textCount &- at)
            return
        }
        JSONText.writeNumber(text, at, at &+ n, isInteger: integer, into: &out)
    }

    @inline(__always) private mutating func string(_ i: Int, _ w: UInt64, into out: inout JSONOutput) {
        let at = offset(w)
        var n = Int(truncatingIfNeeded: w & TapeWord.lengthMask)
        if n == Int(TapeWord.lengthMask) { n = tape.stringLength(i) }
        if w & TapeWord.asIs != 0 {
            out.appendShort(text + at, n &+ 2, readable: textCount &- at)
        } else if w & TapeWord.escaped == 0 {
            JSONText.writeString(text + at + 1, n, into: &out)
        } else {
            let decoded = decode(text + at + 1, n)
            JSONText.writeString(scratch, decoded, into: &out)
        }
    }

    /// Decodes the escapes of a string's text (`p[0..<n]`, checked when the tape was read) into
    /// `scratch`; returns the decoded length.
    private mutating func decode(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        if n > scratchCapacity {
            scratch.deallocate()
            scratchCapacity = n
            scratch = .allocate(capacity: n)
        }
        let o = scratch
        var i = 0
        var k = 0
        while i < n {
            let c = p[i]
            if c != 0x5C {
                o[k] = c
                k += 1
                i += 1
                continue
            }
            let e = p[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): o[k] = 0x08
            case UInt8(ascii: "f"): o[k] = 0x0C
            case UInt8(ascii: "n"): o[k] = 0x0A
            case UInt8(ascii: "r"): o[k] = 0x0D
            case UInt8(ascii: "t"): o[k] = 0x09
            case UInt8(ascii: "u"):
                var code = hex(p + i)
                i += 4
                if code >= 0xD800 && code <= 0xDBFF {
                    code = 0x10000 + ((code - 0xD800) << 10) + (hex(p + i + 2) - 0xDC00)
                    i += 6
                }
                // At most four bytes for six or twelve of text: the scratch is large enough.
                k += utf8(code, at: o + k)
                continue
            default: o[k] = e  // `"`, `\`, `/`
            }
            k += 1
        }
        return k
    }

    @inline(__always) private func hex(_ p: UnsafePointer<UInt8>) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = UInt32(p[k])
            v = v << 4 | (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10)
        }
        return v
    }

    @inline(__always) private func utf8(_ code: UInt32, at o: UnsafeMutablePointer<UInt8>) -> Int {
        switch code {
        case 0..<0x80:
            o[0] = UInt8(code)
            return 1
        case 0x80..<0x800:
            o[0] = UInt8(0xC0 | code >> 6)
            o[1] = UInt8(0x80 | code & 0x3F)
            return 2
        case 0x800..<0x10000:
            o[0] = UInt8(0xE0 | code >> 12)
            o[1] = UInt8(0x80 | code >> 6 & 0x3F)
            o[2] = UInt8(0x80 | code & 0x3F)
            return 3
        default:
            o[0] = UInt8(0xF0 | code >> 18)
            o[1] = UInt8(0x80 | code >> 12 & 0x3F)
            o[2] = UInt8(0x80 | code >> 6 & 0x3F)
            o[3] = UInt8(0x80 | code & 0x3F)
            return 4
        }
    }
}
