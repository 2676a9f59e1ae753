import Foundation
import VowValue
import VowHTTP

/// A multipart/form-data body (RFC 7578), as `--multipart {field: value, doc: @PATH}` sends it:
/// a value that starts with `@` is a file, sent with its name and a content type guessed from
/// its extension, as curl's `-F` does; text is sent as it is, any other value as JSON.
struct MultipartBody {
    /// The boundary between parts.
    let boundary: String
    /// The encoded body.
    private(set) var bytes: [UInt8] = []
    /// The fields as curl's options write them (`-F name=@PATH`, `--form-string name=value`).
    private(set) var curlForm: [(option: String, value: String)] = []

    /// The Content-Type header value.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Encodes `fields` in order; `stage` names the stage in errors.
    init(_ fields: [(key: String, value: Value)], stage: String, boundary: String = MultipartBody.randomBoundary()) throws {
        self.boundary = boundary
        for (name, value) in fields {
            let values: [Value] = value.listValue ?? [value]  // a list repeats the field
            for v in values {
                if case .string(let s) = v, s.hasPrefix("@") {
                    let path = String(s.dropFirst())
                    curlForm.append(("-F", "\(name)=@\(path)"))
                    let data = try FileBody.read(path, stage: stage, flag: "--multipart \(name)")
                    let filename = (path as NSString).lastPathComponent
                    append(name: name, filename: filename, contentType: Self.contentType(forFile: filename), data)
                } else {
                    let text: String
                    switch v {
                    case .string(let s): text = s
                    case .bytes(let b):
                        append(name: name, filename: nil, contentType: "application/octet-stream", b)
                        curlForm.append(("--form-string", "\(name)=\(String(decoding: b, as: UTF8.self))"))
                        continue
                    default: text = JSONWriter.compact(v)
                    }
                    curlForm.append(("--form-string", "\(name)=\(text)"))
                    append(name: name, filename: nil, contentType: nil, Array(text.utf8))
                }
            }
        }
        bytes += Array("--\(boundary)--\r\n".utf8)
    }

    private mutating func append(name: String, filename: String?, contentType: String?, _ data: [UInt8]) {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(name))\""
        if let filename { head += "; filename=\"\(Self.escape(filename))\"" }
        head += "\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "\r\n"
        bytes += Array(head.utf8)
        bytes += data
        bytes += Array("\r\n".utf8)
    }

    /// A quoted-string parameter value: `"` and `\` escaped, line breaks percent-encoded (as
    /// browsers do).
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// 24 random alphanumerics after a fixed prefix.
    static func randomBoundary() -> String {
        let chars = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return "vow-boundary-" + String((0..<24).map { _ in chars.randomElement()! })
    }

    /// A content type for a file name, by its extension; application/octet-stream when unknown.
    static func contentType(forFile name: String) -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        let known: [String: String] = [
            "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html", "htm": "text/html",
            "css": "text/css", "js": "text/javascript", "json": "application/json", "xml": "application/xml",
            "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
            "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml",
            "webp": "image/webp", "mp3": "audio/mpeg", "mp4": "video/mp4", "wasm": "application/wasm",
            "yaml": "application/yaml", "yml": "application/yaml", "ndjson": "application/x-ndjson",
        ]
        return known[ext] ?? "application/octet-stream"
    }
}

/// A file read whole into a request body (a `--multipart` file part).
enum FileBody {
    /// The file's bytes, or an io error naming the flag and the path.
    static func read(_ path: String, stage: String, flag: String) throws -> [UInt8] {
        let file = try FileUpload(path, flag: flag)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw VowError(.io, "\(stage): \(flag): cannot read \(path)")
        }
        return [UInt8](data)
    }
}
