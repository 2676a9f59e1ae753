import VowPromises
import VowValue

/// `tap [HANDLER…]`: looks at the value without changing it.
struct TapStage: StageDefinition {
    static let name = "tap"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let passesStream = true
    static let group = StageGroup.control
    static let synopsis = "tap [HANDLER…]"
    static let summary = "Runs HANDLER on the value for its effect and passes the value on unchanged."
    static let help = """
        Runs HANDLER with the value (e.g. `tap print`, `tap write log.json`) and, once it fulfils,
        passes the original value on. With no HANDLER it prints the value. Skipped on rejection;
        if HANDLER rejects, that rejection passes on.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [StageExample("echo 3 | tap print \"saw {}\" | then format \"{}\"", "saw 3\n3")]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let inner = call.innerStage()
        let ex = call.executor
        return call.chain { input, ctx in
            guard let inner else {
                let text = ctx.session.printed(input)
                ctx.session.output.emit(text + "\n")
                return .value(input)
            }
            // A handler that finishes at once is JavaScript's `v => { S(v); return v }`; one that
            // waits is `v => S(v).then(() => v)`, adopted.
            switch try inner(input) {
            case .value: return .value(input)
            case .promise(let p): return .promise(p.then(on: ex) { _ in input })
            }
        }
    }
}
