import VowPromises
import VowValue

/// `echo VALUE`: the value itself, whatever the input.
struct EchoStage: ValueStage {
    static let name = "echo"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("echo")
    static let group = StageGroup.values
    static let synopsis = "echo VALUE…"
    static let summary = "Fulfils with its argument (several arguments are joined with spaces)."
    static let help = """
        Fulfils with VALUE, ignoring the input. With several arguments, they are joined with single
        spaces into one string, as in a shell. Inside VALUE, {} is the input and {PATH} a part of it.
        """
    static let examples = [
        StageExample("echo hello", "hello"),
        StageExample("echo 42", "42"),
        StageExample("echo [1, 2] | len", "2"),
        StageExample("echo hello world", "hello world"),
        StageExample("echo {a: 1} | echo \"got {a}\"", "got 1"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        switch args.count {
        case 0: return .value(.null)
        case 1: return .value(args[0]!)
        default: return .value(.string(args.positional.map(Evaluator.interpolationText).joined(separator: " ")))
        }
    }
}

/// `print [VALUE]`: writes at once, passes the input on.
struct PrintStage: ValueStage {
    static let name = "print"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("print")
    static let group = StageGroup.values
    static let synopsis = "print [VALUE]"
    static let summary = "Writes its argument, or its input, to stdout at once and passes the input on."
    static let help = """
        Writes VALUE (or the input when no argument is given) to standard output right away, the way
        results print (strings raw, other values as JSON), and fulfils with the input unchanged.
        Use it to watch a value go by in the middle of a pipeline.
        """
    static let examples = [
        StageExample("echo 1 | print \"got {}\" | then echo done", "got 1\ndone"),
        StageExample("echo [1] | print | len", "[\n  1\n]\n1"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        let v = args.count == 0 ? input : (args.count == 1 ? args[0]! : .string(args.positional.map(Evaluator.interpolationText).joined(separator: " ")))
        let text: String
        if case .string(let s) = v { text = s } else { text = ctx.session.renderValue(v) }
        ctx.session.output.emit(text.hasSuffix("\n") ? text : text + "\n")
        return .value(input)
    }
}

/// `resolve VALUE`: a pre-resolved promise.
struct ResolveStage: ValueStage {
    static let name = "resolve"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("resolve")
    static let group = StageGroup.values
    static let synopsis = "resolve [VALUE]"
    static let summary = "A promise already fulfilled with VALUE (or with the input)."
    static let help = """
        Fulfils with VALUE, like JavaScript's Promise.resolve(value). With no argument it passes the
        input on. `resolve 41 | then format "{}!"` is the smallest chain there is.
        """
    static let examples = [
        StageExample("resolve 41 | then format \"{}!\"", "41!"),
        StageExample("resolve {a: 1} | pick a", "1"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        .value(args[0] ?? input)
    }
}

/// `reject MESSAGE` / `fail MESSAGE`: a rejection of kind `user`.
struct RejectStage: ValueStage {
    static let name = "reject"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("reject")
    static let aliases = ["fail"]
    static let group = StageGroup.values
    static let synopsis = "reject MESSAGE  (also: fail MESSAGE)"
    static let summary = "Rejects with an error of kind user and the message."
    static let help = """
        Rejects with an error of kind `user` whose message is MESSAGE. Every following `then` is
        skipped until a `catch`. A record argument sets extra fields: `reject {message: "x", code: 3}`.
        """
    static let examples = [
        StageExample("reject boom | then echo never | catch echo \"saved: {message}\"", "saved: boom"),
        StageExample("reject boom", "error[user]: boom", fails: true),
        StageExample("fail oops | catch pick kind", "user"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        if case .record(let r)? = args[0] {
            var details = r
            let msg = r["message"].map(Evaluator.interpolationText) ?? "rejected"
            details["message"] = nil
            throw VowError(.user, msg, details: details)
        }
        let msg = args.count == 0 ? "rejected" : args.positional.map(Evaluator.interpolationText).joined(separator: " ")
        throw VowError(.user, msg)
    }
}

/// `delay DURATION [VALUE]`: fulfils later.
struct DelayStage: ValueStage {
    static let name = "delay"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promise("delay")
    static let group = StageGroup.values
    static let synopsis = "delay DURATION [VALUE]"
    static let summary = "Fulfils with VALUE (or the input) after DURATION; cancelling it clears the timer."
    static let help = """
        Waits DURATION (250ms, 2s, 1.5m) and fulfils with VALUE, or with the input when no VALUE is
        given. The timer is cleared when the promise is cancelled (Ctrl-C, timeout, race).
        """
    static let examples = [
        StageExample("delay 10ms done", "done"),
        StageExample("echo 5 | delay 1ms", "5"),
        StageExample("race [delay 50ms slow, delay 10ms fast]", "fast"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        guard let d = args[0] else { throw VowError(.type, "delay: missing DURATION (e.g. delay 250ms)") }
        let seconds = try args.seconds(d, "DURATION")
        return .promise(Promise.delay(seconds, value: args[1] ?? input, name: "delay", on: ctx.session.executor))
    }
}
