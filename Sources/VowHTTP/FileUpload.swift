import AsyncHTTPClient
import Foundation
import NIOCore
import VowValue

/// `--body @PATH`: a file sent as the request body, read in chunks as the connection takes them,
/// so that a large upload is never held in memory. Made again for every hop of a redirect that
/// keeps the body (307, 308).
public struct FileUpload: Sendable {
    /// The file.
    public let path: String
    /// Its size when the request was built (sent as Content-Length).
    public let size: Int

    /// Checks that `path` is a readable regular file; `flag` names it in errors, whose stage the
    /// runtime names (`VowError.ofStage`).
    public init(_ path: String, flag: String) throws {
        let expanded = (path as NSString).expandingTildeInPath
        guard !path.isEmpty else { throw VowError.ofStage(.type, "\(flag): @ needs a file path after it") }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isDir) else {
            throw VowError.ofStage(.io, "\(flag): no such file \(path)")
        }
        guard !isDir.boolValue else { throw VowError.ofStage(.io, "\(flag): \(path) is a directory") }
        guard FileManager.default.isReadableFile(atPath: expanded),
            let size = try? FileManager.default.attributesOfItem(atPath: expanded)[.size] as? Int
        else { throw VowError.ofStage(.io, "\(flag): cannot read \(path)") }
        self.path = expanded
        self.size = size
    }

    /// The request body: the file's chunks, with its length.
    func body() -> HTTPClientRequest.Body {
        .stream(Chunks(path: path), length: .known(Int64(size)))
    }

    /// The file in chunks of 64 KiB.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let path: String

        func makeAsyncIterator() -> Iterator { Iterator(handle: FileHandle(forReadingAtPath: path), path: path) }

        struct Iterator: AsyncIteratorProtocol {
            let handle: FileHandle?
            let path: String

            mutating func next() async throws -> ByteBuffer? {
                guard let handle else { throw VowError(.io, "cannot read \(path)") }
                guard let data = try handle.read(upToCount: 65536), !data.isEmpty else {
                    try? handle.close()
                    return nil
                }
                return ByteBuffer(bytes: data)
            }
        }
    }
}
