import VowPromises
import VowSyntax
import VowValue

/// `print [VALUE]`: writes at once, passes the input on.
struct PrintStage: ValueStage {
    static let name = "print"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("print")
    static let rejectsOnItsOwn = false
    static let printsItsValue = true
    static let group = StageGroup.values
    static let synopsis = "print [VALUE] [--stderr] [--no-newline]"
    static let summary = "Writes its argument, or its input, to stdout at once and passes the input on."
    static let help = """
        Writes VALUE (or the input when no argument is given) to standard output right away, the way
        results print (strings raw, other values as JSON), and fulfils with the input unchanged.
        Use it to watch a value go by in the middle of a pipeline. With no argument, a stream's items
        are written one by one as they arrive, and `print` fulfils with them as a list when the
        stream ends. --stderr writes to standard error instead (a message for the person running a
        script, kept out of its output); --no-newline adds no line break after the text.
        """
    static let flags = [toStandardError.spec, noNewline.spec]
    /// `--stderr`.
    static let toStandardError = Flag.switch("stderr", help: "write to standard error instead of standard output")
    /// `--no-newline`.
    static let noNewline = Flag.switch("no-newline", help: "add no line break after the text")
    static let examples = [
        StageExample("echo 1 | print \"got {}\" | then echo done", "got 1\ndone"),
        StageExample("echo [1] | print | len", "[\n  1\n]\n1"),
        StageExample("echo 2 | print \"working on {}\" --stderr | then format \"result {}\"", "result 2"),
        StageExample("print \"a \" --no-newline | then print b | then echo done", "a b\ndone"),
    ]

    /// With no argument, a stream is printed item by item.
    static func takesStream(_ positional: ArgumentList) -> Bool { positional.isEmpty }

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let sink = args[Self.toStandardError] ? call.session.diagnostics : call.session.output
        let ending = args[Self.noNewline] ? "" : "\n"
        if let stream = input.stream {
            let ex = call.session.executor
            let session = call.session
            let items = Locked([Value]())
            return .promise(stream.forEach(on: ex) { item in
                items.withLock { $0.append(item) }
                let text = session.printed(item)
                sink.emit(text.hasSuffix("\n") ? text : text + ending)
                return Promise.resolve((), on: ex)
            }.then(on: ex) { _ in Value.list(items.withLock { $0 }) })
        }
        let v = args.count == 0 ? input : (args.count == 1 ? args[0]! : .string(args.positional.map(Evaluator.interpolationText).joined(separator: " ")))
        let text = call.session.printed(v)
        sink.emit(text.hasSuffix("\n") ? text : text + ending)
        return .value(input)
    }
}

extension PrintStage: TwinWriting {
    /// First in a pipeline: a promise already fulfilled with the value, `Promise.resolve(…)`.
    static func twinFirst(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> String? {
        let b = twin.preludeCall(plan, input: input, depth: depth)
        return b.isPromise ? nil : "Promise.resolve(\(b.code))"
    }
}
