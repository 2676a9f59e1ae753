import Foundation
import VowSyntax

extension SourceText {
    /// The source text of `span`.
    func slice(_ span: SourceSpan) -> String {
        let lo = max(0, min(span.start, bytes.count)), hi = max(lo, min(span.end, bytes.count))
        return String(decoding: bytes[lo..<hi], as: UTF8.self)
    }

    /// True when the bytes at `a` and at `b` are the same (a span past the end is never the
    /// same as anything): two stages written byte for byte alike.
    func sameText(_ a: SourceSpan, _ b: SourceSpan) -> Bool {
        let n = a.end - a.start
        guard n == b.end - b.start, n >= 0, a.end <= bytes.count, b.end <= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            // An empty source has no buffer; two empty spans are the same.
            guard let base = all.baseAddress else { return true }
            return memcmp(base + a.start, base + b.start, n) == 0
        }
    }
}
