// libFuzzer target: the whole evaluator (parser, checker, interpreter, stages, promise core,
// rendering) on programs made only of offline stages, each with a small time budget.
//
// An input that starts with a letter, `$`, `(`, `[`, `{`, `%`, `:` or `'` is a program's text; any
// other input is a recipe from which `Generator` builds a well-formed program (so that most runs
// get past the parser and into the evaluator). Either way the program runs in a fresh session
// whose registry holds no HTTP, file or process stage, with external `vow-NAME` stages out of
// reach (PATH is emptied), and `:trace` (which writes files) is refused. After `budget` the run is
// interrupted as Ctrl-C would, again every `budget` until it returns; a run that does not return
// is a hang that libFuzzer reports (-timeout).
import Foundation
import Synchronization
import VowRuntime
import VowShell
import VowSyntax
import VowValue

/// The stages a fuzzed program may use: everything but HTTP, files and processes.
let offline = StageRegistry(StageRegistry.builtins.stages.filter { $0.group != .http && $0.group != .files })

/// How long a program runs before it is interrupted.
let budget = DispatchTimeInterval.milliseconds(50)

/// Builds a program from bytes; every choice reads one byte, and running out of bytes picks the
/// first (simplest) alternative, so generation always ends.
struct Generator {
    var bytes: [UInt8]
    var at = 0
    var defined: [String] = []
    var out = ""

    mutating func byte() -> Int {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return Int(bytes[at])
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[byte() % choices.count] }

    static let words = [
        "1", "0", "-1", "2.5", "1e3", "99999999999999999999", "true", "false", "null", "x", "a.b", "'[0]'",
        "'[*].a'", "'length(@)'", "@", "'keys(@)'", "'sort(@)'", "'[?a > `1`]'", "\"{}\"", "\"a{b}c\"", "\"{a.b}\"",
        "'raw {x}'", "\"$v0\"", "\"${v1.a}\"", "\"\\{\"", "\"\"", "0ms", "1ms", "5ms", "20ms", "1s", "$_", "$v0", "$v1",
        "$v0.a", "$a", "$1", "$args", "%1", "%2", "'{\"a\": [1, 2, {\"b\": null}]}'", "'[3, 1, 2]'", "\"line\\nline\"",
        "'\\u00e9'", "-0", "1.0", "9007199254740993",
    ]
    static let flagValues = ["1", "0", "2", "-1", "0ms", "1ms", "10ms", "exp", "timeout,user", "cancelled", "x", "1000000"]

    mutating func argument(depth: Int) {
        switch depth > 2 ? 0 : byte() % 8 {
        case 0, 1, 2, 3: out += pick(Self.words)
        case 4:
            out += "["
            for i in 0..<(byte() % 4) {
                if i > 0 { out += ", " }
                element(depth: depth + 1)
            }
            out += "]"
        case 5:
            out += "{"
            for i in 0..<(byte() % 4) {
                if i > 0 { out += ", " }
                out += pick(["a", "b", "\"c d\"", "a"]) + ": "
                element(depth: depth + 1)
            }
            out += "}"
        default:
            out += "("
            pipeline(depth: depth + 1)
            out += ")"
        }
    }

    mutating func element(depth: Int) {
        if byte() % 2 == 0 { out += pick(Self.words) } else { pipeline(depth: depth) }
    }

    mutating func stage(depth: Int) {
        if !defined.isEmpty, byte() % 8 == 0 {
            out += pick(defined)
            if byte() % 2 == 1 { out += " "; argument(depth: depth) }
            return
        }
        let s = pick(offline.stages)
        out += s.name
        switch s.argumentStyle {
        case .stage:
            out += " "
            if depth > 2 { out += "echo 1" } else if byte() % 3 == 0 { out += "("; pipeline(depth: depth + 1); out += ")" } else { stage(depth: depth + 1) }
        case .values, .raw:
            for _ in 0..<(byte() % 3) { out += " "; argument(depth: depth) }
        case .passthrough:
            break
        }
        if !s.flags.isEmpty, byte() % 3 == 0 {
            let f = pick(s.flags)
            out += " --" + f.name
            if f.value != nil { out += " " + pick(Self.flagValues) }
        }
    }

    mutating func pipeline(depth: Int) {
        for i in 0..<(1 + byte() % 4) {
            if i > 0 { out += " | " }
            stage(depth: depth)
        }
    }

    /// A program of one to four statements.
    mutating func program() -> String {
        for i in 0..<(1 + byte() % 4) {
            if i > 0 { out += pick(["\n", "; "]) }
            switch byte() % 6 {
            case 0, 1: pipeline(depth: 0)
            case 2: out += "let v\(byte() % 2) = "; pipeline(depth: 0)
            case 3: pipeline(depth: 0); out += " &"
            case 4:
                let name = "f\(defined.count)"
                out += "def \(name)(a) = "
                pipeline(depth: 1)
                defined.append(name)
            default: out += pick([":explain ", ":timeline", ":help "]); if out.hasSuffix(" ") { pipeline(depth: 1) }
            }
        }
        return out
    }
}

/// True when `text` may run: no meta-command that touches files.
func allowed(_ text: String) -> Bool {
    guard let program = try? Parser.parse(SourceText(text)) else { return true }  // fails before running
    return !program.statements.contains { if case .meta(let name, _, _) = $0.kind { return name == "trace" || name == "load" } else { return false } }
}

let setUp: Void = { setenv("PATH", "", 1) }()

/// With VOW_FUZZ_SHOW set (when replaying a crash), each program is printed before it runs.
let show = ProcessInfo.processInfo.environment["VOW_FUZZ_SHOW"] != nil

/// With VOW_FUZZ_LEAKS set, each program's session must be gone soon after it is closed, and
/// LeakSanitizer checks the heap after every program (slow); a program that fails either is
/// printed. libFuzzer alone only checks when an input's mallocs and
/// frees do not balance, and at exit.
let leakCheckEach = ProcessInfo.processInfo.environment["VOW_FUZZ_LEAKS"] != nil
/// With VOW_FUZZ_LEAKS=alive, only the first check (the session is gone) is made, which is fast.
let heapCheckEach = leakCheckEach && ProcessInfo.processInfo.environment["VOW_FUZZ_LEAKS"] != "alive"

/// With VOW_FUZZ_RSS=MB, a program after which resident memory has grown by more than MB
/// megabytes (since the previous program) is printed, with the growth: the way to find the
/// programs that make the fuzzer's resident size climb.
let rssStep = ProcessInfo.processInfo.environment["VOW_FUZZ_RSS"].flatMap(Int.init)

/// Resident memory in megabytes, from /proc/self/statm.
func residentMB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

let lastRSS = Atomic<Int>(0)

@_silgen_name("__lsan_do_recoverable_leak_check")
func recoverableLeakCheck() -> CInt

/// A session that has ended, held weakly.
struct Closed {
    weak var session: Session?
}

/// Runs `text` in a fresh session within the budget, closes the session and lets it go.
func run(_ text: String, waitsForJobs: Bool) -> Closed {
    let session = Session(registry: offline, output: OutputSink { _ in })
    let runner = Runner(session: session, renderer: Renderer(colors: false, jsonLines: false), errors: { _ in })
    runner.waitsForJobs = waitsForJobs
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.schedule(deadline: .now() + budget, repeating: budget)
    timer.setEventHandler { runner.interrupt() }
    timer.resume()
    _ = runner.run(text, name: "<fuzz>")
    timer.cancel()
    session.close()
    // A weak reference only when it is looked at: LeakSanitizer cannot follow the tagged pointer
    // to its side table, and would report it while the session winds down.
    return Closed(session: leakCheckEach ? session : nil)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvaluator(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = setUp
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text: String
    if let first = bytes.first, (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z") || "$([{%:'".utf8.contains(first) {
        text = String(decoding: bytes, as: UTF8.self)
    } else {
        var g = Generator(bytes: Array(bytes.dropFirst()))
        text = g.program()
    }
    guard allowed(text) else { return -1 }
    if show { FileHandle.standardError.write(Data("--- program:\n\(text)\n---\n".utf8)) }
    let closed = run(text, waitsForJobs: size % 2 == 0)
    if let rssStep {
        let now = residentMB()
        let before = lastRSS.exchange(now, ordering: .relaxed)
        if before > 0, now - before > rssStep {
            FileHandle.standardError.write(Data("--- resident memory \(before) -> \(now) MB after program:\n\(text)\n---\n".utf8))
        }
    }
    if leakCheckEach {
        // Once closed, nothing may keep the session alive (a timer nobody cleared, a handler
        // that was never released): give its last handlers a moment, then look.
        var alive = closed.session != nil
        for _ in 0..<100 where alive {
            usleep(2000)
            alive = closed.session != nil
        }
        if alive { FileHandle.standardError.write(Data("--- session kept alive by program:\n\(text)\n---\n".utf8)) }
        if heapCheckEach, recoverableLeakCheck() != 0 { FileHandle.standardError.write(Data("--- leaked by program:\n\(text)\n---\n".utf8)) }
    }
    return 0
}
