import Foundation
import VowPromises
import VowValue

/// `fetch [URL]`: an HTTP request.
struct FetchStage: ValueStage {
    static let name = "fetch"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("fetch", streamsAtOnce: false)
    static let settlement: String? = httpSettlement
    static let group = StageGroup.http
    /// One URL: a second word (HTTPie's `name=ada`) is refused, never dropped.
    static let positionalLimit: Int? = 1
    static let synopsis = "fetch [URL] [--header K:V]… [--query {…}] [--json V] [--timeout D] …"
    static let summary = "Sends an HTTP request (GET unless the input record says otherwise)."
    static let help = """
        Requests URL, or the input when no URL is given: a string is the URL, a record
        {url, method, headers, query, json, body} describes the whole request.
        """ + "\n" + httpHelpTail
    static let flags = httpFlags
    static let examples = [
        StageExample("fetch $base/user.json | json | pick user.name", "Ada Lovelace", needsServer: true),
        StageExample("fetch $base/user.json | pick user.login | then fetch \"$base/followers/{}\" | pick count", "42", needsServer: true),
        StageExample("echo {url: \"$base/echo\", method: PUT, json: {n: 1}} | fetch | pick '[method, body.n]' | to-json", "[\"PUT\",1]", needsServer: true),
        StageExample("fetch $base/status/404 | catch pick status", "404", needsServer: true),
        StageExample("fetch $base/status/404", "error[http]: 404 Not Found", fails: true, needsServer: true),
        StageExample(#"fetch "$base/cookies/set?k=v" --session-read-only demo | json | pick cookies.k"#, "v", needsServer: true),
        StageExample(#"fetch $base/echo --session /tmp/vow-example-session.json --bearer t0k | json | pick headers.authorization"#, "Bearer t0k", needsServer: true),
        StageExample(#"fetch "$base/file?bytes=2048" --output /tmp/vow-example.bin | pick '[bytes, status]' | to-json"#, "[2048,200]", needsServer: true),
        StageExample(#"fetch https://api.example.com/items --header "X-Trace: it's 1" --curl"#, #"curl -sS https://api.example.com/items --header 'X-Trace: it'\''s 1' --header 'User-Agent: vow/0.1' --compressed --location --max-redirs 10 --max-time 30 --fail-with-body"#),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let spec = try buildHTTPRequest(method: nil, input: input, args: args, environment: call.session.environment, apis: call.session.apis)
        return try send(spec, args, call)
    }
}
