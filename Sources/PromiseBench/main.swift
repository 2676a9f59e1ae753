// Promise micro-benchmarks: vow's promise core against raw Dispatch hops and SwiftNIO futures,
// measured interleaved in one process after a warm-up. Prints ns per hop / per element and the
// ratios; the last line is `promises hop-ratio-vs-dispatch=R fanin-ratio-vs-nio=S`.
import Dispatch
import Foundation
import Glibc
import NIOCore
import NIOPosix
import Synchronization
import VowPromises

let hops = Int(ProcessInfo.processInfo.environment["HOPS"] ?? "") ?? 1_000_000
let fanIn = 100_000

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// (a) vow: a chain of `then` hops, each adding 1, on the serial executor.
func vowChain() -> Double {
    let ex = SerialPromiseExecutor(label: "bench")
    let (head, r) = Promise<Int>.pending(on: ex)
    var p = head
    let t0 = now()
    for _ in 0..<hops { p = p.then(on: ex) { $0 + 1 } }
    let t1 = now()
    let sem = DispatchSemaphore(value: 0)
    p.whenSettled(on: ex) { _ in sem.signal() }
    r.fulfill(0)
    sem.wait()
    if ProcessInfo.processInfo.environment["PROBE"] != nil { print("build", Double(t1 - t0) / Double(hops), "settle", Double(now() - t1) / Double(hops)) }
    return Double(now() - t0) / Double(hops)
}

/// (a) Dispatch: the physical limit, one `async` per hop, each hop scheduling the next.
func dispatchChain() -> Double {
    let q = DispatchQueue(label: "bench.dispatch")
    let sem = DispatchSemaphore(value: 0)
    let counter = Mutex(0)
    @Sendable func hop(_ remaining: Int) {
        if remaining == 0 { sem.signal(); return }
        q.async {
            counter.withLock { $0 += 1 }
            hop(remaining - 1)
        }
    }
    let t0 = now()
    hop(hops)
    sem.wait()
    return Double(now() - t0) / Double(hops)
}

/// (a) NIO: a chain of `map` on one event loop.
func nioChain(_ loop: EventLoop) -> Double {
    let t0 = now()
    let result = try! loop.submit { () -> EventLoopFuture<Int> in
        let promise = loop.makePromise(of: Int.self)
        var f = promise.futureResult
        for _ in 0..<hops { f = f.map { $0 + 1 } }
        promise.succeed(0)
        return f
    }.flatMap { $0 }.wait()
    precondition(result == hops)
    return Double(now() - t0) / Double(hops)
}

/// (b) vow: `all` over already-fulfilled promises, then a sum.
func vowFanIn() -> Double {
    let ex = SerialPromiseExecutor(label: "bench.fanin")
    let t0 = now()
    var ps: [Promise<Int>] = []
    ps.reserveCapacity(fanIn)
    for i in 0..<fanIn { ps.append(.resolve(i, on: ex)) }
    let sum = Promise.all(ps, on: ex).then(on: ex) { $0.reduce(0, +) }
    let sem = DispatchSemaphore(value: 0)
    sum.whenSettled(on: ex) { _ in sem.signal() }
    sem.wait()
    precondition(sum.result.flatMap { try? $0.get() } == (0..<fanIn).reduce(0, +))
    return Double(now() - t0) / Double(fanIn)
}

/// (b) NIO: `whenAllSucceed` over already-succeeded futures, then a sum.
func nioFanIn(_ loop: EventLoop) -> Double {
    let t0 = now()
    let total = try! loop.submit { () -> EventLoopFuture<Int> in
        var fs: [EventLoopFuture<Int>] = []
        fs.reserveCapacity(fanIn)
        for i in 0..<fanIn { fs.append(loop.makeSucceededFuture(i)) }
        return EventLoopFuture.whenAllSucceed(fs, on: loop).map { $0.reduce(0, +) }
    }.flatMap { $0 }.wait()
    precondition(total == (0..<fanIn).reduce(0, +))
    return Double(now() - t0) / Double(fanIn)
}

/// (b) Dispatch: one `async` per element into a group, then a sum.
func dispatchFanIn() -> Double {
    let q = DispatchQueue(label: "bench.dispatch.fanin")
    let g = DispatchGroup()
    let values = Mutex([Int](repeating: 0, count: fanIn))
    let t0 = now()
    for i in 0..<fanIn { q.async(group: g) { values.withLock { $0[i] = i } } }
    g.wait()
    let s = values.withLock { $0.reduce(0, +) }
    precondition(s == (0..<fanIn).reduce(0, +))
    return Double(now() - t0) / Double(fanIn)
}

/// Heap bytes that one pending promise with one handler attached costs.
///
/// The arrays that keep the promises alive are filled before the first reading, so that their
/// pages (16 bytes a pair) are not counted as the promises' memory.
func bytesPerPendingPromise() -> Double {
    let n = 1_000_000
    let ex = SerialPromiseExecutor(label: "bench.mem")
    let placeholder = Promise<Int>.resolve(0, on: ex)
    var sources = [Promise<Int>](repeating: placeholder, count: n)
    var derived = [Promise<Int>](repeating: placeholder, count: n)
    let afterArrays = residentBytes()
    for i in 0..<n {
        let promise = Promise<Int>.pending(on: ex).promise
        sources[i] = promise
        derived[i] = promise.then(on: ex) { $0 + 1 }
    }
    let after = residentBytes()
    // Two promises per pair (the source and its derived one); report per source-with-handler.
    let perPair = Double(after - afterArrays) / Double(n)
    withExtendedLifetime((sources, derived)) {}
    return perPair
}

/// Resident set size from /proc/self/statm.
func residentBytes() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = s.split(separator: " ")
    return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

if CommandLine.arguments.dropFirst().first == "--memory" {
    print(String(format: "%.1f", bytesPerPendingPromise()))
    exit(0)
}
if let n = ProcessInfo.processInfo.environment["ONLY_CHAIN"].flatMap({ Int($0) }) {
    // Profiling aid: only the vow chain, N rounds.
    for _ in 0..<max(n, 1) { print(vowChain()) }
    exit(0)
}
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let loop = group.next()
let rounds = Int(CommandLine.arguments.dropFirst().first ?? "5") ?? 5

// Memory first, on a fresh heap, so that freed memory of the timing rounds does not hide it.
let mem = bytesPerPendingPromise()

// Warm-up.
_ = vowChain(); _ = dispatchChain(); _ = nioChain(loop)
_ = vowFanIn(); _ = nioFanIn(loop); _ = dispatchFanIn()

var vc: [Double] = [], dc: [Double] = [], nc: [Double] = []
var vf: [Double] = [], nf: [Double] = [], df: [Double] = []
for _ in 0..<rounds {
    vc.append(vowChain()); dc.append(dispatchChain()); nc.append(nioChain(loop))
    vf.append(vowFanIn()); nf.append(nioFanIn(loop)); df.append(dispatchFanIn())
}
try! group.syncShutdownGracefully()

func f(_ x: Double) -> String { String(format: "%.1f", x) }
print("chain of \(hops) hops (ns per hop, median of \(rounds)):")
print("  vow then        \(f(median(vc)))")
print("  Dispatch async  \(f(median(dc)))")
print("  NIO map         \(f(median(nc)))")
print("fan-in over \(fanIn) fulfilled promises, then a sum (ns per element):")
print("  vow all         \(f(median(vf)))")
print("  NIO whenAll     \(f(median(nf)))")
print("  Dispatch group  \(f(median(df)))")
print("memory: one pending promise with one handler (the source and its derived promise): \(f(mem)) bytes")
let r = median(vc) / median(dc)
let s = median(vf) / median(nf)
print(String(format: "promises hop-ratio-vs-dispatch=%.2f fanin-ratio-vs-nio=%.2f", r, s))
