import VowPromises
import VowValue

/// `response`: what a response says besides its body.
struct ResponseStage: ValueStage {
    static let name = "response"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("response")
    static let group = StageGroup.data
    static let synopsis = "response"
    static let summary = "The input response without its body: status, headers, URL, timings."
    static let help = """
        Fulfils with the input response as a record without its body: {status, statusText,
        version, url, method, headers, elapsed, firstByte, size}. `url` is the last one, after
        redirects; `headers` has lower-case names (repeated headers joined with ", "); `elapsed`
        is the seconds from sending the request to the end of the body and `firstByte` to its
        response head (curl's time_total and time_starttransfer); `size` is the decoded body's
        bytes. `pick`, `format` and the rest read a response's body: read these through
        `response` (`fetch URL | response | pick '[status, elapsed]'`).
        """
    static let examples = [
        StageExample("fetch $base/user.json | response | pick '[status, statusText, headers.\"content-type\"]' | to-json",
            #"[200,"OK","application/json"]"#, needsServer: true),
        StageExample("fetch $base/user.json | response | pick 'elapsed >= firstByte'", "true", needsServer: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        guard case .response(let r) = input else { throw call.error(.type, "expected a response, got \(input.typeName)") }
        var out = Record()
        out["status"] = .int(r.status)
        out["statusText"] = .string(r.statusText)
        out["version"] = .string(r.version)
        out["url"] = .string(r.url)
        out["method"] = .string(r.method)
        out["headers"] = .record(r.headerRecord())
        out["elapsed"] = .double(r.elapsed)
        out["firstByte"] = r.firstByte.map { .double($0) } ?? .null
        out["size"] = .int(r.body.count)
        if let how = r.cache { out["cache"] = .string(how) }
        return .value(.record(out))
    }
}
