import Foundation
import VowPromises
import VowValue

struct PostStage: HTTPVerbStage {
    static let name = "post"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("post", streamsAtOnce: false)
    static let method = "POST"
    static let examples = [
        StageExample("post $base/echo --json {n: 1} | json | pick body.n", "1", needsServer: true),
        StageExample("post $base/echo --form {a: \"x y\", b: 2} | pick bodyText", "a=x+y&b=2", needsServer: true),
        StageExample("post $base/upload --multipart {name: ann, n: 3} | pick fields | to-json", #"{"n":"3","name":"ann"}"#, needsServer: true),
    ]
}
