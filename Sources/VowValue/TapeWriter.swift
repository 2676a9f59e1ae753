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
    /// Decoded strings, reused.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity = 256

    init(layout: JSONLayout) {
        self.layout = layout
        scratch = .allocate(capacity: scratchCapacity)
    }

    /// Frees the scratch buffer.
    func release() { scratch.deallocate() }

    /// Writes `v` at nesting `level`.
    mutating func write(_ v: TapeValue, into out: inout JSONOutput, level: Int) {
        switch v {
        case .node(let n): write(n.tape, n.index, into: &out, level: level)
        case .null: layout.literal(JSONText.null, into: &out)
        case .bool(let b): layout.literal(b ? JSONText.trueText : JSONText.falseText, into: &out)
        case .int(let i): layout.paint(layout.colors?.number, into: &out) { JSONText.writeInt(i, into: &$0) }
        case .double(let d): layout.paint(layout.colors?.number, into: &out) { JSONText.writeDouble(d, into: &$0) }
        case .string(let s): layout.paint(layout.colors?.string, into: &out) { JSONText.writeString(s, into: &$0) }
        case .array(let a):
            if a.isEmpty {
                out.append(UInt8(ascii: "["))
                out.append(UInt8(ascii: "]"))
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, e) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                layout.newline(level + 1, into: &out)
                write(e, into: &out, level: level + 1)
                out.checkpoint()
            }
            layout.newline(level, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            if o.isEmpty {
                out.append(UInt8(ascii: "{"))
                out.append(UInt8(ascii: "}"))
                return
            }
            out.append(UInt8(ascii: "{"))
            for (i, member) in o.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                layout.newline(level + 1, into: &out)
                layout.paint(layout.colors?.key, into: &out) { JSONText.writeString(member.key, into: &$0) }
                layout.colon(into: &out)
                write(member.value, into: &out, level: level + 1)
                out.checkpoint()
            }
            layout.newline(level, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Writes the tape's value at `i`.
    mutating func write(_ tape: JSONTape, _ i: Int, into out: inout JSONOutput, level: Int) {
        switch tape.kind(i) {
        case .null: layout.literal(JSONText.null, into: &out)
        case .false: layout.literal(JSONText.falseText, into: &out)
        case .true: layout.literal(JSONText.trueText, into: &out)
        case .number:
            if let color = layout.colors?.number { out.append(color) }
            number(tape, i, into: &out)
            if layout.colors != nil, let reset = layout.colors?.reset { out.append(reset) }
        case .string:
            if let color = layout.colors?.string { out.append(color) }
            string(tape, i, into: &out)
            if layout.colors != nil, let reset = layout.colors?.reset { out.append(reset) }
        case .array:
            let end = tape.next(i)
            var j = i + 1
            if j == end {
                out.append(UInt8(ascii: "["))
                out.append(UInt8(ascii: "]"))
                return
            }
            out.append(UInt8(ascii: "["))
            while j < end {
                if j > i + 1 { out.append(UInt8(ascii: ",")) }
                layout.newline(level + 1, into: &out)
                write(tape, j, into: &out, level: level + 1)
                out.checkpoint()
                j = tape.next(j)
            }
            layout.newline(level, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object:
            let end = tape.next(i)
            if i + 1 == end {
                out.append(UInt8(ascii: "{"))
                out.append(UInt8(ascii: "}"))
                return
            }
            out.append(UInt8(ascii: "{"))
            if tape.flag(i, TapeWord.careful) {
                for (k, member) in tape.members(i).enumerated() {
                    if k > 0 { out.append(UInt8(ascii: ",")) }
                    layout.newline(level + 1, into: &out)
                    layout.paint(layout.colors?.key, into: &out) { JSONText.writeString(member.key, into: &$0) }
                    layout.colon(into: &out)
                    write(tape, member.index, into: &out, level: level + 1)
                    out.checkpoint()
                }
            } else {
                var j = i + 1
                while j < end {
                    if j > i + 1 { out.append(UInt8(ascii: ",")) }
                    layout.newline(level + 1, into: &out)
                    if let color = layout.colors?.key { out.append(color) }
                    plainKey(tape, j, into: &out)
                    if layout.colors != nil, let reset = layout.colors?.reset { out.append(reset) }
                    layout.colon(into: &out)
                    write(tape, j, into: &out, level: level + 1)
                    out.checkpoint()
                    j = tape.next(j)
                }
            }
            layout.newline(level, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The key of a member of an object that is not careful: plain ASCII, written as it is
    /// unless it holds a DEL.
    @inline(__always) private func plainKey(_ tape: JSONTape, _ j: Int, into out: inout JSONOutput) {
        let close = tape.keyEnd(j)
        let open = tape.keyStart(j, close: close)
        let n = close - open - 1
        let p = tape.text + open + 1
        var k = 0
        while k < n, p[k] != 0x7F { k += 1 }
        if k == n {
            out.append(tape.text + open, n + 2)
        } else {
            JSONText.writeString(p, n, into: &out)
        }
    }

    @inline(__always) private func number(_ tape: JSONTape, _ i: Int, into out: inout JSONOutput) {
        let at = tape.offset(i)
        let n = tape.numberLength(i)
        if tape.flag(i, TapeWord.integer), n <= 18, !(n == 2 && tape.text[at] == UInt8(ascii: "-")) {
            // An integer of up to 18 characters is written as it was read (but `-0`, which is 0).
            out.append(tape.text + at, n)
            return
        }
        switch JSONText.number(tape.text, at, at + n, isInteger: tape.flag(i, TapeWord.integer)) {
        case .int(let v): JSONText.writeInt(v, into: &out)
        case .double(let d): JSONText.writeDouble(d, into: &out)
        default: break
        }
    }

    @inline(__always) private mutating func string(_ tape: JSONTape, _ i: Int, into out: inout JSONOutput) {
        let at = tape.offset(i)
        let n = tape.stringLength(i)
        if tape.flag(i, TapeWord.asIs) {
            out.append(tape.text + at, n + 2)
        } else if !tape.flag(i, TapeWord.escaped) {
            JSONText.writeString(tape.text + at + 1, n, into: &out)
        } else {
            let decoded = decode(tape.text + at + 1, n)
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
