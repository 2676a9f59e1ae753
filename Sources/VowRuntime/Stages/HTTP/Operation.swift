import Foundation
import VowOpenAPI
import VowPromises
import VowValue

/// `op NAME.OPERATION [PATH PARAMETER…] [flags]`: calls an operation of an API's description by
/// its operationId.
struct OperationStage: ValueStage {
    static let name = "op"
    /// No stand-in in the twin: the twin knows no API's description.
    static let twin = StageTwin.none
    static let group = StageGroup.http
    static let settlement: String? = httpSettlement
    static let synopsis = "op NAME.OPERATION [PATH PARAMETER…] [--PARAMETER VALUE]… [--query {…}] [--json V] …"
    static let summary = "Calls the operation OPERATION (its operationId) of the API NAME's description: its method, its path with the parameters given in order."
    static let help = """
        For an API added with its description (`api add kinto URL --openapi FILE`), `op
        kinto.get_bucket b1` sends the operation's method to its path, the path's parameters
        (`{id}`) taken from the arguments in the order they appear in it, percent-encoded, and the
        API's base and headers as `fetch kinto/…` has them. Query parameters are flags of their
        own (`op kinto.get_records shop orders --_limit 10 --_sort -n`), or go in --query (a
        parameter named as one of the flags below must); a body goes in --json, --form or
        --body, as with fetch. A query parameter the operation requires and neither gives, or a
        path parameter missing, is an error and nothing is sent.
        A --json body is checked against the operation's schema first (type, required fields,
        properties, items, enum, lengths, bounds, allOf/anyOf/oneOf): the error names the place
        in the body and the rule (`data.n: expected an integer, got the string "x" (type)`);
        --no-check sends it all the same, for a server that takes more than its description says.
        --validate checks the JSON body of a successful response against the operation's schema
        the same way, and rejects (kind type, with the status) when it does not fit.
        `api show NAME OPERATION` gives the operation with its parameters; in the REPL, Tab after
        `op ` completes NAME.OPERATION.
        """ + "\n" + httpHelpTail
    /// `--no-check`.
    static let noCheck = Flag.switch("no-check", help: "send the --json body without checking it against the operation's schema")
    /// `--validate`.
    static let validate = Flag.switch("validate", help: "check the JSON body of a successful response against the operation's schema")
    static let flags = httpFlags + [noCheck.spec, validate.spec]
    static let examples: [StageExample] = []
    /// Query parameters as flags: `--_limit 10`.
    static let takesUndeclaredFlags = true

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let reference = try args.string(0, "NAME.OPERATION (an API's name and an operationId)")
        let (api, operation) = try Self.operation(reference, in: call.session.apis, call: call)
        let placeholders = Self.placeholders(operation.path)
        let given = args.count - 1
        guard given == placeholders.count else {
            let wanted = placeholders.isEmpty ? "no path parameter" : placeholders.map { "{\($0)}" }.joined(separator: ", ")
            if given < placeholders.count {
                throw call.error(.type, "\(reference) (\(operation.method) \(operation.path)) needs \(wanted): {\(placeholders[given])} is missing")
            }
            throw call.error(.type, "\(reference) (\(operation.method) \(operation.path)) takes \(wanted), got \(given) arguments", argument: placeholders.count + 1)
        }
        var path = operation.path
        for (i, name) in placeholders.enumerated() {
            let value = args.positional[i + 1]
            let text = value.stringValue ?? JSONWriter.compact(value)
            path = path.replacingOccurrences(of: "{\(name)}", with: Self.segment(text))
        }
        // Query parameters given as flags of their own (`--_limit 10`), those the stage does not
        // declare, in the order written.
        let declared = Set(Self.flags.map(\.name))
        var pairs: [(String, Value)] = []
        for name in args.flags.keys.sorted(by: { (args.flagSpan($0, at: 0)?.lowerBound ?? 0) < (args.flagSpan($1, at: 0)?.lowerBound ?? 0) })
        where !declared.contains(name) {
            for v in args.flags[name] ?? [] { pairs.append((name, v)) }
        }
        let query = try args.value(HTTPFlag.query)
        for p in operation.parameters where p.location == "query" && p.required {
            let inQuery: Bool
            if case .record(let r)? = query { inQuery = r[p.name] != nil } else { inQuery = false }
            guard inQuery || pairs.contains(where: { $0.0 == p.name }) else {
                throw call.error(.type, "\(reference) needs the query parameter \(p.name): give it as --\(p.name) VALUE (or in --query {\(p.name): …})")
            }
        }
        if !pairs.isEmpty {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            path += "?" + pairs.map { name, v in
                let text = v.stringValue ?? JSONWriter.compact(v)
                return (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name) + "=" + (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)
            }.joined(separator: "&")
        }
        // The body checked against the operation's schema before anything is sent.
        if !args[Self.noCheck], let schema = operation.body, let body = try args.value(HTTPFlag.json), !(body.stringValue?.hasPrefix("@") ?? false),
            let problem = SchemaCheck.problem(body, schema)
        {
            throw call.error(.type, "\(reference): the body does not fit the operation's schema: \(problem); nothing was sent (--no-check sends it all the same)", flag: "json")
        }
        let spec = try buildHTTPRequest(
            method: operation.method, input: input, args: args, environment: call.session.environment, apis: call.session.apis, url: api + path)
        let sent = try send(spec, args, call)
        guard args[Self.validate] else { return sent }
        guard let schema = operation.response else {
            throw call.error(.type, "\(reference): --validate: its description gives no schema for a successful response", flag: "validate")
        }
        guard case .promise(let p) = sent else { return sent }
        return .promise(p.then(on: call.executor) { v in
            guard case .response(let r) = v, let body = try? JSON.parse(r.body) else { return v }
            if let problem = SchemaCheck.problem(body, schema) {
                var e = call.error(.type, "\(reference): the response does not fit the operation's schema: \(problem.replacingOccurrences(of: "the body", with: "the response"))")
                e.details["status"] = .int(r.status)
                throw e
            }
            return v
        })
    }

    /// The API and its operation `reference` names (`kinto.get_bucket`); the error says what is
    /// missing and what there is.
    static func operation(_ reference: String, in apis: APIProfiles, call: StageCall) throws -> (String, APIOperation) {
        guard let dot = reference.firstIndex(of: ".") else {
            throw call.error(.type, "expected NAME.OPERATION (kinto.get_bucket), got '\(reference)'", argument: 0)
        }
        let name = String(reference[..<dot]), id = String(reference[reference.index(after: dot)...])
        guard let profile = apis.described(name) else { throw call.error(.type, "no API named '\(name)' (api list shows them)", argument: 0) }
        guard let description = profile.description else {
            throw call.error(.type, "the API \(name) has no description: api add \(name) \(profile.base) --openapi FILE gives it one", argument: 0)
        }
        guard let operation = description.operations.first(where: { $0.operationId == id }) else {
            let near = description.operations.compactMap(\.operationId).filter { $0.lowercased().contains(id.lowercased()) || id.lowercased().contains($0.lowercased()) }
            let hint = near.isEmpty ? " (api show \(name) lists them)" : ": did you mean \(near.prefix(3).map { "\(name).\($0)" }.joined(separator: ", "))?"
            throw call.error(.type, "the API \(name) has no operation '\(id)'\(hint)", argument: 0)
        }
        return (name, operation)
    }

    /// The names of a path template's parameters, in order (`/b/{id}/c/{cid}`: id, cid).
    static func placeholders(_ path: String) -> [String] {
        var out: [String] = []
        var rest = path[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    /// `text` as one path segment: everything but unreserved characters percent-encoded.
    static func segment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
