import NIOCore

/// Reads a chunk size followed by whitespace (`5 ;name=value`, `5 ` before the line end) as curl
/// does: RFC 9112 §7.1.1 allows whitespace before a chunk extension, and NIO's HTTP/1 parser
/// (llhttp, in its strict mode, whose settings NIO does not expose) refuses it as an invalid
/// chunk size. This handler sits next to the socket, in front of that parser: it follows each
/// response's framing (its head, then a Content-Length body, chunks, or a body to the close) and
/// takes the whitespace after a chunk's size away; every other byte passes as it came, and
/// anything it cannot follow passes untouched for the parser to judge.
///
/// Threading: used on its channel's event loop only.
final class ChunkSizeWhitespace: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum State {
        /// Reading a response head (status line and headers), kept in `line`.
        case head
        /// A body of a known length: this many bytes left.
        case body(Int)
        /// A body that ends when the connection does, or what could not be followed.
        case untilClose
        /// Reading a chunk-size line, kept in `line`.
        case chunkSize
        /// Inside a chunk: this many bytes left.
        case chunkData(Int)
        /// The line break after a chunk's data.
        case chunkEnd
        /// The trailer section after the last chunk, up to its empty line.
        case trailers
    }

    private var state = State.head
    /// The head or line being read.
    private var line: [UInt8] = []
    /// Whether the response being read answers a HEAD request (so it has no body).
    private let answersHead: () -> Bool
    /// The longest head or line followed; past it everything passes untouched.
    private static let longest = 1 << 20

    /// `answersHead` tells, when a response head has been read, whether it answers a HEAD request.
    init(answersHead: @escaping () -> Bool) {
        self.answersHead = answersHead
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var input = unwrapInboundIn(data)
        // A read that is all body (the most of a large response) passes as it is, uncopied.
        switch state {
        case .untilClose:
            return context.fireChannelRead(data)
        case .body(let left) where input.readableBytes < left:
            state = .body(left - input.readableBytes)
            return context.fireChannelRead(data)
        case .chunkData(let left) where input.readableBytes < left:
            state = .chunkData(left - input.readableBytes)
            return context.fireChannelRead(data)
        default:
            break
        }
        var out = context.channel.allocator.buffer(capacity: input.readableBytes)
        while input.readableBytes > 0 { step(&input, into: &out) }
        if out.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(out)) }
    }

    /// Moves what `input` holds for the current state to `out` (or to `line`).
    private func step(_ input: inout ByteBuffer, into out: inout ByteBuffer) {
        switch state {
        case .untilClose:
            out.writeBuffer(&input)
        case .body(let left), .chunkData(let left):
            let n = min(left, input.readableBytes)
            var part = input.readSlice(length: n)!
            out.writeBuffer(&part)
            if case .body = state {
                state = left - n == 0 ? .head : .body(left - n)
            } else {
                state = left - n == 0 ? .chunkEnd : .chunkData(left - n)
            }
        case .head, .chunkSize, .chunkEnd, .trailers:
            // Up to the end of the line (for a head, of its last line). Only a chunk-size line
            // is held back until it ends; the rest passes at once and is kept to be read.
            let view = input.readableBytesView
            let end = view.firstIndex(of: 0x0A).map { $0 + 1 } ?? view.endIndex
            let piece = view[view.startIndex..<end]
            line += piece
            if case .chunkSize = state {} else { out.writeBytes(piece) }
            input.moveReaderIndex(forwardBy: piece.count)
            if end <= view.endIndex, piece.last == 0x0A {
                lineEnded(into: &out)
            } else if line.count > Self.longest {
                giveUp(into: &out)
            }
        }
    }

    /// A line (or a head's line) has ended in `line`.
    private func lineEnded(into out: inout ByteBuffer) {
        switch state {
        case .head:
            // The head ends with an empty line.
            guard line.suffix(2).elementsEqual([0x0A, 0x0A]) || line.suffix(4).elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) else {
                if line.count > Self.longest { giveUp(into: &out) }
                return
            }
            state = framing(of: line)
            line = []
        case .chunkSize:
            let (written, size) = Self.chunkSizeLine(line)
            out.writeBytes(written)
            line = []
            guard let size else {
                state = .untilClose
                return
            }
            state = size == 0 ? .trailers : .chunkData(size)
        case .chunkEnd:
            line = []
            state = .chunkSize
        case .trailers:
            let empty = line == [0x0D, 0x0A] || line == [0x0A]
            line = []
            if empty { state = .head }
        case .body, .chunkData, .untilClose:
            break
        }
    }

    /// Passes what was held back and everything after it untouched.
    private func giveUp(into out: inout ByteBuffer) {
        if case .chunkSize = state { out.writeBytes(line) }
        line = []
        state = .untilClose
    }

    /// A chunk-size line cut by the end of the connection goes to the parser as it came.
    func channelInactive(context: ChannelHandlerContext) {
        if case .chunkSize = state, !line.isEmpty {
            var out = context.channel.allocator.buffer(capacity: line.count)
            out.writeBytes(line)
            line = []
            context.fireChannelRead(wrapInboundOut(out))
        }
        context.fireChannelInactive()
    }

    /// What follows the response head `head`.
    private func framing(of head: [UInt8]) -> State {
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" })
        guard let statusLine = lines.first else { return .untilClose }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return .untilClose }
        if (100..<200).contains(status) { return .head }
        if status == 204 || status == 304 || answersHead() { return .head }
        var chunked = false
        var length: Int?
        for header in lines.dropFirst() {
            guard let colon = header.firstIndex(of: ":") else { continue }
            let name = header[..<colon].lowercased()
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "transfer-encoding" {
                chunked = value.lowercased().split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked"
            } else if name == "content-length" {
                length = Int(value)
            }
        }
        if chunked { return .chunkSize }
        if let length { return length == 0 ? .head : .body(length) }
        return .untilClose
    }

    /// A chunk-size line with the whitespace after its size taken away, and the size (nil when
    /// the line is not a size this handler can read: it is passed as it came).
    static func chunkSizeLine(_ line: [UInt8]) -> (written: [UInt8], size: Int?) {
        var i = 0
        var size = 0
        while i < line.count, let digit = hexValue(line[i]) {
            guard size <= (Int.max >> 4) else { return (line, nil) }
            size = size << 4 | digit
            i += 1
        }
        guard i > 0 else { return (line, nil) }
        var j = i
        while j < line.count, line[j] == 0x20 || line[j] == 0x09 { j += 1 }
        guard j < line.count, line[j] == 0x3B || line[j] == 0x0D || line[j] == 0x0A else { return (line, nil) }
        return (Array(line[..<i]) + line[j...], size)
    }

    private static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: Int(c - 0x30)
        case 0x41...0x46: Int(c - 0x41 + 10)
        case 0x61...0x66: Int(c - 0x61 + 10)
        default: nil
        }
    }
}
