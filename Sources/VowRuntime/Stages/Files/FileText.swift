import VowValue

/// What `read PATH` hands to the `json` right after it: the file's bytes as they were read,
/// not yet made into a String (which checks the UTF-8 once more; `json` checks it as it parses).
///
/// Only that `json` ever sees it: the plan pairs the two stages, and `read` makes the usual text
/// instead whenever a trace or the timeline watches the promises. In an error it shows as the
/// text it holds, as the string `read` would have made shows.
struct FileText: OpaqueValue {
    /// The file's contents.
    let bytes: [UInt8]

    var typeName: String { String(validating: bytes, as: UTF8.self) == nil ? "bytes" : "string" }
    var displayText: String { String(decoding: bytes, as: UTF8.self) }
}
