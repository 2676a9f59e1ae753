import Foundation
import VowValue
import VowHTTP

/// `--curl`: the curl command that sends the same request, shell-quoted, runnable as it is.
enum CurlCommand {
    /// The command for `spec`. Secrets are kept (the command must send the same request);
    /// a body that is not text is refused, since a shell word cannot carry every byte; a
    /// multipart body is written as curl's `-F` fields, files by their path.
    static func make(_ spec: HTTPRequestSpec) throws -> String {
        // -sS: no progress meter, but errors shown, as vow shows them.
        var words = ["curl", "-sS"]
        switch spec.method {
        case "GET" where spec.body == nil: break
        case "POST" where spec.curlForm != nil: break  // -F makes it a POST
        case "HEAD": words.append("--head")
        default: words += ["--request", spec.method]
        }
        words.append(quote(spec.url))
        for h in spec.headers {
            // curl writes the multipart Content-Type itself, with a boundary of its own.
            if spec.curlForm != nil, h.name.equalsIgnoringASCIICase("Content-Type") { continue }
            words += ["--header", quote("\(h.name): \(h.value)")]
        }
        if let form = spec.curlForm {
            // Each field as curl -F sends it: a file by its path (never inlined), text verbatim.
            for field in form { words += [field.option, quote(field.value)] }
        }
        if let upload = spec.upload {
            words += ["--data-binary", quote("@" + upload.path)]
            if !spec.hasHeader("Content-Type") { words += ["--header", quote("Content-Type:")] }
        }
        if let body = spec.body, spec.curlForm == nil {
            guard let text = String(validating: body, as: UTF8.self), !text.contains("\0") else {
                throw VowError(.type, "\(spec.stage): --curl cannot write a binary body into a command")
            }
            words += ["--data-binary", quote(text)]
            // curl labels a body form-encoded unless told; vow sends none it was not given.
            if !spec.hasHeader("Content-Type") { words += ["--header", quote("Content-Type:")] }
        }
        // What vow does with the response, curl does too: decode gzip/deflate, follow redirects
        // up to the same limit, give up after the same time, fail on 4xx/5xx (keeping the body).
        words.append("--compressed")
        if spec.follow { words += ["--location", "--max-redirs", String(spec.maxRedirects)] }
        words += ["--max-time", format(spec.timeout)]
        if !spec.allowErrors { words.append("--fail-with-body") }
        // The body to a file, as `--output` sends it; `--continue` resumes it, as curl's `-C -`
        // does (curl writes FILE itself, not FILE.part).
        if let d = spec.download {
            words += ["--output", quote(d.path)]
            if d.resume { words += ["--continue-at", "-"] }
        }
        if spec.insecure { words.append("--insecure") }
        if let ca = spec.caFile { words += ["--cacert", quote(ca)] }
        if let p = spec.proxy {
            let scheme = p.scheme == "socks5" ? "socks5h" : p.scheme
            words += ["--proxy", quote("\(scheme)://" + (p.credentials.map { $0 + "@" } ?? "") + "\(p.host):\(p.port)")]
        } else if spec.noProxy {
            words += ["--noproxy", quote("*")]  // --no-proxy: so does the command
        }
        return words.joined(separator: " ")
    }

    /// `s` as one POSIX shell word: bare when it is made only of safe characters, else in single
    /// quotes (a single quote written as '\'').
    static func quote(_ s: String) -> String {
        let safe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,")
        if !s.isEmpty, s.unicodeScalars.allSatisfy({ safe.contains($0) }) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
