import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import VowValue

extension HTTPEngine {
    /// Sends `first` (a hop of the request `spec`) and follows its redirects as `redirect` says,
    /// keeping cookies and showing `--verbose`; returns the last response, its body unread, and
    /// the hop that got it. `deadline` gives each hop's deadline. Too many redirects, or a loop,
    /// throws the `http` error.
    func lastHop(
        _ first: HTTPRequestSpec, of spec: HTTPRequestSpec, start: ContinuousClock.Instant, deadline: () -> NIODeadline
    ) async throws -> (HTTPClientResponse, HTTPRequestSpec) {
        let client = try client(ClientKey(insecure: spec.insecure, proxy: spec.proxy, caFile: spec.caFile))
        var current = first
        var visited: [String] = []
        while true {
            let url = try Self.checkedURL(current, spec)
            var request = HTTPClientRequest(url: current.url)
            request.method = HTTPMethod(rawValue: current.method)
            request.headers = Self.headers(current)
            if let body = current.body { request.body = .bytes(body) }
            if let upload = current.upload { request.body = upload.body() }
            let sent = ContinuousClock.now
            // The client adds Content-Length when it sends a body: shown too, as sent.
            let length = current.upload?.size ?? current.body?.count ?? (["POST", "PUT", "PATCH"].contains(current.method) ? 0 : nil)
            current.verbose?(VerboseExchange.request(method: current.method, url: url, headers: request.headers, bodyLength: length))
            let response = try await client.execute(request, deadline: deadline())
            current.verbose?(VerboseExchange.response(response, firstByte: ContinuousClock.now - sent))
            current.cookies?.store(response.headers["Set-Cookie"], from: current.url)
            // Drain nothing on a redirect: dropping the body lets the client close or reuse the connection.
            switch try Self.redirect(current, status: Int(response.status.code), headers: response.headers, url: url, visited: &visited, original: spec) {
            case .follow(let next):
                current = next
            case .refused(let refusal):
                let body = try await readBody(response, max: current.maxSize, spec: current)
                throw refusal(makeResponse(response.status, response.version, response.headers, current, body: body, start: start))
            case .none:
                return (response, current)
            }
        }
    }

    /// The URL of the hop `current` of the request `spec`, checked: http or https, with a host.
    static func checkedURL(_ current: HTTPRequestSpec, _ spec: HTTPRequestSpec) throws -> URL {
        guard let url = URL(string: current.url), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw HTTPFailure.invalidURL(stage: spec.stage).vowError(for: current)
        }
        return url
    }

    /// The headers a hop sends: the given ones, what vow accepts as encodings, the session's cookies.
    static func headers(_ current: HTTPRequestSpec) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for h in current.headers { headers.add(name: h.name, value: h.value) }
        // One gzip or deflate layer is decoded by the client, the rest here (ContentDecoding,
        // BodyDecoder), downloads too.
        if !headers.contains(name: "Accept-Encoding") {
            headers.add(name: "Accept-Encoding", value: ContentDecoding.accepted)
        }
        if let jar = current.cookies, let cookie = jar.header(for: current.url) {
            let given = headers["Cookie"].joined(separator: "; ")
            headers.replaceOrAdd(name: "Cookie", value: given.isEmpty ? cookie : given + "; " + cookie)
        }
        return headers
    }

    /// What a response means for a chain of redirects.
    enum Redirect {
        /// Not a redirect to follow: the response is the answer.
        case none
        /// The next hop.
        case follow(HTTPRequestSpec)
        /// Too many redirects, or a loop: the request rejects with the error this gives for the
        /// last response (its body read).
        case refused((HTTPResponse) -> VowError)
    }

    /// The redirect step after a response of `status` to the hop `current` (at `url`) of the
    /// request `original`; `visited` gains the hop's URL when it redirects.
    static func redirect(
        _ current: HTTPRequestSpec, status: Int, headers: HTTPHeaders, url: URL, visited: inout [String], original spec: HTTPRequestSpec
    ) throws -> Redirect {
        guard current.follow, (300..<400).contains(status), status != 304, let location = headers.first(name: "Location") else { return .none }
        visited.append(current.url)
        guard let next = URL(string: location, relativeTo: url)?.absoluteString else {
            throw HTTPFailure.invalidLocation(status: status, location: location).vowError(for: current)
        }
        if visited.count > current.maxRedirects || visited.contains(next) {
            let chain = visited, loop = visited.contains(next), limit = current.maxRedirects
            // Worded for the hop's method and the URL first asked for.
            let method = current.method, asked = spec.url
            return .refused { r in
                let failure = loop ? HTTPFailure.redirectLoop(r, to: next, visited: chain) : .tooManyRedirects(r, limit: limit, visited: chain)
                return failure.vowError(method: method, url: asked)
            }
        }
        var hop = current
        let sameOrigin = URL(string: next).map { $0.host == url.host && $0.scheme == url.scheme && $0.port == url.port } ?? false
        if status == 303 || ((status == 301 || status == 302) && current.method == "POST") {
            hop.method = current.method == "HEAD" ? "HEAD" : "GET"
            hop.body = nil
            hop.upload = nil
            hop.headers.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
        }
        if !sameOrigin {
            // The session's headers belong to the origin they were given for.
            hop.headers.removeFirst(min(hop.sessionHeaderCount, hop.headers.count))
            hop.givenHeaderCount = max(0, hop.givenHeaderCount - hop.sessionHeaderCount)
            hop.sessionHeaderCount = 0
            hop.headers.removeAll { ["authorization", "cookie", "proxy-authorization"].contains($0.name.lowercased()) }
        }
        hop.url = next
        return .follow(hop)
    }
}
