import Foundation
import VowPromises
import VowValue
import VowHTTP

/// What an HTTP stage does with its request: sends it, or, with `--curl`, fulfils with the
/// equivalent curl command and sends nothing.
func send(_ given: HTTPRequestSpec, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
    let (spec, session) = try prepare(given, args, call)
    if args[HTTPFlag.curl] { return .value(.string(try CurlCommand.make(spec))) }
    if let stream = try args.value(HTTPFlag.stream) {
        guard spec.download == nil else { throw VowError.ofStage(.type, "--stream and --output: one at a time") }
        let reading = stream.stringValue.flatMap(StreamReading.init(rawValue:)) ?? .auto
        return .promise(saving(session, after: call.session.http.stream(spec, reading: reading, on: call.session.executor)))
    }
    if spec.download == nil, !args[HTTPFlag.noCache], let cache = call.session.httpCache, HTTPCache.applies(to: spec) {
        return .promise(saving(session, after: seen(cached(spec, cache, call), spec, call)))
    }
    let sent = call.session.http.perform(spec, on: call.session.executor)
    // An unsafe request that did not fail makes what the cache holds for its target stale.
    if let cache = call.session.httpCache, !HTTPCache.applies(to: spec) {
        return .promise(saving(session, after: sent.transformedAtOnce { r in
            if case .success(.response(let response)) = r { cache.invalidate(after: spec, response) }
            return r
        }))
    }
    return .promise(saving(session, after: spec.method == "GET" ? seen(sent, spec, call) : sent))
}

/// `promise` (a GET's), whose response's identifiers the session notes for completion when it
/// records them (`SeenIdentifiers`), in the instant it arrives.
func seen(_ promise: Promise<Value>, _ spec: HTTPRequestSpec, _ call: StageCall) -> Promise<Value> {
    let ids = call.session.seenIdentifiers
    guard ids.recording else { return promise }
    return promise.transformedAtOnce { r in
        if case .success(.response(let response)) = r { ids.record(url: spec.url, response: response) }
        return r
    }
}

/// `spec` through the HTTP cache: a fresh entry served as a task of its own (no request), a
/// stale one revalidated (a 304 serves it), anything else sent and kept when the rules allow.
/// The response says which (`cache`: hit, revalidated, miss); `--verbose` says it too.
func cached(_ given: HTTPRequestSpec, _ cache: HTTPCache, _ call: StageCall) -> Promise<Value> {
    var spec = given
    let ex = call.session.executor
    let lookup = cache.lookup(spec)
    if case .fresh(let response, let age, let lifetime) = lookup {
        spec.verbose?("* cache: hit, \(Int(age)) s old, fresh for \(Int(lifetime - age)) s more: \(spec.url)\n")
        let (p, resolver) = Promise<Value>.pending(name: "http", on: ex)
        // As an answer from the network would: in a task, not in this turn.
        ex.enqueueTask { resolver.fulfill(.response(response)) }
        return p
    }
    var stale: HTTPCache.Entry?
    if case .stale(let entry, let conditions) = lookup {
        stale = entry
        spec.headers += conditions
        spec.verbose?("* cache: stale, revalidating with \(conditions.map(\.name).joined(separator: " and "))\n")
    }
    let requestTime = Date().timeIntervalSince1970
    let (sent, revalidating, verbose) = (spec, stale, spec.verbose)
    return call.session.http.perform(sent, on: ex).transformedAtOnce { r in
        guard case .success(.response(let response)) = r else { return r }
        let responseTime = Date().timeIntervalSince1970
        if response.status == 304, let stale = revalidating {
            verbose?("* cache: revalidated (304): the stored body is served\n")
            return .success(.response(cache.refresh(stale, with: response, requestTime: requestTime, responseTime: responseTime)))
        }
        let kept = cache.store(given, response, requestTime: requestTime, responseTime: responseTime)
        if kept { verbose?("* cache: kept\n") }
        return .success(.response(response.cached("miss")))
    }
}

/// `spec` ready to send: `--verbose` pointed at the session's diagnostics, and `--session` (or
/// `--session-read-only`) applied: the session's headers for the URL's origin (every origin's
/// with `--session-all-origins`) go first unless given again now (by name), its cookies go with
/// the request (for `--curl`, as a Cookie header), and the headers given now are kept in it for
/// this origin. A redirect to another origin drops the session's headers. Returns the session
/// to save afterwards (nil when there is none, or it is read-only).
func prepare(_ given: HTTPRequestSpec, _ args: StageArguments, _ call: StageCall) throws -> (HTTPRequestSpec, HTTPSession?) {
    var spec = given
    if case .string(let text)? = try args.value(HTTPFlag.json), let json = Pick.jsonText(text) {
        call.session.diagnostics.emit("warning: \(jsonTextWarning(args.stage, json))\n")
    }
    if args[HTTPFlag.verbose] {
        let diagnostics = call.session.diagnostics
        spec.verbose = { diagnostics.emit($0) }
    }
    let writable = try args.value(HTTPFlag.session)
    let readOnly = try args.value(HTTPFlag.sessionReadOnly)
    if writable != nil, readOnly != nil { throw VowError.ofStage(.type, "give --session or --session-read-only, not both") }
    guard let name = writable ?? readOnly else { return (spec, nil) }
    let s = try call.session.httpSessions.session(name)
    // An API's headers (`api add`) come first; the session keeps only the ones given now.
    let apiCount = spec.sessionHeaderCount
    let mine = Array(spec.headers.prefix(spec.givenHeaderCount).dropFirst(apiCount))
    guard let origin = HTTPSession.origin(of: spec.url) else {
        throw VowError.ofStage(.type, "invalid URL '\(spec.url)' (expected http:// or https://)")
    }
    let stored = s.headers(for: origin, allOrigins: args[HTTPFlag.sessionAllOrigins])
        .filter { h in !mine.contains { $0.name.equalsIgnoringASCIICase(h.name) } }
    spec.headers.insert(contentsOf: stored, at: 0)
    spec.givenHeaderCount += stored.count
    spec.sessionHeaderCount = apiCount + stored.count + (writable != nil ? mine.count : 0)
    spec.cookies = s.jar
    if args[HTTPFlag.curl], let cookie = s.jar.header(for: spec.url) { spec.headers.append(("Cookie", cookie)) }
    guard writable != nil else { return (spec, nil) }
    if !args[HTTPFlag.curl] { s.remember(mine, for: origin) }
    return (spec, s)
}

/// What `--json` given quoted JSON text (`--json '{"name":"ada"}'`) is warned of: the text is
/// sent as one JSON string (encoded twice), and the object or list is written unquoted.
func jsonTextWarning(_ stage: String, _ json: Value) -> String {
    let kind: String
    if case .list = json { kind = "list" } else { kind = "object" }
    return "\(stage): --json was given text that holds a JSON \(kind), and sends it as one JSON string; to send the \(kind), write it unquoted: --json \(JSONWriter.compact(json))"
}

/// `promise`, after which `session` (if any) is saved, in the instant the outcome arrives (no
/// turn): cookies that came with a 4xx count too. A session that cannot be saved rejects.
func saving(_ session: HTTPSession?, after promise: Promise<Value>) -> Promise<Value> {
    guard let session else { return promise }
    return promise.transformedAtOnce { r in
        do {
            try session.save()
            return r
        } catch {
            return .failure(error)
        }
    }
}

let httpHelpTail = """
    The response is a value {status, statusText, url, headers, elapsed, body}: `json` and `text`
    read its body, `pick` searches its JSON body, `status` and `headers` read the rest. A 4xx/5xx
    response rejects with kind http, keeping status, headers and body (parsed when JSON) for a
    `catch`; refused, reset, DNS and TLS failures reject with kind network naming host and port;
    `--timeout` expiry rejects with kind timeout. Cancelling (Ctrl-C, `cancel %N`, `timeout`, a
    sibling in all/race/any) aborts the request. A URL without a scheme gets http://.
    """

/// Builds a request from a stage's input and arguments.
/// `environment` is the session's (proxies, `VOW_CA_BUNDLE`), read once when the session began.
/// `url`, when given, is the URL, and the positional arguments are not read (`op`).
func buildHTTPRequest(
    method fixed: String?, input: Value, args: StageArguments, environment: [String: String], apis: APIProfiles? = nil, url: String? = nil
) throws -> HTTPRequestSpec {
    var draft = RequestDraft(method: fixed ?? "GET", args: args)
    // The input describes the request when it is a record; it is the URL when it is text and no
    // URL argument is given (fetch only).
    if fixed == nil, case .record(let r) = input, args.count == 0 { try draft.read(record: r) }
    if let url {
        draft.url = url
    } else if args.count > 0 {
        draft.url = try args.string(0, "URL")
    } else if draft.url == nil {
        guard case .string(let s) = input, fixed == nil else {
            throw VowError.ofStage(.type, "missing URL (e.g. \(args.stage) https://example.com)")
        }
        draft.url = s
    }
    guard var target = draft.url.map(trimmedURL), !target.isEmpty else { throw VowError.ofStage(.type, "empty URL") }
    // `NAME/PATH`: an API declared by name (`api add`), its base and its headers.
    var api: APIProfile? = nil
    if !hasScheme(target), let found = apis?.resolve(target) {
        (api, target) = (found.profile, found.url)
    }
    if !hasScheme(target) { target = "http://" + target }
    try draft.readFlags()
    target = try draft.withQuery(target)
    try draft.checkHeaders()
    var spec = draft.spec(to: target)
    if let api {
        // The API's headers first, unless given now; like a session's, they belong to its
        // origin, and a redirect elsewhere drops them.
        let own = api.headers.filter { h in !draft.headers.contains { $0.name.equalsIgnoringASCIICase(h.name) } }
        spec.headers.insert(contentsOf: own.map { ($0.name, $0.value) }, at: 0)
        spec.givenHeaderCount += own.count
        spec.sessionHeaderCount += own.count
    }
    try applyTransferFlags(&spec, args: args, environment: environment)
    return spec
}

/// The flags of how a request travels: its time limit, redirects, size limit, download file,
/// proxy and TLS.
func applyTransferFlags(_ spec: inout HTTPRequestSpec, args: StageArguments, environment: [String: String]) throws {
    if let t = try args.value(HTTPFlag.timeout) {
        spec.timeout = try args.seconds(t, "--timeout")
        guard spec.timeout > 0 else { throw VowError.ofStage(.type, "--timeout must be more than 0") }
    }
    spec.follow = !args[HTTPFlag.noFollow]
    if let n = try args.value(HTTPFlag.maxRedirects) {
        spec.maxRedirects = try args.integer(n, "--max-redirects")
        guard spec.maxRedirects >= 0 else { throw VowError.ofStage(.type, "--max-redirects must be 0 or more") }
    }
    if let m = try args.value(HTTPFlag.maxSize) { spec.maxSize = try byteCount(m, args: args) }
    if let o = try args.value(HTTPFlag.output) {
        let path = (try args.asString(o, "--output") as NSString).expandingTildeInPath
        guard !path.isEmpty else { throw VowError.ofStage(.type, "--output needs a file name") }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw VowError.ofStage(.type, "--output \(path) is a directory")
        }
        // A file on disk has no 64 MiB cap: only a --max-size given limits it.
        if !args.given(HTTPFlag.maxSize) { spec.maxSize = .max } else { spec.maxDecodedSize = spec.maxSize }
        spec.download = Download(path: path, resume: args[HTTPFlag.`continue`], progress: true)
    } else if args[HTTPFlag.`continue`] {
        throw VowError.ofStage(.type, "--continue resumes a download: give --output FILE too")
    }
    spec.proxy = try ProxyChoice.choose(
        for: spec.url, flag: try args.value(HTTPFlag.proxy), direct: args[HTTPFlag.noProxy],
        environment: environment)
    spec.noProxy = args[HTTPFlag.noProxy]
    spec.allowErrors = args[HTTPFlag.allowErrors]
    spec.insecure = args[HTTPFlag.insecure]
    if let c = try args.value(HTTPFlag.cacert) {
        let path = (try args.asString(c, "--cacert") as NSString).expandingTildeInPath
        guard FileManager.default.isReadableFile(atPath: path) else { throw VowError.ofStage(.io, "--cacert: cannot read \(path)") }
        spec.caFile = path
    } else if let bundle = environment["VOW_CA_BUNDLE"], !bundle.isEmpty {
        spec.caFile = (bundle as NSString).expandingTildeInPath
    }
}

/// `10MB`, `64MiB`, `1024`: a byte count.
func byteCount(_ v: Value, args: StageArguments) throws -> Int {
    if let i = v.intValue, i >= 0 { return i }
    if case .string(let s) = v {
        let units: [(String, Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("B", 1)]
        for (u, f) in units where s.hasSuffix(u) {
            if let n = Double(s.dropLast(u.count)), n >= 0 { return Int(n * Double(f)) }
        }
        if let n = Int(s), n >= 0 { return n }
    }
    throw VowError.ofStage(.type, "--max-size must be a byte count like 1048576 or 10MB, got \(JSONWriter.compact(v))")
}

/// Percent-encodes pairs (RFC 3986 unreserved characters kept); lists repeat the key, null omits it.
func formEncode(_ pairs: [(String, Value)], args: StageArguments, spaceAsPlus: Bool = true) throws -> String {
    func enc(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            case UInt8(ascii: " ") where spaceAsPlus: out += "+"
            default: out += String(format: "%%%02X", b)
            }
        }
        return out
    }
    var parts: [String] = []
    for (k, v) in pairs {
        let values: [Value] = v.listValue ?? [v]
        for item in values where !item.isNull {
            parts.append(enc(k) + "=" + enc(try args.asString(item, "value of '\(k)'")))
        }
    }
    return parts.joined(separator: "&")
}

/// `url` without the spaces and line breaks around it (most URLs have none: then the string itself).
func trimmedURL(_ url: String) -> String {
    func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C }
    let bytes = url.utf8
    guard let first = bytes.first, let last = bytes.last, isSpace(first) || isSpace(last) else { return url }
    return url.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Whether `url` names its scheme (`…://`).
func hasScheme(_ url: String) -> Bool {
    // A scheme is a letter, then letters, digits, + - or ., then `://`, at the very start: a
    // `://` later (`host/path?next=http://x`) is not one.
    var bytes = url.utf8.makeIterator()
    guard let first = bytes.next(), (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) else { return false }
    while let c = bytes.next() {
        if c == 0x3A { return bytes.next() == 0x2F && bytes.next() == 0x2F }
        let isSchemeByte = (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x2B || c == 0x2D || c == 0x2E
        if !isSchemeByte { return false }
    }
    return false
}

/// A character as an error names it: `a carriage return (\r)`, `a line feed (\n)`, `NUL`, or
/// its code point.
func characterName(_ c: Unicode.Scalar) -> String {
    switch c {
    case "\r": return "a carriage return (\\r)"
    case "\n": return "a line feed (\\n)"
    case "\0": return "a NUL byte"
    case " ": return "a space"
    case ":": return "a colon"
    default: return String(format: "the character U+%04X", c.value)
    }
}
