import Foundation
import VowPromises
import VowValue

struct DeleteStage: HTTPVerbStage {
    static let name = "delete"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("delete", streamsAtOnce: false)
    static let method = "DELETE"
    static let examples = [StageExample("delete $base/echo | pick method", "DELETE", needsServer: true)]
}
