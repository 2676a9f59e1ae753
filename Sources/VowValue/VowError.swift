import Synchronization
/// An error in vow: what went wrong (its kind and message), the details a handler may need
/// (status, body, reason…), and where it happened (the stage, its place in the statement, the
/// input it received, the stages the rejection skipped).
///
/// In a `catch` handler, `$_` is `record`: `{kind, message, stage, status?, body?, …}`.
public struct VowError: Error, Sendable, CustomStringConvertible {
    /// The kinds of error, as docs/language.md lists them.
    public enum Kind: String, Sendable, CaseIterable {
        /// A program that does not parse, or names an unknown stage or flag.
        case syntax
        /// An HTTP response with status 4xx or 5xx.
        case http
        /// Connection refused, reset, DNS, TLS and protocol failures.
        case network
        /// A time limit expired.
        case timeout
        /// The work was cancelled (Ctrl-C, `cancel %N`, a sibling no longer needed).
        case cancelled
        /// Invalid JSON.
        case json
        /// A JMESPath error in `pick`.
        case pick
        /// Files, standard input, the environment.
        case io
        /// A subprocess failed.
        case process
        /// Raised by `reject` / `fail`.
        case user
        /// Every input of `any` rejected.
        case aggregate
        /// A stage got an input or argument of a type it cannot use.
        case type
        /// A `def` nested past the limit (one that calls itself without end).
        case recursion
        /// An `assert` whose condition did not hold.
        case assert
        /// `exit`: the script ends (not an error; `catch` lets it pass).
        case exit
    }

    /// What kind of error this is.
    public var kind: Kind
    /// A one-line message naming the culprit.
    public var message: String
    /// Extra fields for handlers: `status`, `headers`, `body`, `reason`, `errors`, `stderr`…
    public var details: Record
    /// Where it happened; filled in by the runtime when the error is born.
    public var origin: Origin?
    /// The stages the rejection skipped, in order (filled in when the statement ends).
    public var skipped: [String]
    /// Where in a larger run the error happened, said before it has an origin (`element 2 of
    /// each`): added to the origin's context when it gets one, never to the message.
    public var pendingContext: [String] = []
    /// Which error this is: copies of one error (one rejection passed down a chain) share it;
    /// two errors made apart never do, however alike they read. Error provenance goes by it.
    public let identity: UInt64 = VowError.nextIdentity()
    /// The error this one was made from, when it came from outside vow's errors (a
    /// cancellation, a JSON or JMESPath error, the evaluator's own conditions), so that what it
    /// was can be asked by its type after it has become a `VowError`.
    public var underlying: (any Error)?
    /// True for an error raised by code that does not know which stage called it (the HTTP
    /// layer, a helper shared by stages): the stage it surfaces from puts its name before the
    /// message (`StageCall.namingErrors`), so no lower layer names a stage.
    public var awaitsStageName = false
    /// Where in the source (byte offsets) the argument or flag value at fault is written, when a
    /// stage knows: the report underlines it within the stage (`Origin.argument`).
    public var culprit: Range<Int>?

    private static let identities = Atomic<UInt64>(0)
    private static func nextIdentity() -> UInt64 { identities.wrappingAdd(1, ordering: .relaxed).newValue }

    /// Where an error was born.
    public struct Origin: Sendable {
        /// The stage's name, e.g. `fetch`.
        public var stage: String
        /// The text of the statement the stage is in (the line(s) to show).
        public var statement: String
        /// The stage's place in `statement`, as UTF-8 offsets (start inclusive, end exclusive).
        public var range: Range<Int>
        /// The source name and 1-based line of the statement's first line, e.g. `script.vow`, 3.
        public var sourceName: String
        /// The line of the statement's start in the source.
        public var line: Int
        /// The input the stage received, if any.
        public var input: Value?
        /// Where in a larger run: `element 2 of each`, `job %3`, `stage greet (def)`…
        public var context: [String]
        /// The place in `statement` of the stage's argument at fault (`VowError.culprit`), inside
        /// `range`; nil when the error is about the stage as a whole.
        public var argument: Range<Int>?

        /// Makes an origin.
        public init(
            stage: String, statement: String, range: Range<Int>, sourceName: String, line: Int,
            input: Value?, context: [String] = []
        ) {
            self.stage = stage
            self.statement = statement
            self.range = range
            self.sourceName = sourceName
            self.line = line
            self.input = input
            self.context = context
        }
    }

    /// Makes an error of `kind` with `message` and optional details.
    public init(_ kind: Kind, _ message: String, details: Record = Record()) {
        self.kind = kind
        self.message = message
        self.details = details
        self.origin = nil
        self.skipped = []
    }

    /// An error of a stage's own, raised where the stage is not known: the stage it surfaces
    /// from prefixes its name (`awaitsStageName`).
    public static func ofStage(_ kind: Kind, _ message: String, details: Record = Record()) -> VowError {
        var e = VowError(kind, message, details: details)
        e.awaitsStageName = true
        return e
    }

    /// For an error raised again from its record (`catch (… (reject $_))`): the stage that
    /// raised it first and its text (the record's `stage` and `at`), or nil.
    public var raisedFirst: (stage: String, at: String)? {
        guard let stage = details["stage"]?.stringValue, let at = details["at"]?.stringValue else { return nil }
        return (stage, at)
    }

    /// `kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }

    /// The error as a record, as `$_` sees it in a `catch` handler and as `--json` prints it:
    /// `{kind, message, stage?, …details, input?, skipped?}`.
    public var record: Record {
        var r = Record()
        r["kind"] = .string(kind.rawValue)
        r["message"] = .string(message)
        if let origin {
            let at = Value.string(
                VowError.redactingSecrets(
                    String(decoding: Array(origin.statement.utf8)[clamped(origin.range, origin.statement.utf8.count)], as: UTF8.self)))
            if let first = raisedFirst {
                // Raised again (`reject $_`): the stage that raised it first is its stage.
                r["stage"] = .string(first.stage)
                r["at"] = .string(first.at)
                r["raisedAgainAt"] = at
            } else {
                r["stage"] = .string(origin.stage)
                r["at"] = at
            }
        }
        for (i, k) in details.keys.enumerated() where r[k] == nil {
            r[k] = details.values[i]
        }
        if let input = origin?.input { r["input"] = input }
        if let context = origin?.context, !context.isEmpty { r["context"] = .list(context.map { .string($0) }) }
        if !skipped.isEmpty { r["skipped"] = .list(skipped.map { .string(VowError.redactingSecrets($0)) }) }
        return r
    }
}

private func clamped(_ r: Range<Int>, _ count: Int) -> Range<Int> {
    let lo = max(0, min(r.lowerBound, count))
    let hi = max(lo, min(r.upperBound, count))
    return lo..<hi
}

extension VowError {
    /// `source` with secrets masked, character for character (so that carets still line up):
    /// the values of `--bearer`, `--auth`, Authorization/Cookie headers, and URL passwords.
    public static func redactingSecrets(_ source: String) -> String {
        // Each pattern is tried only on text that holds a word it needs (ASCII case folded):
        // most statements hold none, and the patterns' matching is slow on a long statement.
        let folded = source.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        var out = source
        let patterns: [(needs: [String], pattern: Regex<(Substring, Substring, Substring)>)] = [
            (["--bearer"], #/(?i)(--bearer\s+["']?)([^\s"']+)/#),
            (["--auth"], #/(?i)(--auth\s+["']?)([^\s"']+)/#),
            (["authorization", "cookie"], #/(?i)((?:proxy-authorization|authorization|cookie)\s*:\s*)([^"'\n]+)/#),
            (["://"], #/(://[^/\s:@]+:)([^@\s/]+)(?=@)/#),
        ]
        for (needs, p) in patterns where needs.contains(where: { Self.contains(folded, Array($0.utf8)) }) {
            out = out.replacing(p) { m in m.output.1 + String(repeating: "*", count: m.output.2.count) }
        }
        return out
    }

    /// True when `needle` occurs in `haystack`.
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = 0
        while i + needle.count <= haystack.count {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
