import Foundation
import VowValue

/// One HTTP request, as the stages describe it.
public struct HTTPRequestSpec: Sendable {
    /// GET, POST, …
    public var method: String
    /// The absolute URL, query included.
    public var url: String
    /// Request headers in order.
    public var headers: [(name: String, value: String)] = []
    /// The body, if any.
    public var body: [UInt8]?
    /// `--body @PATH`: a file streamed as the body (instead of `body`).
    public var upload: FileUpload?
    /// Seconds for the whole request, body included.
    public var timeout: Double = 30
    /// Follow redirects.
    public var follow = true
    /// The most redirects followed before giving up.
    public var maxRedirects = 10
    /// The largest body read; a larger one rejects without reading the rest.
    public var maxSize = 64 << 20
    /// With `--output`, the most bytes a content-coded body is decoded to (`--max-size` when
    /// given, else 64 MiB; an uncoded body has only `maxSize`).
    public var maxDecodedSize = 64 << 20
    /// Fulfil on 4xx/5xx instead of rejecting.
    public var allowErrors = false
    /// Skip TLS certificate verification.
    public var insecure = false
    /// `--cacert FILE` (or `VOW_CA_BUNDLE`): certificate authorities trusted besides the system's.
    public var caFile: String?
    /// The stage that made the request, for messages.
    public var stage = "fetch"
    /// How many of `headers`, from the start, the user gave (`--header`, `--auth`, `--bearer`,
    /// a request record); the rest vow added.
    public var givenHeaderCount = 0
    /// How many of `headers`, from the start, belong to the request's `--session` (kept in it,
    /// or given now and kept for this origin): a redirect to another origin drops them.
    public var sessionHeaderCount = 0
    /// The cookie jar of the request's session: its cookies are sent, and the cookies every
    /// response sets (redirects included) are stored in it.
    public var cookies: CookieJar?
    /// The proxy the request goes through (nil: direct).
    public var proxy: ProxyChoice?
    /// `--no-proxy` was given: direct, whatever the environment says.
    public var noProxy = false
    /// `--verbose`: where each hop's request and response heads go, secrets masked.
    public var verbose: (@Sendable (String) -> Void)?
    /// `--multipart`'s fields as curl's form options write them, for `--curl`: `-F name=@PATH` for
    /// a file, `--form-string name=value` for text (nil when the body is not multipart).
    public var curlForm: [(option: String, value: String)]?
    /// `--output FILE`: the body goes to the file instead of into the response value.
    public var download: Download?

    /// Makes a request description.
    public init(method: String, url: String) {
        self.method = method
        self.url = url
    }

    /// True when a header of that name is set (case-insensitive).
    public func hasHeader(_ name: String) -> Bool {
        headers.contains { $0.name.equalsIgnoringASCIICase(name) }
    }
}
