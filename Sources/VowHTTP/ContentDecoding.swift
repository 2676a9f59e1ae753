import VowValue

/// Bodies in a `Content-Encoding` the client library does not decode (`br`, a second gzip layer),
/// through `BodyDecoder`; anything else (zstd, compress, …) is refused, naming it, rather than
/// passed on as bytes that look like text. One gzip or deflate layer arrives already decoded.
enum ContentDecoding {
    /// What vow asks servers for.
    static let accepted = "gzip, deflate, br"

    /// `body` decoded by the `Content-Encoding` header values `encodings` (decoded size at most
    /// `max`): the codings the transport left (`BodyDecoder.remaining`); `what` names the request
    /// in errors, and is only made when there is one.
    static func decode(_ body: [UInt8], encodings: [String], max: Int, what: @autoclosure () -> String) throws -> [UInt8] {
        if encodings.isEmpty { return body }  // the common case: nothing is read twice
        let codings = try BodyDecoder.remaining(encodings, what: what())
        if codings.isEmpty { return body }
        let decoder = try BodyDecoder(codings, limit: max, what: what())
        let out = try decoder.decode(body)
        try decoder.finish()
        return out
    }
}
