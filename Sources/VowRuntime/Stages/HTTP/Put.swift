import Foundation
import VowPromises
import VowValue

struct PutStage: HTTPVerbStage {
    static let name = "put"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("put", streamsAtOnce: false)
    static let method = "PUT"
    static let examples = [StageExample("put $base/echo --body hello | pick '[method, bodyText]' | to-json", "[\"PUT\",\"hello\"]", needsServer: true)]
}
