import Foundation
import VowHTTP
import VowValue

/// A request as an HTTP stage gathers it from its input record and its flags, before it becomes
/// an `HTTPRequestSpec`: the method, the URL, the headers and query given, and the body.
struct RequestDraft {
    var method: String
    var url: String?
    var headers: [(name: String, value: String)] = []
    var query: [(String, Value)] = []
    var body: [UInt8]?
    var contentType: String?
    var wantsJSON = false
    var upload: FileUpload?
    var curlForm: [(option: String, value: String)]?
    let args: StageArguments

    /// A draft for `method`, reading values with `args` (which name the stage in errors).
    init(method: String, args: StageArguments) {
        self.method = method
        self.args = args
    }

    /// Adds `--header K:V`, or a record of headers.
    mutating func addHeaders(_ v: Value) throws {
        switch v {
        case .record(let r):
            for (k, v) in r.entries { headers.append((k, try args.asString(v, "header value"))) }
        case .string(let s):
            guard let colon = s.firstIndex(of: ":") else {
                throw VowError.ofStage(.type, "--header must be K:V (e.g. --header \"Accept: text/plain\"), got '\(s)'")
            }
            let name = s[..<colon].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains(" ") else { throw VowError.ofStage(.type, "invalid header name in '\(s)'") }
            headers.append((name, s[s.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        default:
            throw VowError.ofStage(.type, "--header must be K:V or a record, got \(v.typeName)")
        }
    }

    /// Adds the fields of a `--query` record.
    mutating func addQuery(_ v: Value) throws {
        guard case .record(let r) = v else { throw VowError.ofStage(.type, "--query must be a record like {q: x}, got \(v.typeName)") }
        query += r.entries.map { ($0.key, $0.value) }
    }

    /// `--json VALUE` (or `@PATH`, the JSON in a file, as `--body @PATH` and `--multipart` read one).
    mutating func setJSON(_ given: Value) throws {
        var v = given
        if case .string(let s) = given, s.hasPrefix("@"), s.count > 1 {
            let path = (String(s.dropFirst()) as NSString).expandingTildeInPath
            let bytes = try Files.read(path)
            do {
                v = try JSON.parse(bytes)
            } catch {
                throw VowError.ofStage(.json, "--json @\(path): the file is not JSON (\(error.description))", details: ["path": .string(path)])
            }
        }
        body = Array(JSONWriter.compact(v).utf8)
        contentType = "application/json"
        wantsJSON = true
    }

    /// `--body TEXT|BYTES|@PATH`.
    mutating func setBody(_ v: Value) throws {
        switch v {
        case .string(let s) where s.hasPrefix("@"): upload = try FileUpload(String(s.dropFirst()), flag: "--body")
        case .bytes(let b): body = b
        case .string(let s): body = Array(s.utf8)
        default: throw VowError.ofStage(.type, "--body must be text or bytes (use --json for values), got \(v.typeName)")
        }
    }

    /// The parts of a request record given as the input (`{url, method, headers, query, json, body}`).
    mutating func read(record r: Record) throws {
        guard let u = r["url"] else { throw VowError.ofStage(.type, "a request record needs a url field") }
        url = try args.asString(u, "url")
        if let m = r["method"] { method = try args.asString(m, "method").uppercased() }
        if let h = r["headers"] { try addHeaders(h) }
        if let q = r["query"] { try addQuery(q) }
        if let j = r["json"] { try setJSON(j) }
        if let b = r["body"] { try setBody(b) }
    }

    /// The headers, query and body the flags give, on top of what the input record gave; one
    /// body flag at a time.
    mutating func readFlags() throws {
        let bodies = [HTTPFlag.json, HTTPFlag.form, HTTPFlag.body, HTTPFlag.multipart].filter { args.given($0) }.map(\.name)
        if bodies.count > 1 {
            throw VowError.ofStage(.type, "one body at a time: --\(bodies[0]) and --\(bodies[1]) were both given")
        }
        for h in try args.values(HTTPFlag.header) { try addHeaders(h) }
        if let q = try args.value(HTTPFlag.query) { try addQuery(q) }
        if let j = try args.value(HTTPFlag.json) { try setJSON(j) }
        if let f = try args.value(HTTPFlag.form) {
            guard case .record(let r) = f else { throw VowError.ofStage(.type, "--form must be a record, got \(f.typeName)") }
            body = Array(try formEncode(r.entries.map { ($0.key, $0.value) }, args: args).utf8)
            contentType = "application/x-www-form-urlencoded"
        }
        if let b = try args.value(HTTPFlag.body) { try setBody(b) }
        if let m = try args.value(HTTPFlag.multipart) {
            guard case .record(let r) = m else {
                throw VowError.ofStage(.type, "--multipart must be a record like {name: ann, doc: @notes.txt}, got \(m.typeName)")
            }
            let multipart = try MultipartBody(r.entries.map { ($0.key, $0.value) }, stage: args.stage)
            body = multipart.bytes
            curlForm = multipart.curlForm
            contentType = multipart.contentType
        }
        if let a = try args.value(HTTPFlag.auth) {
            let s = try args.asString(a, "--auth")
            guard s.contains(":") else { throw VowError.ofStage(.type, "--auth must be user:pass") }
            headers.append(("Authorization", "Basic " + Data(s.utf8).base64EncodedString()))
        }
        if let t = try args.value(HTTPFlag.bearer) { headers.append(("Authorization", "Bearer " + (try args.asString(t, "--bearer")))) }
        if let m = try args.value(HTTPFlag.ifMatch) { headers.append(("If-Match", try Self.entityTag(m, flag: "--if-match"))) }
    }

    /// The entity tag `--if-match` names: an earlier response's ETag (a response value, or the
    /// record `response` makes of one), or a tag given as text (quoted as a strong tag when it
    /// is bare: `abc` is `"abc"`; `W/"…"` and `*` go as written).
    static func entityTag(_ given: Value, flag: String) throws -> String {
        switch given {
        case .response(let r):
            guard let tag = r.header("ETag") else { throw VowError.ofStage(.type, "\(flag): the response has no ETag header to match") }
            return tag
        case .record(let r):
            if case .record(let headers)? = r["headers"], let tag = headers["etag"]?.stringValue { return tag }
            throw VowError.ofStage(.type, "\(flag): the record has no headers.etag to match")
        case .string(let s):
            let t = s.trimmingCharacters(in: .whitespaces)
            guard !t.isEmpty else { throw VowError.ofStage(.type, "\(flag): an empty entity tag") }
            return t == "*" || t.hasPrefix("\"") || t.hasPrefix("W/\"") ? t : "\"" + t + "\""
        case .int, .double:
            return try entityTag(.string(JSONWriter.compact(given)), flag: flag)
        default:
            throw VowError.ofStage(.type, "\(flag) takes a response or an entity tag, got \(given.typeName)")
        }
    }

    /// `target` with the query added (and its fragment dropped, as a request never sends one).
    func withQuery(_ target: String) throws -> String {
        guard !query.isEmpty else { return target }
        var target = target
        let encoded = try formEncode(query, args: args, spaceAsPlus: false)
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        return target + (target.contains("?") ? (target.hasSuffix("?") || target.hasSuffix("&") ? "" : "&") : "?") + encoded
    }

    /// Refuses a header whose name or value holds a character that would end it: a line break
    /// or NUL from data (`--header "X-V: $v"`, `--bearer $v`) would start another header
    /// (header injection). Nothing is sent; the header is named (an Authorization value is not
    /// shown).
    func checkHeaders() throws {
        for h in headers {
            let isAuth = h.name.equalsIgnoringASCIICase("Authorization")
            if let bad = h.name.unicodeScalars.first(where: { $0.value < 0x21 || $0.value == 0x7F || $0 == ":" }) {
                throw VowError.ofStage(.type, "the header name '\(TerminalText.visibleLine(h.name))' holds \(characterName(bad)): refused before sending")
            }
            if let bad = h.value.unicodeScalars.first(where: { $0 == "\r" || $0 == "\n" || $0.value == 0 }) {
                let shown = isAuth ? "" : " ('\(TerminalText.visibleLine(String(h.value.prefix(60))))')"
                throw VowError.ofStage(
                    .type, "the value of header \(h.name)\(shown) holds \(characterName(bad)), which would end the header: refused before sending")
            }
        }
    }

    /// The request to send to `target`, with the headers vow adds when they were not given.
    func spec(to target: String) -> HTTPRequestSpec {
        var spec = HTTPRequestSpec(method: method, url: target)
        spec.stage = args.stage
        spec.headers = headers
        spec.givenHeaderCount = headers.count
        if let contentType, !spec.hasHeader("Content-Type") { spec.headers.append(("Content-Type", contentType)) }
        if wantsJSON, !spec.hasHeader("Accept") { spec.headers.append(("Accept", "application/json")) }
        if !spec.hasHeader("User-Agent") { spec.headers.append(("User-Agent", "vow/0.1")) }
        spec.body = body
        spec.upload = upload
        spec.curlForm = curlForm
        return spec
    }
}
