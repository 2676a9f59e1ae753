import Foundation
import VowValue

/// `Link` response headers (RFC 8288): `<URL>; rel="next", <URL>; rel="last"`.
enum LinkHeader {
    /// The target of the first link whose relation types include `relation` (case-insensitive),
    /// across every `Link` header in `headers`, as written (possibly relative).
    static func target(rel relation: String, in headers: [(name: String, value: String)]) -> String? {
        for h in headers where h.name.equalsIgnoringASCIICase("Link") {
            for link in links(h.value) where link.rels.contains(where: { $0.equalsIgnoringASCIICase(relation) }) {
                return link.target
            }
        }
        return nil
    }

    /// The links of one header value, in order: each target and its relation types.
    static func links(_ value: String) -> [(target: String, rels: [String])] {
        var out: [(String, [String])] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close])
            // The parameters run to the next comma outside quotes.
            var i = rest.index(after: close)
            var inQuotes = false
            while i < rest.endIndex {
                let c = rest[i]
                if c == "\"" { inQuotes.toggle() } else if c == ",", !inQuotes { break }
                i = rest.index(after: i)
            }
            var rels: [String] = []
            for param in rest[rest.index(after: close)..<i].split(separator: ";") {
                let kv = param.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard kv.count == 2, kv[0].lowercased() == "rel" else { continue }
                let v = kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                rels += v.split(separator: " ").map(String.init)
            }
            out.append((target, rels))
            rest = i < rest.endIndex ? rest[rest.index(after: i)...] : ""
        }
        return out
    }
}
