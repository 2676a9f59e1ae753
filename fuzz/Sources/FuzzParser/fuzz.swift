// libFuzzer target: the vow parser and its completeness check.
import VowSyntax

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? Parser.parse(SourceText(text))
    _ = Parser.isComplete(text)
    return 0
}
