/// The bytes a JSON writer makes, gathered in one growing buffer and, when the writer is given
/// somewhere to send them, handed on in pieces of about 64 KiB: a large document is printed
/// without ever being held whole as text.
///
/// A struct used through `inout` (no reference counting, no exclusivity checks in the writer's
/// inner loops); `release()` frees the buffer.
struct JSONOutput {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    /// Where full pieces go; nil keeps everything.
    let send: ((UnsafeBufferPointer<UInt8>) -> Void)?

    /// The size from which `checkpoint()` hands what has gathered on.
    static let pieceSize = 1 << 16

    /// An empty output; with `send`, pieces go there as they fill.
    init(send: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil) {
        self.send = send
        // Small at first, grown by doubling: most values printed are short, and a first request
        // of 64 KiB made malloc merge every small block freed so far (a tenth of a second after
        // a run that freed a million).
        capacity = 512
        base = .allocate(capacity: capacity)
    }

    /// Frees the buffer (the bytes are gone).
    func release() { base.deallocate() }

    /// The bytes gathered, as an array.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Room for `n` more bytes at `base + count`.
    @inline(__always) mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private mutating func grow(_ needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = c
    }

    /// Appends one byte.
    @inline(__always) mutating func append(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    /// Appends `n` bytes from `p`.
    @inline(__always) mutating func append(_ p: UnsafePointer<UInt8>, _ n: Int) {
        reserve(n)
        (base + count).update(from: p, count: n)
        count += n
    }

    /// Appends `n` bytes from `p`, where `readable` bytes may be read: short runs are copied
    /// as two eight-byte words (reading past the run, writing into the room reserved).
    @inline(__always) mutating func appendShort(_ p: UnsafePointer<UInt8>, _ n: Int, readable: Int) {
        guard n <= 16, readable >= 16 else { return append(p, n) }
        reserve(16)
        let from = UnsafeRawPointer(p)
        let to = UnsafeMutableRawPointer(base + count)
        to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
        count &+= n
    }

    /// A line end and `n` spaces.
    @inline(__always) mutating func newline(spaces n: Int) {
        reserve(n + 16)
        base[count] = 0x0A
        let to = UnsafeMutableRawPointer(base + count + 1)
        var k = 0
        while k < n {
            to.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: k, as: UInt64.self)
            k &+= 8
        }
        count &+= n + 1
    }

    /// Appends a string's UTF-8.
    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { append($0.baseAddress!, $0.count) }
    }

    /// Marks that `n` bytes were written at `base + count` (after `reserve`).
    @inline(__always) mutating func advance(_ n: Int) { count += n }

    /// Between two values: hands what has gathered on when a piece is full.
    @inline(__always) mutating func checkpoint() {
        if count >= Self.pieceSize, send != nil { flush() }
    }

    /// Hands everything gathered on (nothing happens without `send`).
    mutating func flush() {
        guard let send, count > 0 else { return }
        send(UnsafeBufferPointer(start: base, count: count))
        count = 0
    }
}
