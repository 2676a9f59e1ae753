/// Literals: the words that stand for a number, a duration, a boolean or null.
extension ParserState {
    /// The value of `s` when it is a plain integer of 15 digits or fewer (`7`, `-42`, `100000`:
    /// most numbers written), which a double holds exactly; nil for anything else (`-0`, `007`,
    /// `1.5`, `1e3`, a longer one), which `literal` reads the general way.
    static func plainInteger(_ s: String) -> Int? {
        // Read from the bytes in place (a short word's are in the String itself): going through
        // the String's UTF-8 view a byte at a time cost more than the rest of the number.
        var s = s
        return s.withUTF8(plainInteger(bytes:))
    }

    /// `plainInteger(_:)` of the UTF-8 bytes `bytes`.
    static func plainInteger(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var value = 0
        var digits = 0
        var negative = false
        var firstDigit: UInt8 = 0
        for i in 0..<bytes.count {
            let c = bytes[i]
            if i == 0 && c == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9"), digits < 15 else { return nil }
            if digits == 0 { firstDigit = c }
            value = value * 10 + Int(c - UInt8(ascii: "0"))
            digits += 1
        }
        // A leading zero (`007`, `-0`) is read the general way: text, or a negative zero.
        guard digits > 0, firstDigit != UInt8(ascii: "0") || (digits == 1 && !negative) else { return nil }
        return negative ? -value : value
    }

    /// Numbers, durations, true/false/null.
    func literal(_ s: String) -> ArgumentKind? {
        guard let first = s.utf8.first else { return nil }
        // The constants are told from their first byte before their text is compared.
        if first == UInt8(ascii: "t") || first == UInt8(ascii: "f") || first == UInt8(ascii: "n") || first == UInt8(ascii: "u") {
            switch s {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            case "null": return .null(())
            case "undefined": return .undefined(())
            default: return nil
            }
        }
        // Most words are not numbers: said from the first byte, before the bytes are copied.
        guard isDigit(first) || first == DASH else { return nil }
        if let v = Self.plainInteger(s) { return .number(Double(v), isInteger: true, text: s) }
        let bytes = Array(s.utf8)
        guard isDigit(first) || (bytes.count > 1 && isDigit(bytes[1])) else { return nil }
        var i = first == DASH ? 1 : 0
        // A leading zero before another digit (`01234`, a postcode, an id) is text, as JSON
        // has no such number: `{zip: 01234}` keeps its zero.
        if bytes[i] == UInt8(ascii: "0"), i + 1 < bytes.count, isDigit(bytes[i + 1]) { return nil }
        while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        var isInteger = true
        if i < bytes.count && bytes[i] == DOT && i + 1 < bytes.count && isDigit(bytes[i + 1]) {
            isInteger = false
            i += 1
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            var j = i + 1
            if j < bytes.count && (bytes[j] == UInt8(ascii: "+") || bytes[j] == DASH) { j += 1 }
            if j < bytes.count && isDigit(bytes[j]) {
                while j < bytes.count && isDigit(bytes[j]) { j += 1 }
                if j == bytes.count {
                    isInteger = false
                    i = j
                }
            }
        }
        let numText = String(decoding: bytes[0..<i], as: UTF8.self)
        if i == bytes.count {
            guard let d = Double(numText) else { return nil }
            return .number(d, isInteger: isInteger, text: numText)
        }
        if first != DASH {
            let unit = String(decoding: bytes[i...], as: UTF8.self)
            let factor = DurationUnit.factor(unit)
            if let factor, let d = Double(numText) { return .duration(seconds: d * factor, text: s) }
        }
        return nil
    }
}
