// libFuzzer target: JMESPath compilation and evaluation; the input is "expression\0JSON".
import JMESPath
import VowValue

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJMESPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let expression = String(decoding: bytes[..<split], as: UTF8.self)
    let document: Value = split < bytes.count ? ((try? JSON.parse(Array(bytes[(split + 1)...]), maxDepth: 64)) ?? .null) : .null
    if let e = try? JMESPathExpression(expression) { _ = try? e.search(document) }
    return 0
}
