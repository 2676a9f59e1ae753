import CBrotli
import VowValue

/// Bodies in a `Content-Encoding` the client library does not decode: `br` through libbrotli;
/// anything else (zstd, compress, …) is refused, naming it, rather than passed on as bytes that
/// look like text. gzip and deflate arrive already decoded.
enum ContentDecoding {
    /// What vow asks servers for.
    static let accepted = "gzip, deflate, br"

    /// `body` decoded by the `Content-Encoding` header values `encodings` (decoded size at most
    /// `max`); `what` names the request in errors, and is only made when there is one.
    static func decode(_ body: [UInt8], encodings: [String], max: Int, what: @autoclosure () -> String) throws -> [UInt8] {
        if encodings.isEmpty { return body }  // the common case: nothing is read twice
        let pending = encodings.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
            .filter { !["", "identity", "gzip", "x-gzip", "deflate"].contains($0) }
        var out = body
        for encoding in pending.reversed() {
            switch encoding {
            case "br": out = try brotli(out, max: max, what: what())
            default:
                throw VowError(.http, "the body is in Content-Encoding '\(encoding)', which vow cannot decode (it decodes gzip, deflate and br) — \(what())",
                    details: ["encoding": .string(encoding)])
            }
        }
        return out
    }

    /// A brotli stream decoded, at most `max` bytes of output.
    static func brotli(_ input: [UInt8], max: Int, what: String) throws -> [UInt8] {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw VowError(.http, "brotli: out of memory — \(what)") }
        defer { BrotliDecoderDestroyInstance(state) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        return try input.withUnsafeBufferPointer { inBuf in
            var availableIn = inBuf.count
            var nextIn = inBuf.baseAddress
            while true {
                var availableOut = chunk.count
                let result = chunk.withUnsafeMutableBufferPointer { outBuf -> BrotliDecoderResult in
                    var nextOut = outBuf.baseAddress
                    return BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                }
                let produced = chunk.count - availableOut
                if out.count + produced > max {
                    throw VowError(.http, "the decoded body is over the limit of \(max) bytes (--max-size) — \(what)", details: ["limit": .int(max)])
                }
                out.append(contentsOf: chunk[0..<produced])
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return out
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    throw VowError(.http, "the brotli body ends before its stream does — \(what)")
                default:
                    let message = String(cString: BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state)))
                    throw VowError(.http, "the body is not valid brotli (\(message)) — \(what)")
                }
            }
        }
    }
}
