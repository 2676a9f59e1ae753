#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back a large buffer with huge pages (2 MiB) where it can: a 100 MB file
/// read into memory, or a tape's words, then takes fifty times fewer page faults to fill.
public enum HugePages {
    /// Below this size a buffer is left as it is.
    static let threshold = 8 << 20

    /// Advises the kernel that `base..<base + count` is worth huge pages (Linux; nothing
    /// elsewhere). Only whole huge pages inside the range are advised.
    public static func prefer(_ base: UnsafeMutableRawPointer, _ count: Int) {
        #if os(Linux)
        guard count >= threshold else { return }
        let huge = 2 << 20
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + count) & ~(huge - 1)
        guard end > start, let p = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(p, end - start, 14)  // MADV_HUGEPAGE
        #endif
    }
}
