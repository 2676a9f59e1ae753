import Foundation
import VowHTTP
import VowOpenAPI
import VowPromises
import VowValue

/// `api add … --discover`: an API's description looked for at the usual places.
enum APIDiscovery {
    /// The paths tried under the base, in order, after a `service-desc` link.
    static let places = ["/openapi.json", "/openapi.yaml", "/__api__", "/swagger.json"]

    /// The first description found for the API at `base` (with its `headers`), and where: the
    /// target of a `Link: <…>; rel="service-desc"` on a GET of `base`, then `places`. Rejects,
    /// naming every place tried, when none gives one.
    static func find(base: String, headers: [(String, String)], call: StageCall) -> Promise<(APIDescription, String)> {
        let ex = call.executor
        let http = call.session.http
        @Sendable func request(_ url: String) -> Promise<Value> {
            var spec = HTTPRequestSpec(method: "GET", url: url)
            spec.stage = "api"
            spec.headers = headers.map { (name: $0.0, value: $0.1) } + [
                (name: "Accept", value: "application/json, application/yaml;q=0.9, */*;q=0.5"), (name: "User-Agent", value: "vow/0.1"),
            ]
            spec.givenHeaderCount = spec.headers.count
            spec.sessionHeaderCount = headers.count
            return http.perform(spec, on: ex)
        }
        let tried = Locked([String]())
        @Sendable func attempt(_ urls: [String]) -> Promise<(APIDescription, String)> {
            guard let url = urls.first else {
                let places = tried.withLock { $0 }.joined(separator: ", ")
                return Promise.reject(call.error(.type, "no API description found at \(places): give one with --openapi FILE"), on: ex)
            }
            tried.withLock { $0.append(url) }
            return request(url).always(on: ex) { r -> Resolution<(APIDescription, String)> in
                if case .success(.response(let response)) = r, let d = try? APIDescription.read(response.body, source: url) {
                    return .value((d, url))
                }
                return .promise(attempt(Array(urls.dropFirst())))
            }
        }
        let standard = places.map { base + $0 }
        // The base first, for its `Link` header: a service description it names comes first.
        return request(base).always(on: ex) { r -> Resolution<(APIDescription, String)> in
            var urls = standard
            if case .success(.response(let response)) = r, let target = LinkHeader.target(rel: "service-desc", in: response.headers),
                let resolved = URL(string: target, relativeTo: URL(string: base))?.absoluteString
            {
                urls.insert(resolved, at: 0)
            }
            return .promise(attempt(urls))
        }
    }
}
