import VowPromises
import VowValue

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
        Use it to watch a value go by in the middle of a pipeline. With no argument, a stream's items
        are written one by one as they arrive, and `print` fulfils with them as a list when the
        stream ends.
        """
    static let examples = [
        StageExample("echo 1 | print \"got {}\" | then echo done", "got 1\ndone"),
        StageExample("echo [1] | print | len", "[\n  1\n]\n1"),
    ]

    /// With no argument, a stream is printed item by item.
    static func acceptsStream(_ call: StageCall) -> Bool { call.positional.isEmpty }

    func run(_ input: Value, _ args: StageArguments, _ ctx: StageContext) throws -> Resolution<Value> {
        if let stream = input.stream {
            let ex = ctx.session.executor
            let session = ctx.session
            let items = Locked([Value]())
            return .promise(stream.forEach(on: ex) { item in
                items.withLock { $0.append(item) }
                let text = item.stringValue.map(session.showText) ?? session.renderValue(item)
                session.output.emit(text.hasSuffix("\n") ? text : text + "\n")
                return Promise.resolve((), on: ex)
            }.then(on: ex) { _ in Value.list(items.withLock { $0 }) })
        }
        let v = args.count == 0 ? input : (args.count == 1 ? args[0]! : .string(args.positional.map(Evaluator.interpolationText).joined(separator: " ")))
        let text: String
        if case .string(let s) = v { text = ctx.session.showText(s) } else { text = ctx.session.renderValue(v) }
        ctx.session.output.emit(text.hasSuffix("\n") ? text : text + "\n")
        return .value(input)
    }
}
