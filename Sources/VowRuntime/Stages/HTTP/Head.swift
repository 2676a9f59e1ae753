import Foundation
import VowPromises
import VowValue

struct HeadStage: HTTPVerbStage {
    static let name = "head"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("head", streamsAtOnce: false)
    static let method = "HEAD"
    static let examples = [StageExample("head $base/user.json | len", "0", needsServer: true)]
}
