import Foundation
import VowHTTP
import VowOpenAPI
import VowPromises
import VowValue

/// `api add NAME BASE …`, `api list`, `api show NAME`, `api remove NAME`: APIs declared by name.
struct APIStage: ValueStage {
    static let name = "api"
    /// No stand-in in the twin: the twin's requests go to the URLs as written.
    static let twin = StageTwin.none
    static let group = StageGroup.http
    static let positionalLimit: Int? = 3
    static let synopsis = "api add NAME BASE [--bearer T] [--auth U:P] [--header K:V]… [--openapi FILE|- | --discover] [--no-save] | api list | api show NAME [OPERATION] [--profile] | api remove NAME"
    static let summary = "Declares an API once by name: `fetch NAME/PATH` then goes to its base URL, with its credentials."
    static let help = """
        `api add NAME BASE` declares an API: afterwards a URL whose first segment is NAME
        (`fetch kinto/buckets`, `paginate kinto/buckets/b/records`, `post kinto/buckets --json …`)
        goes to BASE with the rest of the path added, and carries the headers given with it
        (--bearer T, --auth USER:PASS, --header "K: V", repeatable). Those headers go only to
        BASE's origin: a redirect to another origin drops them, and a URL with a scheme is never
        taken for an API. NAME is letters, digits, - and _ (so `example.com/x` and
        `localhost:8080/x` stay host names). The API is kept in ~/.config/vow/apis/NAME.json
        (mode 0600; `XDG_CONFIG_HOME` moves it) for every later run; with --no-save it is this
        run's only, so a script can declare what it uses without touching the kept ones.
        `api list` gives every API (name and base), `api show NAME` one with its headers (secrets
        masked), `api remove NAME` forgets it.

        --openapi FILE reads the API's description, an OpenAPI 3.0 or 3.1 document or a Swagger
        2.0 one, JSON or YAML (`--openapi -`: the input, as `fetch URL | api add …` gives it);
        --discover looks for it at the usual places, with the API's headers: the target of a
        `Link: <…>; rel="service-desc"` header on BASE, then BASE/openapi.json, /openapi.yaml,
        /__api__ (Kinto's) and /swagger.json, the first that reads as a description. Its
        operations are kept with the API: `api show NAME` then lists them (method, path,
        operationId, summary: a table on a terminal; --profile gives the API itself), `api show
        NAME OPERATION` one operation with its parameters, `op NAME.OPERATION …` calls it, and the
        REPL completes the paths after `NAME/`.
        """
    /// `--bearer TOKEN`.
    static let bearer = Flag.text("bearer", value: "TOKEN", help: "send Authorization: Bearer TOKEN to this API")
    /// `--auth USER:PASS`.
    static let auth = Flag.text("auth", value: "USER:PASS", help: "send Basic authentication to this API")
    /// `--header K:V`.
    static let header = Flag.value("header", value: "K:V", repeatable: true, help: "a header every request to this API carries")
    /// `--no-save`.
    static let noSave = Flag.switch("no-save", help: "declare it for this run only")
    /// `--openapi FILE|-`.
    static let openAPI = Flag.text("openapi", value: "FILE|-", help: "the API's description (OpenAPI 3.x or Swagger 2.0, JSON or YAML); - for the input")
    /// `--profile`.
    static let profileOnly = Flag.switch("profile", help: "api show: the API itself, not its operations")
    /// `--discover`.
    static let discover = Flag.switch("discover", help: "find the API's description at the usual places (a Link rel=service-desc, /openapi.json, /openapi.yaml, /__api__, /swagger.json)")
    static let flags = [bearer.spec, auth.spec, header.spec, openAPI.spec, discover.spec, noSave.spec, profileOnly.spec]
    static let examples = [
        StageExample("api add demo http://127.0.0.1:8321 --no-save | pick base", "http://127.0.0.1:8321"),
        StageExample("api add demo http://127.0.0.1:8321/ --bearer s3cret --no-save | pick headers", "[\n  \"Authorization: ••••••••\"\n]"),
        StageExample("api add 'a.b' http://h --no-save", "error[type]: api: NAME must be letters, digits, - and _, got 'a.b'", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let apis = call.session.apis
        let command = try args.string(0, "a command: add, list, show or remove")
        switch command {
        case "add":
            let name = try args.string(1, "NAME")
            guard APIProfile.isName(name) else { throw call.error(.type, "NAME must be letters, digits, - and _, got '\(name)'", argument: 1) }
            var base = trimmedURL(try args.string(2, "BASE"))
            let lowered = base.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), HTTPSession.origin(of: base) != nil else {
                throw call.error(.type, "BASE must be an http:// or https:// URL, got '\(base)'", argument: 2)
            }
            while base.hasSuffix("/") { base.removeLast() }
            var draft = RequestDraft(method: "GET", args: args)
            for h in try args.values(Self.header) { try draft.addHeaders(h) }
            if let a = try args.value(Self.auth) {
                guard a.contains(":") else { throw call.error(.type, "--auth must be user:pass", flag: "auth") }
                draft.headers.append(("Authorization", "Basic " + Data(a.utf8).base64EncodedString()))
            }
            if let t = try args.value(Self.bearer) { draft.headers.append(("Authorization", "Bearer " + t)) }
            try draft.checkHeaders()
            var profile = APIProfile(name: name, base: base, headers: draft.headers.map { .init(name: $0.name, value: $0.value) }, transient: args[Self.noSave])
            if args[Self.discover] {
                guard try args.value(Self.openAPI) == nil else { throw call.error(.type, "--discover or --openapi: one at a time", flag: "discover") }
                let found = APIDiscovery.find(base: base, headers: profile.headers.map { ($0.name, $0.value) }, call: call)
                let given = profile
                return .promise(found.then(on: call.executor) { (description, url) -> Value in
                    var p = given
                    p.description = description
                    try apis.add(p)
                    guard case .record(var r) = p.record else { return p.record }
                    if case .record(var d)? = r["description"] { d["url"] = .string(url); r["description"] = .record(d) }
                    return .record(r)
                })
            }
            if let source = try args.value(Self.openAPI) {
                let bytes: [UInt8]
                if source == "-" {
                    switch input {
                    case .response(let r): bytes = r.body
                    case .bytes(let b): bytes = b
                    case .string(let s): bytes = Array(s.utf8)
                    case .null: throw call.error(.type, "--openapi -: the input is the description, and there is none (fetch URL | api add …)", flag: "openapi")
                    default: bytes = Array(JSONWriter.compact(input.toJSONValue()).utf8)
                    }
                } else {
                    bytes = try Files.read(source)
                }
                do {
                    profile.description = try APIDescription.read(bytes, source: source == "-" ? "the input" : source)
                } catch let e as APIDescriptionError {
                    throw call.error(.type, e.description, flag: "openapi")
                }
            }
            try apis.add(profile)
            return .value(profile.record)
        case "list":
            return .value(.list(apis.all().values.sorted { $0.name < $1.name }.map { .record(["name": .string($0.name), "base": .string($0.base)]) }))
        case "show":
            let name = try args.string(1, "NAME")
            guard let profile = apis.described(name) else { throw call.error(.type, "no API named '\(name)' (api list shows them)", argument: 1) }
            if args.count > 2 {
                let id = try args.string(2, "OPERATION")
                guard let operation = profile.description?.operations.first(where: { $0.operationId == id }) else {
                    throw call.error(.type, "the API \(name) has no operation '\(id)' (api show \(name) lists them)", argument: 2)
                }
                return .value(operation.stored)
            }
            if let description = profile.description, !args[Self.profileOnly] { return .value(.list(description.operations.map(\.row))) }
            return .value(profile.record)
        case "remove":
            let name = try args.string(1, "NAME")
            guard try apis.remove(name) else { throw call.error(.type, "no API named '\(name)' (api list shows them)", argument: 1) }
            return .value(.string("removed \(name)"))
        default:
            throw call.error(.type, "unknown command '\(command)': add, list, show or remove", argument: 0)
        }
    }
}
