import Foundation
import VowPromises
import VowValue

struct GetStage: HTTPVerbStage {
    static let name = "get"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promise("get")
    static let method = "GET"
    static let examples = [
        StageExample(#"get $base/echo --verbose | json | pick method"#, "GET", needsServer: true),
        StageExample(#"get $base/echo --query {q: "a b&c"} --header "X-Trace: 1" | json | pick '[query.q, headers."x-trace"]' | to-json"#, #"["a b&c","1"]"#, needsServer: true),
    ]
}
