import Foundation
import VowPromises
import VowValue

struct PatchStage: HTTPVerbStage {
    static let name = "patch"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("patch", streamsAtOnce: false)
    static let method = "PATCH"
    static let examples = [StageExample("patch $base/echo --json {a: 1} | pick method", "PATCH", needsServer: true)]
}
