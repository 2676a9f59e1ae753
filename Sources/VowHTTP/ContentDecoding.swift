import VowValue

/// Bodies in a `Content-Encoding` the client library does not decode (`br`, a second gzip layer),
/// through `BodyDecoder`; anything else (zstd, compress, …) is refused, naming it, rather than
/// passed on as bytes that look like text. One gzip or deflate layer arrives already decoded.
enum ContentDecoding {
    /// What vow asks servers for.
    static let accepted = "gzip, deflate, br"

    /// `body` decoded by the `Content-Encoding` header values `encodings` (decoded size at most
    /// `max`): the codings the transport left (`BodyDecoder.remaining`); errors are worded for
    /// `request`, the hop whose body it is.
    static func decode(_ body: [UInt8], encodings: [String], max: Int, request: HTTPRequestSpec) throws -> [UInt8] {
        if encodings.isEmpty { return body }  // the common case: nothing is read twice
        let codings = try BodyDecoder.remaining(encodings, request: request)
        if codings.isEmpty { return body }
        let decoder = try BodyDecoder(codings, limit: max, request: request)
        let out = try decoder.decode(body)
        try decoder.finish()
        return out
    }
}
