import Foundation
import Synchronization
import VowPromises
import VowValue

/// `read PATH`: a file's contents.
struct ReadStage: ValueStage {
    static let name = "read"
    static let group = StageGroup.files
    static let synopsis = "read [PATH]"
    static let summary = "Reads a file: text when it is valid UTF-8, bytes otherwise."
    static let help = "Reads PATH (or the input as the path) and fulfils with its text, or its bytes when it is not UTF-8. A missing or unreadable file rejects with kind io."
    static let examples = [StageExample("read /nonexistent/file", "error[io]: cannot read /nonexistent/file: no such file or directory", fails: true)]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        let path = args.count > 0 ? try args.string(0, "PATH") : try args.asString(input, "PATH")
        let bytes = try Files.read(path)
        if let s = String(validating: bytes, as: UTF8.self) { return .value(.string(s)) }
        return .value(.bytes(bytes))
    }
}

/// `write PATH`: writes the input, passes it on.
struct WriteStage: ValueStage {
    static let name = "write"
    static let group = StageGroup.files
    static let synopsis = "write PATH"
    static let summary = "Writes the input to PATH (text raw, other values as JSON) and passes it on."
    static let help = "Writes the input to PATH, replacing it: a string as is, bytes as is, any other value as pretty JSON with a final newline. Fulfils with the input."
    static let examples = [StageExample("echo hi | write /tmp/vow-example.txt | then read /tmp/vow-example.txt", "hi")]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        let path = try args.string(0, "PATH")
        let bytes: [UInt8]
        switch input {
        case .string(let s): bytes = Array(s.utf8)
        case .bytes(let b): bytes = b
        case .response(let r): bytes = r.body
        default: bytes = Array((JSONWriter.pretty(input) + "\n").utf8)
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw VowError(.io, "cannot write \(path)")
        }
        return .value(input)
    }
}

/// `stdin`: standard input as text.
struct StdinStage: ValueStage {
    static let name = "stdin"
    static let group = StageGroup.files
    static let synopsis = "stdin"
    static let summary = "Reads all of standard input as text."
    static let help = "Fulfils with everything on standard input (text when valid UTF-8, else bytes)."
    static let examples: [StageExample] = []

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        let ex = ctx.session.executor
        return .promise(Promise<Value>(name: "stdin", on: ex, operation: {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            let b = [UInt8](data)
            return String(validating: b, as: UTF8.self).map(Value.string) ?? .bytes(b)
        }))
    }
}

/// `env NAME`: an environment variable.
struct EnvStage: ValueStage {
    static let name = "env"
    static let group = StageGroup.files
    static let synopsis = "env NAME"
    static let summary = "The value of an environment variable, or null when it is not set."
    static let help = "Fulfils with the environment variable NAME as a string, or null when it is not set."
    static let examples = [StageExample("env VOW_SURELY_UNSET_VARIABLE", "null")]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        let name = try args.string(0, "NAME")
        return .value(ProcessInfo.processInfo.environment[name].map(Value.string) ?? .null)
    }
}

/// `run CMD ARG…`: a subprocess, never through a shell.
struct RunStage: ValueStage {
    static let name = "run"
    static let group = StageGroup.files
    static let synopsis = "run CMD ARG…"
    static let summary = "Runs a program with arguments (no shell); fulfils with its stdout, rejects on a non-zero exit."
    static let help = """
        Runs CMD (looked up on PATH) with the arguments exactly as given: nothing goes through a
        shell, so `;`, `|` and `$(…)` in an argument arrive verbatim. The input, when not null, is
        written to its standard input (text raw, other values as JSON). Fulfils with stdout as text;
        a non-zero exit rejects with kind `process`, keeping `status`, `stdout` and `stderr`.
        Cancelling kills the process.
        """
    static let examples = [
        StageExample("run echo hello", "hello\n"),
        StageExample("run echo '; rm -rf /'", "; rm -rf /\n"),
        StageExample("run false", "error[process]: false exited with status 1", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        guard args.count > 0 else { throw VowError(.type, "run: missing CMD") }
        let argv = try args.positional.map { try args.asString($0, "argument") }
        let stdinBytes: [UInt8] = input.isNull ? [] : Array((input.stringValue ?? JSONWriter.compact(input)).utf8)
        return .promise(
            runProcess(argv, stdin: stdinBytes, name: "run", on: ctx.session.executor).then(on: ctx.session.executor) { .string($0) })
    }
}

/// Runs `argv` (looked up on PATH, never through a shell) with `stdin`; fulfils with its standard
/// output, or rejects with kind `process` keeping status, stdout and stderr. Cancelling kills it.
func runProcess(_ argv: [String], stdin stdinBytes: [UInt8], name: String, on ex: any PromiseExecutor) -> Promise<String> {
    let (p, r) = Promise<String>.pending(name: name, on: ex)
    // A process that exits without reading all its input must not kill vow with SIGPIPE.
    ignoreBrokenPipes
    let proc = Process()
    proc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    proc.arguments = ["--"] + argv
    let out = Pipe(), err = Pipe(), inp = Pipe()
    proc.standardOutput = out
    proc.standardError = err
    proc.standardInput = inp
    do { try proc.run() } catch {
        r.reject(VowError(.process, "cannot start \(argv[0]): \(error.localizedDescription)"))
        return p
    }
    r.onCancel { if proc.isRunning { proc.terminate() } }
    // The process and its pipe ends, handed to the threads below, which alone use them.
    let io = UncheckedBox((proc: proc, stdout: out.fileHandleForReading, stderr: err.fileHandleForReading, stdin: inp.fileHandleForWriting))
    // Standard input is written on its own thread, so that a process that writes a lot before
    // reading all its input cannot deadlock against us.
    DispatchQueue.global().async {
        if !stdinBytes.isEmpty { try? io.value.stdin.write(contentsOf: Data(stdinBytes)) }
        try? io.value.stdin.close()
    }
    DispatchQueue.global().async {
        let proc = io.value.proc
        final class DataBox: @unchecked Sendable { var data = Data() }
        let errData = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            // Written before leave(), read after wait(): the group orders the two.
            errData.data = io.value.stderr.readDataToEndOfFile()
            group.leave()
        }
        let o = io.value.stdout.readDataToEndOfFile()
        group.wait()
        proc.waitUntilExit()
        let stdout = String(decoding: o, as: UTF8.self)
        let stderr = String(decoding: errData.data, as: UTF8.self)
        if proc.terminationStatus == 0 && proc.terminationReason == .exit {
            r.fulfill(stdout)
        } else {
            var d = Record()
            d["status"] = .int(Int(proc.terminationStatus))
            d["stdout"] = .string(stdout)
            d["stderr"] = .string(stderr)
            let tail = stderr.isEmpty ? "" : ": " + stderr.trimmingCharacters(in: .whitespacesAndNewlines).prefix(500)
            r.reject(VowError(.process, "\(argv[0]) exited with status \(proc.terminationStatus)\(tail)", details: d))
        }
    }
    return p
}

/// Ignores SIGPIPE once, process-wide: writes to a closed pipe fail with EPIPE instead.
let ignoreBrokenPipes: Void = {
    signal(SIGPIPE, SIG_IGN)
}()

/// A stage that is an executable `vow-NAME` on PATH: it gets the input as JSON on stdin and its
/// arguments (flags included) as its argv; its standard output, parsed as JSON, is the value.
struct ExternalStage: StageDefinition {
    static let name = "vow-NAME"
    static let group = StageGroup.files
    static let synopsis = "NAME ARG…"
    static let summary = "An executable vow-NAME on PATH, run as stage NAME."
    static let help = """
        When NAME is not a built-in stage or a def, vow looks for an executable vow-NAME on PATH. It
        runs it (never through a shell) with the stage's arguments, flags included, as its argv,
        writes the input to its stdin as JSON, and parses its stdout as JSON (empty output is null).
        A non-zero exit rejects with kind process; output that is not JSON rejects with kind json.
        """
    static let examples: [StageExample] = []
    static let argumentStyle = ArgumentStyle.passthrough

    /// The executable for stage `name`, if one is on PATH.
    static func find(_ name: String) -> String? {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(dir)/vow-\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let path = Self.find(call.name) else { throw VowError(.syntax, "unknown stage '\(call.name)'") }
        let ev = Evaluator(session: call.session)
        return call.chain { input, ctx in
            var argv = [path]
            for a in call.positional {
                if case .flag(let f) = a.kind {
                    argv.append("--" + f)
                    continue
                }
                let v = try ev.plainArgument(
                    a, input: input, scope: call.scope, site: call.site, problem: "\(call.name): arguments of an external stage must be plain values")
                argv.append(v.stringValue ?? JSONWriter.compact(v))
            }
            let ex = ctx.session.executor
            let stage = call.name
            return .promise(
                runProcess(argv, stdin: Array((JSONWriter.compact(input) + "\n").utf8), name: stage, on: ex).then(on: ex) { out -> Value in
                    if out.allSatisfy(\.isWhitespace) { return .null }
                    do { return try JSON.parse(out) } catch let error as JSONError {
                        throw VowError(.json, "vow-\(stage) printed something that is not JSON: \(error.message) at line \(error.line), column \(error.column)")
                    }
                })
        }
    }
}

/// Carries a non-Sendable value to one other thread that alone uses it.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
