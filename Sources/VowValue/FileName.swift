#if canImport(Glibc)
import Glibc
#endif

/// File names that are not valid UTF-8, kept byte for byte.
///
/// A Linux file name is bytes; vow's text is Unicode. A name read from a directory (`glob`) that
/// is not valid UTF-8 has each byte that breaks the encoding written as one character of the
/// supplementary private use area, U+10FE80 + (byte − 0x80), which no file name in use holds; the
/// name given back to the system (`read`, `write`, `--output`, `run`'s arguments) has those
/// characters turned back into their bytes, so the file listed is the file opened. On a terminal
/// the characters are shown as `\xNN` (`TerminalText`).
public enum FileName {
    /// The first of the 128 characters that stand for the bytes 0x80–0xFF.
    static let base: UInt32 = 0x10FE80

    /// True for a character that stands for a byte of a name that is not UTF-8.
    @inline(__always)
    public static func isByte(_ u: Unicode.Scalar) -> Bool { u.value >= base && u.value < base + 0x80 }

    /// The byte that `u` stands for (`isByte(u)` is true).
    @inline(__always)
    public static func byte(_ u: Unicode.Scalar) -> UInt8 { UInt8(u.value - base + 0x80) }

    /// The name in `bytes`: valid UTF-8 read as such, each byte that breaks the encoding kept as
    /// its character.
    public static func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        let all = Array(bytes)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < all.count {
            if let (scalar, length) = sequence(all, at: i) {
                out.append(scalar)
                i += length
            } else {
                out.append(Unicode.Scalar(base + UInt32(all[i]) - 0x80)!)
                i += 1
            }
        }
        return String(out)
    }

    /// The name at a C string (as `readdir` and `realpath` give).
    public static func decode(cString: UnsafePointer<CChar>) -> String {
        decode(UnsafeBufferPointer(start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString)))
    }

    /// The bytes to give the system for `name`, NUL-terminated: its UTF-8, with each character
    /// that stands for a byte turned back into it. Passed where a C path is taken
    /// (`open(FileName.system(path), …)`).
    public static func system(_ name: String) -> [CChar] {
        guard name.unicodeScalars.contains(where: isByte) else { return Array(name.utf8CString) }
        var out: [CChar] = []
        out.reserveCapacity(name.utf8.count + 1)
        for u in name.unicodeScalars {
            if isByte(u) {
                out.append(CChar(bitPattern: byte(u)))
            } else {
                for b in String(u).utf8 { out.append(CChar(bitPattern: b)) }
            }
        }
        out.append(0)
        return out
    }

    /// The scalar of the well-formed UTF-8 sequence at `i`, and its length; nil when the byte at
    /// `i` does not start one (a stray continuation byte, an overlong form, a surrogate, a value
    /// past U+10FFFF, a sequence cut short).
    private static func sequence(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= smallest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
