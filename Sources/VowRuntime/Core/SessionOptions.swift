import Foundation
import VowHTTP
import VowValue

/// Options of a session that come from the command line.
public struct SessionOptions: Sendable {
    /// Script arguments: `$1`…, `$args`.
    public var arguments: [String] = []
    /// The script's name as it was given (`deploy.vow`), for usage messages; nil for `-c` and
    /// the REPL.
    public var scriptName: String?
    /// Extra directories to search for `vow-NAME` stages before PATH.
    public var stagePath: [String] = []
    /// Variables defined before the first statement runs (e.g. a base URL for scripts and tests).
    public var variables: [String: Value] = [:]
    /// Makes default options.
    public init() {}
}
