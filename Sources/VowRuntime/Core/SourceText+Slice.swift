import VowSyntax

extension SourceText {
    /// The source text of `span`.
    func slice(_ span: SourceSpan) -> String {
        let lo = max(0, min(span.start, bytes.count)), hi = max(lo, min(span.end, bytes.count))
        return String(decoding: bytes[lo..<hi], as: UTF8.self)
    }
}
