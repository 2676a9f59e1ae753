import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import VowValue

extension HTTPEngine {
    /// The body of the last hop decoded by its `Content-Encoding` (`br`; the client decodes gzip
    /// and deflate), within `--max-size`.
    static func decoded(_ raw: [UInt8], _ headers: HTTPHeaders, _ current: HTTPRequestSpec) throws -> [UInt8] {
        try ContentDecoding.decode(raw, encodings: headers["Content-Encoding"], max: current.maxSize, request: current)
    }

    /// The response of the last hop, or an `http` error for a 4xx or 5xx status unless errors
    /// are allowed.
    func answer(_ resp: HTTPResponse, _ current: HTTPRequestSpec) throws -> HTTPResponse {
        guard resp.status >= 400 && !current.allowErrors else { return resp }
        // A proxy's own refusal (407, or one that says so: Proxy-Status, squid's X-Squid-Error)
        // names the proxy and its reason.
        if let proxy = current.proxy, resp.status == 407 || resp.header("Proxy-Status") != nil || resp.header("X-Squid-Error") != nil {
            let reason = resp.header("Proxy-Status") ?? resp.header("X-Squid-Error")
            throw HTTPFailure.proxyRefused(resp, proxy: "\(bracketed(proxy.host)):\(proxy.port)", reason: reason).vowError(for: current)
        }
        throw HTTPFailure.status(resp).vowError(for: current)
    }

    /// The body of `response` to the hop `spec`, read whole, at most `max` bytes.
    func readBody(_ response: HTTPClientResponse, max: Int, spec: HTTPRequestSpec) async throws -> [UInt8] {
        if let error = Self.announcedTooBig(response.headers, status: response.status, max: max, spec: spec) { throw error }
        var out: [UInt8] = []
        for try await chunk in response.body {
            if out.count + chunk.readableBytes > max { throw Self.tooBig(status: response.status, max: max, spec: spec) }
            chunk.withUnsafeReadableBytes { out.append(contentsOf: $0) }
        }
        return out
    }

    /// The error for a body whose Content-Length is over `max`, or nil.
    static func announcedTooBig(_ headers: HTTPHeaders, status: HTTPResponseStatus, max: Int, spec: HTTPRequestSpec) -> VowError? {
        guard let length = headers.first(name: "Content-Length").flatMap(Int.init), length > max else { return nil }
        return HTTPFailure.tooBig(limit: max, size: length, status: Int(status.code)).vowError(for: spec)
    }

    /// The error for a body that grew over `max` as it arrived.
    static func tooBig(status: HTTPResponseStatus, max: Int, spec: HTTPRequestSpec) -> VowError {
        HTTPFailure.tooBig(limit: max, size: nil, status: Int(status.code)).vowError(for: spec)
    }

    /// The response value of a hop `current`.
    func makeResponse(
        _ status: HTTPResponseStatus, _ version: HTTPVersion, _ headers: HTTPHeaders, _ current: HTTPRequestSpec, body: [UInt8],
        start: ContinuousClock.Instant, headArrived: ContinuousClock.Instant? = nil
    ) -> HTTPResponse {
        HTTPResponse(
            status: Int(status.code), statusText: status.reasonPhrase, url: current.url, method: current.method,
            headers: headers.map { (name: $0.name, value: $0.value) }, elapsed: (ContinuousClock.now - start).inSeconds, body: body,
            version: version.major == 2 ? "HTTP/2" : "HTTP/\(version.major).\(version.minor)",
            firstByte: headArrived.map { ($0 - start).inSeconds })
    }
}
