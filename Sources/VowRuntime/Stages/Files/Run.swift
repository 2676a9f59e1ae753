import Foundation
import Synchronization
import VowPromises
import VowValue

/// `run CMD ARG…`: a subprocess, never through a shell.
struct RunStage: ValueStage {
    static let name = "run"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promiseTakingFlags("run", streamsAtOnce: true)
    static let settlement: String? = "settles when the process exits; rejects on a non-zero status"
    static let group = StageGroup.files
    /// argv exactly as written: `run git tag 1.10` tags 1.10, `run echo 007` prints 007.
    static let takesWordsAsWritten = true
    static let synopsis = "run CMD ARG…"
    static let summary = "Runs a program with arguments (no shell); fulfils with its stdout, rejects on a non-zero exit."
    static let help = """
        Runs CMD (looked up on PATH) with the arguments exactly as given: nothing goes through a
        shell, so `;`, `|` and `$(…)` in an argument arrive verbatim. The input, when not null, is
        written to its standard input (text raw, other values as JSON). Fulfils with stdout as text, without its final line
        breaks (as a shell's `$(…)` gives it: `let sha = run git rev-parse HEAD`);
        a non-zero exit rejects with kind `process`, keeping `status`, `stdout` and `stderr`.
        A program killed by a signal rejects too (`sh killed by SIGSEGV`, status 128 + N, as a
        shell gives, and `signal`). The program starts as from a shell: in a process group of its
        own, with no signal blocked or ignored. Cancelling it (a timeout, a combinator that no
        longer needs it, Ctrl-C, SIGINT or SIGTERM to a script, `take`) stops its whole group,
        grandchildren under `sh -c` too: SIGTERM, then SIGKILL 1 s later to what is left; vow
        does not exit while a program it started still runs. With `--stream`, fulfils at once
        with a stream of the lines the program prints, as it prints them; a non-zero exit ends
        the stream with the `process` error.
        """
    static let stream = Flag.switch("stream", help: "a stream of the lines the program prints, as it prints them (stderr kept for the error)")
    static let flags = [stream.spec]
    static let examples = [
        StageExample("run echo hello", "hello"),
        StageExample("run printf 'a\\nb\\n' --stream | each format \"<{}>\" | to-json", "[\"<a>\",\"<b>\"]"),
        StageExample("run echo '; rm -rf /'", "; rm -rf /"),
        StageExample("run false", "error[process]: false exited with status 1", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        guard args.count > 0 else { throw call.error(.type, "missing CMD") }
        let argv = try args.positional.map { try args.asString($0, "argument") }
        var stdinBytes: [UInt8] = input.isNull ? [] : Array((input.stringValue ?? JSONWriter.compact(input)).utf8)
        // Text given to a program ends its last line, as a shell's pipe gives it: `run` hands
        // its output on without the final line break, and `run … | run wc -l` counts every line.
        if let last = stdinBytes.last, last != 0x0A { stdinBytes.append(0x0A) }
        if args[Self.stream] { return .value(.opaque(try LineStream.process(argv, stdin: stdinBytes))) }
        return .promise(
            runProcess(argv, stdin: stdinBytes, name: "run", on: call.session.executor).then(on: call.session.executor) { .string(Self.withoutFinalLineBreaks($0)) })
    }

    /// `text` without the line breaks at its end, as a shell's `$(…)` gives a command's output.
    static func withoutFinalLineBreaks(_ text: String) -> String {
        var end = text.utf8.endIndex
        while end > text.utf8.startIndex, text.utf8[text.utf8.index(before: end)] == 0x0A { end = text.utf8.index(before: end) }
        return end == text.utf8.endIndex ? text : String(text[..<end])
    }
}
