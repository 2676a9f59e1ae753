import VowValue

/// The flags every HTTP stage takes, each declared once with its type (`Flag`).
enum HTTPFlag {
    /// `--header`.
    static let header = Flag.value("header", value: "K:V", repeatable: true, help: "a request header (`--header \"X-Trace: 1\"`, or a record of headers)")
    /// `--query`.
    static let query = Flag.value("query", value: "{…}", help: "query parameters, merged into the URL and percent-encoded")
    /// `--json`.
    static let json = Flag.value("json", value: "VALUE", help: "a JSON body; sets Content-Type and Accept to application/json; @PATH sends the JSON in that file")
    /// `--form`.
    static let form = Flag.value("form", value: "{…}", help: "an application/x-www-form-urlencoded body")
    /// `--body`.
    static let body = Flag.value("body", value: "TEXT", help: "a raw body (text or bytes); @PATH sends that file")
    /// `--multipart`.
    static let multipart = Flag.value("multipart", value: "{…}", help: "a multipart/form-data body: {field: value, doc: @PATH} (@ marks a file, as curl -F)")
    /// `--auth`.
    static let auth = Flag.value("auth", value: "USER:PASS", help: "HTTP basic authentication")
    /// `--bearer`.
    static let bearer = Flag.value("bearer", value: "TOKEN", help: "an `Authorization: Bearer` token")
    /// `--timeout`.
    static let timeout = Flag.value("timeout", value: "D", help: "limit for the whole request, body included (default 30s)")
    /// `--no-follow`.
    static let noFollow = Flag.switch("no-follow", help: "do not follow redirects: fulfil with the 3xx response")
    /// `--max-redirects`.
    static let maxRedirects = Flag.value("max-redirects", value: "N", help: "the most redirects followed (default 10)")
    /// `--max-size`.
    static let maxSize = Flag.value("max-size", value: "BYTES", help: "the largest body read, e.g. 1048576 or 10MB (default 64MiB)")
    /// `--allow-errors`.
    static let allowErrors = Flag.switch("allow-errors", help: "fulfil with 4xx/5xx responses instead of rejecting")
    /// `--insecure`.
    static let insecure = Flag.switch("insecure", help: "do not verify TLS certificates")
    /// `--cacert`.
    static let cacert = Flag.value("cacert", value: "FILE", help: "also trust the certificate authorities in FILE (PEM); VOW_CA_BUNDLE does it for a whole run")
    /// `--session`.
    static let session = Flag.text("session", value: "NAME", help: "keep cookies, and the headers given with it, in session NAME across runs (~/.config/vow/sessions)")
    /// `--session-read-only`.
    static let sessionReadOnly = Flag.text("session-read-only", value: "NAME", help: "use session NAME's cookies and headers without updating it")
    /// `--session-all-origins`.
    static let sessionAllOrigins = Flag.switch("session-all-origins", help: "send the session's headers given for other origins too (they go only to their own origin otherwise)")
    /// `--output`.
    static let output = Flag.value("output", value: "FILE", help: "stream the body to FILE (via FILE.part, renamed when complete); fulfils with {path, bytes, status, url, headers}")
    /// `--continue`.
    static let `continue` = Flag.switch("continue", help: "with --output: resume FILE.part (or a partial FILE) with a Range request")
    /// `--verbose`.
    static let verbose = Flag.switch("verbose", help: "show each hop's request and response heads on stderr, with timings; secrets masked")
    /// `--proxy`.
    static let proxy = Flag.text("proxy", value: "URL", help: "send through this proxy (http://, socks5://; https:// targets through CONNECT)")
    /// `--no-proxy`.
    static let noProxy = Flag.switch("no-proxy", help: "go direct, whatever http_proxy, https_proxy and all_proxy say")
    /// `--curl`.
    static let curl = Flag.switch("curl", help: "send nothing: fulfil with the curl command that sends the same request (secrets included)")
    /// `--if-match`.
    static let ifMatch = Flag.value("if-match", value: "RESPONSE|ETAG", help: "send If-Match with an earlier response's ETag (or this ETag): the write happens only if the resource has not changed since; a 412 says it did")
    /// `--no-cache`.
    static let noCache = Flag.switch("no-cache", help: "neither read nor keep this request's response in the HTTP cache (VOW_HTTP_CACHE=off turns the cache off)")
    /// `--stream`.
    static let stream = Flag.value("stream", choices: ["sse", "lines", "text"], help: "a stream of the body as it arrives: server-sent events, NDJSON values or text lines, by Content-Type, or as named: --stream sse, --stream lines (a JSON value a line), --stream text (text lines)")
}

/// The flags every HTTP stage takes, as the stages list them.
let httpFlags: [FlagSpec] = [
    HTTPFlag.header.spec, HTTPFlag.query.spec, HTTPFlag.json.spec, HTTPFlag.form.spec, HTTPFlag.body.spec,
    HTTPFlag.multipart.spec, HTTPFlag.auth.spec, HTTPFlag.bearer.spec, HTTPFlag.timeout.spec,
    HTTPFlag.noFollow.spec, HTTPFlag.maxRedirects.spec, HTTPFlag.maxSize.spec, HTTPFlag.allowErrors.spec,
    HTTPFlag.insecure.spec, HTTPFlag.cacert.spec, HTTPFlag.session.spec, HTTPFlag.sessionReadOnly.spec,
    HTTPFlag.sessionAllOrigins.spec, HTTPFlag.output.spec, HTTPFlag.`continue`.spec, HTTPFlag.verbose.spec,
    HTTPFlag.proxy.spec, HTTPFlag.noProxy.spec, HTTPFlag.curl.spec, HTTPFlag.stream.spec, HTTPFlag.noCache.spec, HTTPFlag.ifMatch.spec,
]
