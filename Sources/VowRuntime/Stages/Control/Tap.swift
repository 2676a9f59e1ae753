import VowPromises
import VowValue
import VowSyntax

/// `tap [HANDLER…]`: looks at the value without changing it.
struct TapStage: StageDefinition {
    static let name = "tap"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let innerIsHandler = true
    static let passesStream = true
    static let group = StageGroup.control
    static let synopsis = "tap [HANDLER…]"
    static let summary = "Runs HANDLER on the value for its effect and passes the value on unchanged."
    static let help = """
        Runs HANDLER with the value (e.g. `tap print`, `tap write log.json`) and, once it fulfils,
        passes the original value on. With no HANDLER it prints the value. Skipped on rejection;
        if HANDLER rejects, that rejection passes on. On a stream, HANDLER runs on each item as it
        arrives, and the item passes on once HANDLER has fulfilled: the stream is still a stream
        after it, with every item (`read log --stream | lines | tap print | len`).
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("echo 3 | tap print \"saw {}\" | then format \"{}\"", "saw 3\n3"),
        StageExample("range 1 3 --stream | tap print \"saw {}\" | len", "saw 1\nsaw 2\nsaw 3\n3"),
    ]

    /// A stream passes through, item by item.
    static func takesStream(_ positional: ArgumentList) -> Bool { true }

    func apply(_ call: StageCall) throws -> Promise<Value> {
        let ex = call.executor
        return call.chain { input in
            if let stream = input.stream {
                return .value(.opaque(Self.tapping(stream, call: call, on: ex)))
            }
            guard !call.positional.isEmpty else {
                let text = call.session.printed(input)
                call.session.output.emit(text + "\n")
                return .value(input)
            }
            // A handler that finishes at once is JavaScript's `v => { S(v); return v }`; one that
            // waits is `v => S(v).then(() => v)`, adopted.
            switch try call.runInner(input) {
            case .value: return .value(input)
            case .promise(let p): return .promise(p.then(on: ex) { _ in input })
            }
        }
    }
}

extension TapStage {
    /// `stream` with the handler run on each item before the item passes on (with no handler,
    /// the item printed). A handler's rejection ends the stream with it; cancelling the result
    /// cancels `stream`.
    static func tapping(_ stream: ValueStream, call: StageCall, on ex: any PromiseExecutor) -> ValueStream {
        let out = ValueStream(label: "tap")
        out.onCancel { stream.cancel() }
        let handler = call.innerStagePromise()
        let session = call.session
        stream.forEach(on: ex) { item in
            let ran: Promise<Value>
            if let handler {
                ran = handler(item)
            } else {
                session.output.emit(session.printed(item) + "\n")
                ran = Promise.resolve(item, on: ex)
            }
            return ran.then(on: ex, resolving: { _ in
                .promise(out.offer([item], on: ex, otherwise: { stream.cancel() }).then(on: ex) { _ in () })
            })
        }.whenSettled(on: ex) { r in
            if case .failure(let e) = r { out.finish(e) } else { out.finish() }
        }
        return out
    }
}

extension TapStage: TwinWriting {
    static let twinReference: String? = "`.then((v) => { X(v); return v; })`, or `.then((v) => X(v).then(() => v))` when X returns a promise"

    /// `.then(vow.tap(X))`, or `vow.tapAsync` when X returns a promise; with no X, the value printed.
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String? {
        guard let h = twin.handler(plan, depth: depth) else {
            let v = "v\(depth + 1)"
            return "\(upstream)\n.then(vow.tap((\(v)) => vow.print(\(v), {}))\(twin.skip(origin)))"
        }
        return "\(upstream)\n.then(\(h.isPromise ? "vow.tapAsync" : "vow.tap")(\(h.code))\(twin.skip(origin)))"
    }
}

extension TapStage: StageExplaining {
    /// Runs for its effect and passes the value on.
    static func explanation(_ c: Explainer.Context) -> String? {
        "runs \(c.kind.args) on \(c.prev)'s value for its effect and passes the value on" + (c.kind.returnsPromise ? ", after the promise it returns fulfils (adopted)" : " in the same turn")
    }
}
