import VowValue

/// Reads `text/event-stream` line by line (the HTML standard's event stream interpretation):
/// `event:`, `data:` (several are joined with line breaks), `id:` and `retry:` fields, comments
/// starting with `:`, and a blank line that dispatches the event as a record
/// `{event, id, data, retry}`: `event` is `message` when none was named, `id` the last event id
/// seen, `data` parsed when it is JSON (else text), `retry` the reconnection time in
/// milliseconds or null. An event with no data is not dispatched.
struct ServerSentEvents {
    private var event = ""
    private var data: [String] = []
    /// The bytes of `data` so far: an event grows up to the stream's limit, not without bound.
    private(set) var pendingBytes = 0
    /// The last event id seen (sent back as `Last-Event-ID` on a reconnection).
    private(set) var lastID: String? = nil
    /// The reconnection time the server asked for, in milliseconds; nil until it asks.
    private(set) var retry: Int? = nil

    /// Forgets an event that was not complete when the connection ended (the id and the
    /// reconnection time are kept, as the standard says).
    mutating func connectionEnded() {
        event = ""
        data = []
        pendingBytes = 0
    }

    /// Takes one line (without its line break); returns the event a blank line dispatches.
    mutating func line(_ line: String) -> Value? {
        if line.isEmpty {
            defer {
                event = ""
                data = []
                pendingBytes = 0
            }
            guard !data.isEmpty else { return nil }
            let text = data.joined(separator: "\n")
            var r = Record()
            r["event"] = .string(event.isEmpty ? "message" : event)
            r["id"] = lastID.map(Value.string) ?? .null
            r["data"] = (try? JSON.parse(text)) ?? .string(text)
            r["retry"] = retry.map(Value.int) ?? .null
            return .record(r)
        }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "event": event = String(value)
        case "data":
            data.append(String(value))
            pendingBytes += value.utf8.count + 1
        case "id" where !value.contains("\0"): lastID = String(value)
        case "retry": if let ms = Int(value), ms >= 0, value.allSatisfy(\.isASCII) { retry = ms }
        default: break
        }
        return nil
    }
}
