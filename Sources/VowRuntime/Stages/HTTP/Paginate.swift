import Foundation
import VowPromises
import VowValue
import VowHTTP

/// `paginate [URL]`: walks a paged API and fulfils with every item in order.
struct PaginateStage: ValueStage {
    static let name = "paginate"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("paginate", streamsAtOnce: false)
    static let settlement: String? = "settles when the last page has arrived (or --max-pages is reached); rejects when a page fails"
    static let group = StageGroup.http
    /// One URL: a second word (HTTPie's `name=ada`) is refused, never dropped.
    static let positionalLimit: Int? = 1
    /// `--items`, `--next` and `--cursor` are JMESPath, checked before anything runs.
    static let expressionFlags: Set<String> = ["items", "next", "cursor"]
    static let synopsis = "paginate [URL] [--items EXPR] [--next EXPR | --next-header NAME | --cursor EXPR --param NAME] [--max-pages N] …"
    static let summary = "Walks a paged API (Link headers, a next URL, or a cursor) and fulfils with every item in order."
    static let help = """
        Requests URL (or the input, as fetch does), then each next page, and fulfils with the
        items of every page in order. The next page is, by default, the `Link: <…>; rel="next"`
        header (GitHub style); with --next-header NAME it is the URL in the response header NAME
        (Kinto's `Next-Page`); with --next EXPR it is the URL that EXPR (JMESPath) picks from the
        page's JSON body; with --cursor EXPR --param NAME it is the first URL with query parameter
        NAME set to the cursor EXPR picks. In --next and --cursor, `$response` is the page's
        response: `$response.headers."next-page"` (header names in lower case), `$response.status`
        and `$response.url`. A missing, null or empty next link or cursor ends the walk. A walk
        that ends while the server says there is more is never silent: a `Total-Records`,
        `X-Total-Count` or `X-Total` header larger than the items gathered, or a `Next-Page`
        header the walk does not follow, is a warning on stderr with the counts. --items EXPR picks each page's items (default: the page itself); a list adds its
        elements, null adds nothing, any other value adds itself. Relative next URLs are resolved
        against the page's URL. The walk stays on the first page's origin (scheme, host, port)
        unless --cross-origin is given, and stops after --max-pages pages (default 100; stopping
        there while a next page exists is a warning on stderr, and the items so far) or when
        a next URL repeats one already fetched. Every HTTP flag (--header, --timeout, --auth, …)
        applies to every page; a page that fails rejects the whole walk, naming the page.
        With --rate (50/s, 120/m, 10/2s), pages are requested at most that often.
        """ + "\n" + httpHelpTail
    static let flags = httpFlags + [items.spec, next.spec, nextHeader.spec, cursor.spec, param.spec, maxPages.spec, crossOrigin.spec, rate.spec]
    /// `--rate N/s`.
    static let rate = Flag.rate(help: "request at most N pages a second (N/s, N/m, N/h, N/DURATION)")
    /// `--items EXPR`.
    static let items = Flag.text("items", value: "EXPR", help: "the items of a page, picked from its JSON body (default: the page itself)")
    /// `--next EXPR`.
    static let next = Flag.text("next", value: "EXPR", help: "the next page's URL, picked from the page's JSON body (default: the Link header)")
    /// `--next-header NAME`.
    static let nextHeader = Flag.text("next-header", value: "NAME", help: "the next page's URL is in the response header NAME (e.g. Next-Page)")
    /// `--cursor EXPR`.
    static let cursor = Flag.text("cursor", value: "EXPR", help: "a cursor picked from the page's JSON body, sent as --param NAME")
    /// `--param NAME`.
    static let param = Flag.text("param", value: "NAME", help: "the query parameter that carries the cursor")
    /// `--max-pages N`.
    static let maxPages = Flag.integer("max-pages", help: "the most pages fetched (default 100)")
    /// `--cross-origin`.
    static let crossOrigin = Flag.switch("cross-origin", help: "follow next links to another origin")
    static let examples = [
        StageExample("paginate $base/pages/1 --items items | len", "9", needsServer: true),
        StageExample("paginate $base/pages/1 --next next --items 'items[].id' | to-json", "[1,2,3,4,5,6,7,8,9]", needsServer: true),
        StageExample("paginate $base/pages --cursor cursor --param after --items 'items[].id' | to-json", "[1,2,3,4,5,6,7,8,9]", needsServer: true),
        StageExample("paginate $base/pages/1 --items 'items[].id' --max-pages 2 | to-json", "[1,2,3,4,5,6]", needsServer: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let built = try buildHTTPRequest(method: nil, input: input, args: args, environment: call.session.environment, apis: call.session.apis)
        if args[HTTPFlag.curl] { return try send(built, args, call) }  // the first page's request
        let (first, session) = try prepare(built, args, call)
        let items = try args.value(Self.items)
        let next = try args.value(Self.next)
        let cursor = try args.value(Self.cursor)
        let param = try args.value(Self.param)
        if cursor != nil, param == nil { throw call.error(.type, "--cursor needs --param NAME (the query parameter that carries it)", flag: "cursor") }
        if param != nil, cursor == nil { throw call.error(.type, "--param needs --cursor EXPR (where the cursor is in the page)", flag: "param") }
        let nextHeader = try args.value(Self.nextHeader)
        if [next != nil, cursor != nil, nextHeader != nil].filter({ $0 }).count > 1 {
            throw call.error(.type, "give one of --next, --next-header and --cursor")
        }
        let maxPages = try args.value(Self.maxPages) ?? 100
        guard maxPages >= 1 else { throw call.error(.type, "--max-pages must be at least 1", flag: "max-pages") }
        guard let origin = Origin(first.url) else { throw call.error(.type, "not a URL: \(first.url)") }
        let walk = PageWalk(
            first: first, origin: origin, crossOrigin: args[Self.crossOrigin], items: items, next: next, nextHeader: nextHeader,
            cursor: cursor.map { ($0, param!) }, maxPages: maxPages, schedule: try args.value(Self.rate).map(RateSchedule.init),
            http: call.session.http, executor: call.session.executor,
            warn: { [diagnostics = call.session.diagnostics] in diagnostics.emit("warning: " + $0 + "\n") })
        return .promise(saving(session, after: walk.start()))
    }
}

/// The origin of a URL: scheme, host and port (the scheme's default when none is written).
struct Origin: Equatable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: String) {
        guard let c = URLComponents(string: url), let scheme = c.scheme?.lowercased(), let host = c.host?.lowercased() else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = c.port ?? (scheme == "https" ? 443 : 80)
    }

    var description: String { "\(scheme)://\(host):\(port)" }
}

/// One `paginate` walk: a page at a time, each next request sent when the page before it has
/// arrived. Touched only on the session executor.
///
/// Sendable: its `var`s are touched only on `executor` (serial): `start` runs in the stage's
/// handler there, each page's callback is `whenSettled(on: executor)`, and the cancel handler hops
/// to `executor`. The other fields never change.
final class PageWalk: @unchecked Sendable {
    let first: HTTPRequestSpec
    let origin: Origin
    let crossOrigin: Bool
    let items: String?
    let next: String?
    let nextHeader: String?
    let cursor: (expression: String, param: String)?
    let maxPages: Int
    /// The pace of the requests, under `--rate`.
    let schedule: RateSchedule?
    let http: HTTPEngine
    let executor: SerialPromiseExecutor
    /// Says on stderr that the walk stopped while a next page was there.
    let warn: @Sendable (String) -> Void
    let promise: Promise<Value>
    let resolver: Resolver<Value>
    var collected: [Value] = []
    var visited: Set<String> = []
    var pages = 0
    var current: Promise<Value>?

    init(
        first: HTTPRequestSpec, origin: Origin, crossOrigin: Bool, items: String?, next: String?, nextHeader: String? = nil,
        cursor: (String, String)?, maxPages: Int, schedule: RateSchedule? = nil, http: HTTPEngine, executor: SerialPromiseExecutor,
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.schedule = schedule
        self.warn = warn
        self.first = first
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.items = items
        self.next = next
        self.nextHeader = nextHeader
        self.cursor = cursor
        self.maxPages = maxPages
        self.http = http
        self.executor = executor
        (promise, resolver) = Promise<Value>.pending(name: "paginate", on: executor)
    }

    func start() -> Promise<Value> {
        // Cancelling the walk aborts the page in flight and starts no other.
        resolver.onCancel { [self] in executor.enqueue { self.current?.cancel() } }
        fetch(first.url)
        return promise
    }

    private func fetch(_ url: String) {
        guard !resolver.isSettled else { return }
        visited.insert(url)
        pages += 1
        let page = pages
        // Under --rate, the page waits for its slot (the timer is what cancelling stops then).
        if let timer = schedule?.turn(on: executor) {
            current = timer
            timer.whenSettled(on: executor) { [self] r in
                current = nil
                if case .success = r { request(url, page: page) }
            }
            return
        }
        request(url, page: page)
    }

    /// Requests page `page`, at `url`.
    private func request(_ url: String, page: Int) {
        guard !resolver.isSettled else { return }
        var spec = first
        spec.url = url
        let p = http.perform(spec, on: executor)
        current = p
        p.whenSettled(on: executor) { [self] r in
            current = nil
            switch r {
            case .success(let response):
                do {
                    try arrived(response, page: page)
                } catch {
                    var e = toVowError(error)
                    e.message = "page \(page) (\(url)): " + e.message
                    resolver.reject(e)
                }
            case .failure(let error):
                var e = toVowError(error)
                e.message += e.message.contains(url) ? " (page \(page) of paginate)" : " (page \(page) of paginate, \(url))"
                resolver.reject(e)
            }
        }
    }

    private func arrived(_ response: Value, page: Int) throws {
        guard !resolver.isSettled else { return }
        guard case .response(let r) = response else { throw VowError(.type, "\(first.stage): not an HTTP response") }
        let body: Value
        do { body = try JSON.parse(r.body) } catch { throw VowError(.json, "not JSON: \(error)") }
        let found = try items.map { try Pick.search($0, in: body) } ?? body
        switch found {
        case .list(let l): collected += l
        case .null: break
        default: collected.append(found)
        }
        guard let target = try nextURL(r, body) else {
            if let more = moreThanGathered(r) { warn(more) }
            resolver.fulfill(.list(collected))
            return
        }
        guard let to = Origin(target) else { throw VowError(.type, "the next page's URL is not a URL: \(target)") }
        if to != origin, !crossOrigin {
            throw VowError(.type, "the next page \(target) is on another origin (\(to)) than the first (\(origin)); --cross-origin follows it")
        }
        if pages >= maxPages || visited.contains(target) {
            // Stopping while a next page is there is said, never silent: the result is not all
            // the API holds.
            warn(
                pages >= maxPages
                    ? "paginate stopped at --max-pages \(maxPages) (\(collected.count) items) while a next page was there (\(redactURL(target))); --max-pages N fetches more"
                    : "paginate stopped at page \(pages): the next page (\(redactURL(target))) is one it already fetched")
            resolver.fulfill(.list(collected))
            return
        }
        fetch(target)
    }

    /// What says, on the last page `r`, that the server holds more than was gathered: a total
    /// count header larger than the items, or a `Next-Page` header that was not followed.
    private func moreThanGathered(_ r: HTTPResponse) -> String? {
        for name in ["Total-Records", "X-Total-Count", "X-Total"] {
            if let text = r.header(name), let total = Int(text.trimmingCharacters(in: .whitespaces)), total > collected.count {
                return "paginate ended after \(pages) page\(pages == 1 ? "" : "s") with \(collected.count) items, but the server's \(name) says \(total)"
                    + (nextHeader == nil && next == nil && cursor == nil && r.header("Next-Page") != nil
                        ? "; it names the next page in a Next-Page header: --next-header Next-Page follows it" : "")
            }
        }
        if nextHeader == nil, next == nil, cursor == nil, let named = r.header("Next-Page"), !named.isEmpty {
            return "paginate ended after \(pages) page\(pages == 1 ? "" : "s") with \(collected.count) items, but the response names a next page in a Next-Page header (\(redactURL(named))): --next-header Next-Page follows it"
        }
        return nil
    }

    /// The page's response as `$response` in --next and --cursor: headers (names in lower
    /// case), status and URL.
    private func responseBinding(_ r: HTTPResponse) -> [(name: String, value: Value)] {
        var record = Record()
        record["status"] = .int(r.status)
        record["url"] = .string(r.url)
        record["headers"] = .record(r.headerRecord())
        return [("response", .record(record))]
    }

    /// `expression` searched in `body`, with `$response` bound when it reads it.
    private func search(_ expression: String, _ body: Value, _ r: HTTPResponse) throws -> Value {
        guard ExpressionVariables.names(in: expression).contains("response") else { return try Pick.search(expression, in: body) }
        return try Pick.search(ExpressionVariables.bound(expression, responseBinding(r)), in: body)
    }

    /// The next page's absolute URL, or nil at the end.
    private func nextURL(_ r: HTTPResponse, _ body: Value) throws -> String? {
        let written: String?
        if let cursor {
            let c = try search(cursor.expression, body, r)
            let text: String
            switch c {
            case .null: return nil
            case .string(let s): text = s
            case .int, .double: text = JSONWriter.compact(c)
            default: throw VowError(.type, "the cursor must be text or a number, got \(c.typeName)")
            }
            if text.isEmpty { return nil }
            guard var u = URLComponents(string: first.url) else { return nil }
            var query = (u.queryItems ?? []).filter { $0.name != cursor.param }
            query.append(URLQueryItem(name: cursor.param, value: text))
            u.queryItems = query
            // `+` is a space to most servers: keep it literal in a cursor.
            u.percentEncodedQuery = u.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
            return u.string
        } else if let next {
            switch try search(next, body, r) {
            case .null: return nil
            case .string(let s): written = s
            case let other: throw VowError(.type, "--next must pick a URL (text), got \(other.typeName)")
            }
        } else if let nextHeader {
            written = r.header(nextHeader)?.trimmingCharacters(in: .whitespaces)
        } else {
            written = LinkHeader.target(rel: "next", in: r.headers)
        }
        guard let written, !written.isEmpty else { return nil }
        guard let resolved = URL(string: written, relativeTo: URL(string: r.url))?.absoluteString else {
            throw VowError(.type, "the next page's URL is not a URL: \(written)")
        }
        return resolved
    }
}
