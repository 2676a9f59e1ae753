import Crypto
import Foundation
import VowPromises
import VowValue

/// `sha256 [--base64]`: the SHA-256 digest of text, bytes or a response body.
struct Sha256Stage: ValueStage {
    static let name = "sha256"
    /// In the JavaScript twin, written here (`twinFunction`).
    static let twin = StageTwin.handlerTakingFlags("sha256")
    /// node's `crypto` module: the same digest of the same bytes.
    static let twinFunction: String? = """
        (v, flags) => {
            const bytes = typeof v === "string" ? Buffer.from(v, "utf8")
                : v instanceof Uint8Array ? v
                : v && typeof v === "object" && "status" in v && "body" in v ? Buffer.from(v.body)
                : null;
            if (bytes === null) throw vow.error("type", `sha256: expected text, bytes or a response, got ${vow.typeName(v)}`);
            return require("crypto").createHash("sha256").update(bytes).digest(flags.base64 ? "base64" : "hex");
        }
        """
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "sha256 [--base64]"
    static let summary = "The SHA-256 digest of text, bytes or a response body, in hex (or --base64)."
    static let help = """
        Fulfils with the SHA-256 digest of the input as 64 lowercase hex digits, as sha256sum
        prints it: of text (its UTF-8 bytes), of bytes, or of a response's body as it came. With
        --base64, the digest in base64 (44 characters), as a Subresource Integrity or a Digest
        header writes it.
        """
    /// `--base64`: the digest in base64.
    static let base64 = Flag.switch("base64", help: "the digest in base64 instead of hex")
    static let flags = [base64.spec]
    static let examples = [
        StageExample("echo abc | sha256", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        StageExample("echo abc | sha256 --base64", "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="),
        StageExample("echo 5 | sha256", "error[type]: sha256: expected text, bytes or a response, got number", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let digest: SHA256.Digest
        switch input {
        case .string(let s): digest = SHA256.hash(data: Array(s.utf8))
        case .bytes(let b): digest = SHA256.hash(data: b)
        case .response(let r): digest = SHA256.hash(data: r.body)
        default: throw call.error(.type, "expected text, bytes or a response, got \(input.typeName)")
        }
        if args[Self.base64] { return .value(.string(Data(digest).base64EncodedString())) }
        return .value(.string(digest.map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined()))
    }
}

extension String {
    /// The string with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
