/// An ordered record: string keys kept in insertion order, as JSON objects arrive.
///
/// Small records (the common case) are searched linearly, which beats hashing below a dozen keys;
/// larger ones build a hash index on insertion. Setting an existing key replaces its value in
/// place (so a JSON object with a duplicate key keeps the last value, at the first position).
public struct Record: Sendable, Equatable {
    /// The keys, in order.
    public private(set) var keys: [String] = []
    /// The values, parallel to `keys`.
    public private(set) var values: [Value] = []
    private var index: [String: Int]? = nil

    private static let indexThreshold = 12

    /// An empty record.
    public init() {}

    /// A record with room for `capacity` entries.
    public init(minimumCapacity capacity: Int) {
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// A record of the members a reader read, in order (`JSONReader`): the arrays are kept as
    /// they are, with the room they have. A key read twice keeps its last value in its first
    /// place, as setting it again does.
    init(read keys: [String], _ values: [Value]) {
        if keys.count <= Record.indexThreshold {
            if keys.count > 1, (1..<keys.count).contains(where: { keys[..<$0].contains(keys[$0]) }) {
                for (k, v) in zip(keys, values) { self[k] = v }
                return
            }
            self.keys = keys
            self.values = values
            return
        }
        var d = [String: Int](minimumCapacity: keys.count)
        for (i, k) in keys.enumerated() where d.updateValue(i, forKey: k) != nil {
            for (k, v) in zip(keys, values) { self[k] = v }
            return
        }
        self.keys = keys
        self.values = values
        self.index = d
    }

    /// A record from key/value pairs; a repeated key keeps its last value.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, Value) {
        for (k, v) in pairs { self[k] = v }
    }

    /// The number of entries.
    public var count: Int { keys.count }
    /// True when there are no entries.
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key`, or nil.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    /// The value for `key`; setting nil removes the key.
    public subscript(key: String) -> Value? {
        get {
            guard let i = position(of: key) else { return nil }
            return values[i]
        }
        set {
            if let i = position(of: key) {
                if let newValue {
                    values[i] = newValue
                } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                    if index != nil { rebuildIndex() }
                }
            } else if let newValue {
                append(key, newValue)
            }
        }
    }

    /// Appends without checking for an existing key. Only for callers that know the key is new.
    public mutating func appendUnchecked(_ key: String, _ value: Value) {
        append(key, value)
    }

    private mutating func append(_ key: String, _ value: Value) {
        keys.append(key)
        values.append(value)
        if index != nil {
            index![key] = keys.count - 1
        } else if keys.count > Record.indexThreshold {
            rebuildIndex()
        }
    }

    private mutating func rebuildIndex() {
        var d = [String: Int](minimumCapacity: keys.count)
        for (i, k) in keys.enumerated() { d[k] = i }
        index = d
    }

    /// The entries in order.
    public var entries: [(key: String, value: Value)] {
        Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
    }

    /// Records are equal when they hold the same keys with equal values, in any order.
    public static func == (lhs: Record, rhs: Record) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (i, k) in lhs.keys.enumerated() {
            guard let v = rhs[k], v == lhs.values[i] else { return false }
        }
        return true
    }

    /// This record with `key` set to `value`.
    public func adding(_ key: String, _ value: Value) -> Record {
        var copy = self
        copy[key] = value
        return copy
    }
}

/// An HTTP response as a value: `fetch` fulfils with one.
///
/// `json` and `text` read its body; `pick`, `status` and `headers` work on it directly.
public final class HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    public let status: Int
    /// The reason phrase, e.g. `OK`.
    public let statusText: String
    /// The final URL, after redirects.
    public let url: String
    /// The method of the request, e.g. `GET`.
    public let method: String
    /// Response headers in the order received (names as sent).
    public let headers: [(name: String, value: String)]
    /// Seconds from sending the request to the end of the body.
    public let elapsed: Double
    /// The body, already decompressed.
    public let body: [UInt8]
    /// The protocol the response came in: `HTTP/1.1`, `HTTP/2`.
    public let version: String
    /// Seconds from sending the request to its response head (time to first byte), when known.
    public let firstByte: Double?
    /// How the HTTP cache gave it (`hit`, `revalidated`, `miss`), when the cache took part.
    public let cache: String?

    /// Makes a response value.
    public init(
        status: Int, statusText: String, url: String, method: String,
        headers: [(name: String, value: String)], elapsed: Double, body: [UInt8], version: String = "HTTP/1.1",
        firstByte: Double? = nil, cache: String? = nil
    ) {
        self.cache = cache
        self.version = version
        self.firstByte = firstByte
        self.status = status
        self.statusText = statusText
        self.url = url
        self.method = method
        self.headers = headers
        self.elapsed = elapsed
        self.body = body
    }

    /// The headers as a record with lower-case names, repeated headers joined with ", "; the
    /// values of the names (lower-case) for which `redacting` is true are replaced by `<redacted>`.
    public func headerRecord(redacting: (String) -> Bool = { _ in false }) -> Record {
        var record = Record()
        for h in headers {
            let k = h.name.lowercased()
            if redacting(k) {
                record[k] = "<redacted>"
            } else if case .string(let old)? = record[k] {
                record[k] = .string(old + ", " + h.value)
            } else {
                record[k] = .string(h.value)
            }
        }
        return record
    }

    /// This response, said to have come from the HTTP cache as `how`.
    public func cached(_ how: String) -> HTTPResponse {
        HTTPResponse(
            status: status, statusText: statusText, url: url, method: method, headers: headers, elapsed: elapsed, body: body,
            version: version, firstByte: firstByte, cache: how)
    }

    /// The first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? { Self.header(name, in: headers) }

    /// The first header `name` of `headers`, its name compared without the case of its letters
    /// (`equalsIgnoringASCIICase`): a response's, a request's, a stored entry's.
    public static func header(_ name: String, in headers: [(name: String, value: String)]) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }
}

extension Record: ExpressibleByDictionaryLiteral {
    /// A record literal; keys keep their written order.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }
}
