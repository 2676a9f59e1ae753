import CBrotli
import CZlib
import VowValue

/// A body decoded as it arrives, through the content codings that the HTTP transport left: the
/// transport decodes one gzip or deflate layer (the first `Content-Encoding` names), and this
/// decodes the rest (`gzip, gzip`; `br`), last applied first, each layer streamed through zlib or
/// libbrotli, and the total decoded size held to a limit. Used by one thread at a time.
final class BodyDecoder {
    /// One layer of coding.
    private enum Layer {
        case zlib(UnsafeMutablePointer<z_stream>)
        case brotli(OpaquePointer)
    }

    private var layers: [Layer] = []
    /// The codings, outermost first (the order they are undone in), for messages.
    private let names: [String]
    private let limit: Int
    /// The hop whose body this is, for messages.
    private let request: HTTPRequestSpec
    /// Bytes of decoded output so far.
    private(set) var produced = 0
    /// Which zlib layers have seen the end of their stream.
    private var ended: [Bool] = []

    /// Every coding that `encodings` (the `Content-Encoding` header values) name, in the order
    /// they were applied, `identity` left out.
    static func codings(of encodings: [String]) -> [String] {
        encodings.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
            .filter { !$0.isEmpty && $0 != "identity" }
    }

    /// The codings of `encodings` that the transport left, in the order they are undone; empty
    /// when it left none. An unknown coding throws, worded for `request`.
    static func remaining(_ encodings: [String], request: HTTPRequestSpec) throws -> [String] {
        var all = codings(of: encodings)
        if let first = all.first, ["gzip", "x-gzip", "deflate"].contains(first) { all.removeFirst() }
        for coding in all where !["gzip", "x-gzip", "deflate", "br"].contains(coding) {
            throw HTTPFailure.unknownCoding(coding).vowError(for: request)
        }
        return all.reversed()
    }

    /// A decoder undoing `codings` (as `remaining` gives them), at most `limit` bytes of output;
    /// errors are worded for `request`.
    init(_ codings: [String], limit: Int, request: HTTPRequestSpec) throws {
        names = codings
        self.limit = limit
        self.request = request
        ended = [Bool](repeating: false, count: codings.count)
        for coding in codings {
            if coding == "br" {
                guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw HTTPFailure.noDecoder(brotli: true).vowError(for: request) }
                layers.append(.brotli(state))
            } else {
                let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
                stream.initialize(to: z_stream())
                // 15 + 32: a zlib or a gzip header, recognised by itself.
                guard vow_inflate_init(stream, 15 + 32) == Z_OK else {
                    stream.deallocate()
                    throw HTTPFailure.noDecoder(brotli: false).vowError(for: request)
                }
                layers.append(.zlib(stream))
            }
        }
    }

    deinit {
        for layer in layers {
            switch layer {
            case .zlib(let s):
                inflateEnd(s)
                s.deallocate()
            case .brotli(let s): BrotliDecoderDestroyInstance(s)
            }
        }
    }

    /// The decoded bytes that `input` (the next piece of the body) gives.
    func decode(_ input: [UInt8]) throws -> [UInt8] {
        var data = input
        for i in layers.indices {
            data = try run(i, data)
        }
        return data
    }

    /// Checks that every layer's stream ended with the body.
    func finish() throws {
        for (i, layer) in layers.enumerated() {
            let done: Bool
            switch layer {
            case .zlib(let s): done = s.pointee.avail_in == 0 && ended[i]
            case .brotli(let s): done = BrotliDecoderIsFinished(s) != 0
            }
            if !done { throw HTTPFailure.truncatedCoding(names[i]).vowError(for: request) }
        }
    }

    /// Layer `index` undone on `input`.
    private func run(_ index: Int, _ input: [UInt8]) throws -> [UInt8] {
        guard !input.isEmpty else { return [] }
        let layer = layers[index], name = names[index], last = index == layers.count - 1
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        try input.withUnsafeBufferPointer { inBuf in
            switch layer {
            case .zlib(let s):
                s.pointee.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                s.pointee.avail_in = uInt(inBuf.count)
                while s.pointee.avail_in > 0 {
                    if ended[index] { throw HTTPFailure.trailingCoded(name).vowError(for: request) }
                    let (rc, n) = chunk.withUnsafeMutableBufferPointer { outBuf -> (Int32, Int) in
                        s.pointee.next_out = outBuf.baseAddress
                        s.pointee.avail_out = uInt(outBuf.count)
                        let rc = inflate(s, Z_NO_FLUSH)
                        return (rc, outBuf.count - Int(s.pointee.avail_out))
                    }
                    try append(chunk[0..<n], to: &out, last: last)
                    if rc == Z_STREAM_END {
                        ended[index] = true
                    } else if rc != Z_OK && !(rc == Z_BUF_ERROR && n > 0) {
                        let message = s.pointee.msg.map { String(cString: $0) } ?? "error \(rc)"
                        throw HTTPFailure.corruptCoding(name, detail: message).vowError(for: request)
                    }
                }
            case .brotli(let s):
                var availableIn = inBuf.count
                var nextIn = inBuf.baseAddress
                while true {
                    var availableOut = chunk.count
                    let result = chunk.withUnsafeMutableBufferPointer { outBuf -> BrotliDecoderResult in
                        var nextOut = outBuf.baseAddress
                        return BrotliDecoderDecompressStream(s, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    }
                    try append(chunk[0..<(chunk.count - availableOut)], to: &out, last: last)
                    switch result {
                    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return
                    case BROTLI_DECODER_RESULT_SUCCESS:
                        if availableIn > 0 { throw HTTPFailure.trailingCoded(name).vowError(for: request) }
                        return
                    default:
                        let message = String(cString: BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s)))
                        throw HTTPFailure.corruptCoding(name, detail: message).vowError(for: request)
                    }
                }
            }
        }
        return out
    }

    /// Adds decoded bytes, within the limit when they are the body's own (the last layer).
    private func append(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8], last: Bool) throws {
        if last {
            produced += bytes.count
            if produced > limit { throw HTTPFailure.decodedTooBig(limit: limit, reason: nil).vowError(for: request) }
        }
        out.append(contentsOf: bytes)
    }
}
