// libFuzzer target: the JSON reader, and writing back what it read.
import VowValue

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let v = try? JSON.parse(bytes, maxDepth: 64) {
        // What was read must print and read back the same.
        let text = JSONWriter.compact(v)
        guard let again = try? JSON.parse(text), again == v else { fatalError("round trip failed for \(text)") }
    }
    return 0
}
