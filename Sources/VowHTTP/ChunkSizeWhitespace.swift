import Glibc
import NIOCore

/// Reads a chunk size followed by whitespace (`5 ;name=value`, `5 ` before the line end) as curl
/// does: RFC 9112 §7.1.1 allows whitespace before a chunk extension, and NIO's HTTP/1 parser
/// (llhttp, in its strict mode, whose settings NIO does not expose) refuses it as an invalid
/// chunk size. This handler sits next to the socket, in front of that parser: it follows each
/// response's framing (its head, then a Content-Length body, chunks, or a body to the close)
/// by looking at the bytes where they lie, and passes every read on as it came, uncopied, unless
/// a chunk's size in it is followed by whitespace: that whitespace is taken away. What it cannot
/// follow passes untouched for the parser to judge.
///
/// Threading: used on its channel's event loop only.
final class ChunkSizeWhitespace: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum State: Equatable {
        /// Reading a response head (status line and headers).
        case head
        /// A body of a known length: this many bytes left.
        case body(Int)
        /// A body that ends when the connection does, or what could not be followed.
        case untilClose
        /// At the start of a chunk-size line.
        case chunkSize
        /// Inside a chunk: this many bytes left.
        case chunkData(Int)
        /// The line break after a chunk's data.
        case chunkEnd
        /// The trailer section after the last chunk, up to its empty line.
        case trailers
    }

    private var state = State.head
    /// A head that a read cut in two: its start, kept to be read whole.
    private var headStart: [UInt8] = []
    /// A chunk-size line that a read cut in two: held back, to be passed with its end.
    private var held: [UInt8] = []
    /// Inside the trailers, or a chunk's line break: how many bytes of the current line went by.
    private var lineSoFar = 0
    /// The last byte of the current line so far, when a read cut it.
    private var lastOfLine: UInt8 = 0
    /// Whether the response being read answers a HEAD request (so it has no body).
    private let answersHead: () -> Bool
    /// The longest head or chunk-size line followed; past it everything passes untouched.
    private static let longest = 1 << 20

    /// `answersHead` tells, when a response head has been read, whether it answers a HEAD request.
    init(answersHead: @escaping () -> Bool) {
        self.answersHead = answersHead
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if state == .untilClose && held.isEmpty { return context.fireChannelRead(data) }
        var input = unwrapInboundIn(data)
        if !held.isEmpty {
            // The held start of a chunk-size line goes before the rest of it (a copy; rare).
            var joined = context.channel.allocator.buffer(capacity: held.count + input.readableBytes)
            joined.writeBytes(held)
            joined.writeBuffer(&input)
            input = joined
            held = []
        }
        var cuts: [Range<Int>] = []
        var keepFrom: Int? = nil
        input.withUnsafeReadableBytes { bytes in
            (cuts, keepFrom) = follow(bytes)
        }
        if cuts.isEmpty && keepFrom == nil { return context.fireChannelRead(wrapInboundOut(input)) }
        // Whitespace to take away, or a line to hold back: the read is written anew.
        let end = keepFrom ?? input.readableBytes
        if let keepFrom { held = input.getBytes(at: input.readerIndex + keepFrom, length: input.readableBytes - keepFrom) ?? [] }
        var out = context.channel.allocator.buffer(capacity: end)
        var at = 0
        for cut in cuts + [end..<end] {
            if cut.lowerBound > at, var piece = input.getSlice(at: input.readerIndex + at, length: cut.lowerBound - at) {
                out.writeBuffer(&piece)
            }
            at = cut.upperBound
        }
        if out.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(out)) }
    }

    /// A chunk-size line cut by the end of the connection goes to the parser as it came.
    func channelInactive(context: ChannelHandlerContext) {
        if !held.isEmpty {
            var out = context.channel.allocator.buffer(capacity: held.count)
            out.writeBytes(held)
            held = []
            context.fireChannelRead(wrapInboundOut(out))
        }
        context.fireChannelInactive()
    }

    /// Follows the framing through `bytes`: the ranges of whitespace to take away, and where a
    /// chunk-size line that the read cuts starts (to be held back), if one does.
    private func follow(_ bytes: UnsafeRawBufferPointer) -> (cuts: [Range<Int>], keepFrom: Int?) {
        var cuts: [Range<Int>] = []
        var i = 0
        let n = bytes.count
        while i < n {
            switch state {
            case .untilClose:
                return (cuts, nil)
            case .body(let left):
                let k = min(left, n - i)
                i += k
                state = left == k ? .head : .body(left - k)
            case .chunkData(let left):
                let k = min(left, n - i)
                i += k
                if left == k {
                    state = .chunkEnd
                    lineSoFar = 0
                } else {
                    state = .chunkData(left - k)
                }
            case .chunkEnd, .trailers:
                guard let nl = Self.lineEnd(bytes, from: i) else {
                    lineSoFar += n - i
                    lastOfLine = bytes[n - 1]
                    return (cuts, nil)
                }
                let length = lineSoFar + nl - i
                let last = nl > i ? bytes[nl - 1] : lastOfLine
                lineSoFar = 0
                i = nl + 1
                if state == .chunkEnd {
                    state = .chunkSize
                } else if length == 0 || (length == 1 && last == 0x0D) {
                    state = .head
                }
            case .chunkSize:
                guard let nl = Self.lineEnd(bytes, from: i) else {
                    if n - i > Self.longest {
                        state = .untilClose
                        return (cuts, nil)
                    }
                    return (cuts, i)
                }
                var j = i
                var size = 0
                while j < nl, let d = Self.hexValue(bytes[j]), size <= (Int.max >> 4) {
                    size = size << 4 | d
                    j += 1
                }
                var k = j
                while k < nl, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
                guard j > i, k == nl || bytes[k] == 0x3B || bytes[k] == 0x0D else {
                    state = .untilClose
                    return (cuts, nil)
                }
                if k > j { cuts.append(j..<k) }
                i = nl + 1
                state = size == 0 ? .trailers : .chunkData(size)
                lineSoFar = 0
            case .head:
                guard let end = Self.headEnd(bytes, from: i, after: headStart) else {
                    headStart += UnsafeRawBufferPointer(rebasing: bytes[i..<n])
                    if headStart.count > Self.longest { state = .untilClose }
                    return (cuts, nil)
                }
                if headStart.isEmpty {
                    state = framing(UnsafeRawBufferPointer(rebasing: bytes[i..<end]))
                } else {
                    headStart += UnsafeRawBufferPointer(rebasing: bytes[i..<end])
                    state = headStart.withUnsafeBytes { framing($0) }
                    headStart = []
                }
                i = end
            }
        }
        return (cuts, nil)
    }

    /// The index of the next line feed in `bytes` from `from`.
    private static func lineEnd(_ bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard from < bytes.count, let p = memchr(bytes.baseAddress! + from, 0x0A, bytes.count - from) else { return nil }
        return UnsafeRawPointer(p) - bytes.baseAddress!
    }

    /// Where the head that continues at `from` (after `before`, its start from earlier reads)
    /// ends: just past the empty line that closes it.
    private static func headEnd(_ bytes: UnsafeRawBufferPointer, from: Int, after before: [UInt8]) -> Int? {
        var i = from
        while let nl = lineEnd(bytes, from: i) {
            // The line before this line feed is empty: `\n\n` or `\n\r\n`, looking back into
            // the earlier part where the read starts.
            func at(_ k: Int) -> UInt8? {
                if k >= from { return bytes[k] }
                let back = before.count - (from - k)
                return back >= 0 ? before[back] : nil
            }
            if at(nl - 1) == 0x0A || (at(nl - 1) == 0x0D && at(nl - 2) == 0x0A) { return nl + 1 }
            i = nl + 1
        }
        return nil
    }

    /// What follows the response head `head`.
    private func framing(_ head: UnsafeRawBufferPointer) -> State {
        // The status code: the three digits after the first space.
        guard let space = head.firstIndex(of: 0x20), space + 3 < head.count else { return .untilClose }
        var status = 0
        for k in space + 1...space + 3 {
            guard let d = Self.hexValue(head[k]), d < 10 else { return .untilClose }
            status = status * 10 + d
        }
        if (100..<200).contains(status) { return .head }
        if status == 204 || status == 304 || answersHead() { return .head }
        var chunked = false
        var length: Int? = nil
        var start = (Self.lineEnd(head, from: 0) ?? head.count) + 1
        while start < head.count, let nl = Self.lineEnd(head, from: start) {
            let line = UnsafeRawBufferPointer(rebasing: head[start..<nl])
            if let value = Self.value(of: "transfer-encoding", in: line) {
                chunked = Self.endsWithChunked(value)
            } else if let value = Self.value(of: "content-length", in: line) {
                var v = 0
                var digits = 0
                for c in value where c != 0x20 && c != 0x09 && c != 0x0D {
                    guard c >= 0x30, c <= 0x39, v < (Int.max / 10) else { return .untilClose }
                    v = v * 10 + Int(c - 0x30)
                    digits += 1
                }
                length = digits > 0 ? v : nil
            }
            start = nl + 1
        }
        if chunked { return .chunkSize }
        if let length { return length == 0 ? .head : .body(length) }
        return .untilClose
    }

    /// The value of header `name` (lower case) if `line` is that header.
    private static func value(of name: StaticString, in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let count = name.utf8CodeUnitCount
        guard line.count > count, line[count] == 0x3A else { return nil }
        let want = UnsafeRawBufferPointer(start: name.utf8Start, count: count)
        for k in 0..<count where line[k] | 0x20 != want[k] { return nil }
        return UnsafeRawBufferPointer(rebasing: line[(count + 1)...])
    }

    /// Whether a Transfer-Encoding value's last coding is `chunked`.
    private static func endsWithChunked(_ value: UnsafeRawBufferPointer) -> Bool {
        var end = value.count
        while end > 0, [0x20, 0x09, 0x0D].contains(value[end - 1]) { end -= 1 }
        let word: [UInt8] = Array("chunked".utf8)
        guard end >= word.count else { return false }
        for k in 0..<word.count where value[end - word.count + k] | 0x20 != word[k] { return false }
        return end == word.count || [0x20, 0x09, 0x2C].contains(value[end - word.count - 1])
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
