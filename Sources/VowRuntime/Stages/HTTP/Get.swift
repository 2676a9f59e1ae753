import Foundation
import VowPromises
import VowValue

struct GetStage: HTTPVerbStage {
    static let name = "get"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("get", streamsAtOnce: false)
    static let method = "GET"
    static let examples = [
        StageExample(#"get $base/echo --verbose | json | pick method"#, "GET", needsServer: true),
        StageExample(#"get $base/echo --no-proxy | status"#, "200", needsServer: true),
        StageExample(#"get http://example.com/a --proxy http://proxy.internal:3128 --curl"#, #"curl -sS http://example.com/a --header 'User-Agent: vow/0.1' --compressed --location --max-redirs 10 --max-time 30 --fail-with-body --proxy http://proxy.internal:3128"#),
        StageExample(#"get $base/echo --query {q: "a b&c"} --header "X-Trace: 1" | json | pick '[query.q, headers."x-trace"]' | to-json"#, #"["a b&c","1"]"#, needsServer: true),
    ]
}
