import VowPromises
import VowValue

/// `then STAGE…`: runs a stage on the fulfilled value (the same as `| STAGE`).
struct ThenStage: StageDefinition {
    static let name = "then"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "then STAGE…"
    static let summary = "Runs STAGE on the value when the input fulfils; `| then X` is `| X`."
    static let help = """
        Each `|` is already a then: the next stage runs when the previous one fulfils. `then` spells
        it out, which reads well before a stage that starts a new request:
        `pick login | then fetch "https://h/users/{}"`. A rejection skips it.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("resolve 41 | then format \"{}!\"", "41!"),
        StageExample("reject no | then echo never | catch echo caught", "caught"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let inner = call.innerStage() else { throw VowError(.type, "then: missing STAGE (e.g. then format \"{}\")") }
        return call.chain { input, _ in try inner(input) }
    }
}

/// `catch [HANDLER…]`: recovers from a rejection.
struct CatchStage: StageDefinition {
    static let name = "catch"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "catch [HANDLER…]"
    static let summary = "Recovers from a rejection: HANDLER gets the error as $_ and its value continues the chain."
    static let help = """
        A rejection skips every stage until the first `catch`. HANDLER runs with the error as its
        input (and as $_): a record {kind, message, stage, status?, body?, …}. What HANDLER fulfils
        with continues the chain, fulfilled; if HANDLER rejects, that rejection passes on. With no
        HANDLER the chain continues with null. A fulfilled value passes through untouched.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("reject boom | then echo never | catch echo \"saved: {message}\"", "saved: boom"),
        StageExample("echo fine | catch echo never", "fine"),
        StageExample("reject boom | catch pick kind", "user"),
        StageExample("reject a | catch reject b", "error[user]: b", fails: true),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let inner = call.innerStage(context: ["in a catch handler"])
        guard let upstream = call.upstream else {
            throw VowError(.type, "catch: nothing to catch here (put it after a stage: … | catch …)")
        }
        return upstream.recover(name: "catch", attributes: call.traceInfo, on: call.executor, resolving: { error in
            var annotated = call.annotate(error)
            if annotated.skipped.isEmpty { annotated.skipped = call.skippedBefore(annotated) }
            let record = Value.record(annotated.record)
            guard let inner else { return .value(.null) }
            return try inner(record)
        })
    }
}

/// `finally HANDLER…`: runs on both paths.
struct FinallyStage: StageDefinition {
    static let name = "finally"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "finally HANDLER…"
    static let summary = "Runs HANDLER whether the chain fulfilled or rejected, then passes the outcome on."
    static let help = """
        Runs HANDLER on both paths (its input is the value, or the error record) and, once HANDLER
        has fulfilled, passes the original outcome on unchanged. If HANDLER rejects, its rejection
        passes on instead. A cancelled chain (Ctrl-C, timeout, cancel %N) skips it, as it skips
        every stage.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("echo 1 | finally print cleanup", "cleanup\n1"),
        StageExample("reject x | finally print cleanup | catch pick message", "cleanup\nx"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let inner = call.innerStage(context: ["in a finally handler"]) else {
            throw VowError(.type, "finally: missing HANDLER")
        }
        guard let upstream = call.upstream else { throw VowError(.type, "finally: put it after a stage: … | finally …") }
        let ex = call.executor
        return upstream.always(name: "finally", attributes: call.traceInfo, on: ex) { r -> Resolution<Value> in
            let input: Value
            switch r {
            case .success(let v): input = v
            case .failure(let e): input = .record(call.annotate(e).record)
            }
            // JavaScript's finally: Promise.resolve(handler()).then(() => outcome), adopted. A
            // handler that throws at once rejects here, with no adoption.
            let handled: Promise<Value>
            switch try inner(input) {
            case .value(let v): handled = Promise.resolve(v, on: ex)
            case .promise(let p): handled = p
            }
            return .promise(handled.then(on: ex, resolving: { _ -> Resolution<Value> in
                switch r {
                case .success(let v): return .value(v)
                case .failure(let e): throw e
                }
            }))
        }
    }
}

/// `tap [HANDLER…]`: looks at the value without changing it.
struct TapStage: StageDefinition {
    static let name = "tap"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
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
                let text = input.stringValue ?? ctx.session.renderValue(input)
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
