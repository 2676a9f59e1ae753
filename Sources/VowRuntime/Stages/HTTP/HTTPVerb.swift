import Foundation
import VowPromises
import VowValue

/// The verbs: `get URL`, `post URL`, … — `fetch` with a fixed method.
protocol HTTPVerbStage: ValueStage {
    static var method: String { get }
}

extension HTTPVerbStage {
    static var group: StageGroup { .http }
    static var synopsis: String { "\(name) URL [--header K:V]… [--query {…}] [--json V] [--form {…}] [--body T] …" }
    static var summary: String { "Sends an HTTP \(method) request to URL." }
    static var help: String { "Sends \(method) to URL with the flags below.\n" + httpHelpTail }
    static var flags: [FlagSpec] { httpFlags }
    /// One URL: a second word (HTTPie's `name=ada`) is refused, never dropped.
    static var positionalLimit: Int? { 1 }
    /// What the request's promise does, for `:explain`.
    static var settlement: String? { httpSettlement }

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let spec = try buildHTTPRequest(method: Self.method, input: input, args: args, environment: call.session.environment, apis: call.session.apis)
        return try send(spec, args, call)
    }
}

/// What an HTTP stage's promise does, for `:explain`.
let httpSettlement = "settles when the response has arrived; rejects on a network error, a 4xx/5xx status or a timeout"
