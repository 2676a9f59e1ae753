import VowPromises
import VowSyntax
import VowValue

/// `where EXPR`: the items of a list, or of a stream as they arrive, on which EXPR holds.
struct WhereStage: ValueStage, LooksAhead {
    static let name = "where"
    /// In the JavaScript twin (docs/javascript-twin.md): `Array.filter`, or an async generator
    /// over a stream.
    static let twin = StageTwin.handler("where")
    /// EXPR is read as written, never filled in as a template.
    static let expressionArguments = 1
    static let group = StageGroup.data
    /// One expression: a second word is a mistake (`where age > 30` unquoted), never dropped.
    static let positionalLimit: Int? = 1
    static let synopsis = "where EXPR"
    static let summary = "Keeps the items of a list, or of a stream as they arrive, on which the JMESPath expression EXPR holds."
    static let help = """
        EXPR is searched on each item, as `pick` searches; the item is kept when the result is
        truthy in JMESPath's sense (not false, null, "", [] or {}). On a list it fulfils with the
        items kept, in order. On a stream it fulfils at once with a stream of the items kept, as
        they arrive, so `where … | take 3` stops the source after the third match. An item on which
        EXPR fails rejects (a stream is stopped). A response is its JSON body, as for `pick`. Text that holds a JSON list (`read users.json`)
        is that list; an item that is JSON text (a line of NDJSON from `lines`) is searched as that
        JSON, and kept as it came. Other text is an error that says to add `| json` or `| lines`.
        """
    /// It looks at the stage after it (`LooksAhead`).
    static let looksAhead = true
    /// `where EXPR | len`: only the count of what it keeps is read (`StagePlan.countedAhead`),
    /// which `each json` before it reads (`EachStage.lookAhead`).
    static func lookAhead(_ plan: StagePlan, next: StagePlan) {
        if case .builtin(let nextDef, let arguments) = next.kind, nextDef == LenStage.self, arguments.isEmpty,
            next.flags.isEmpty, !next.isHandler
        {
            plan.countedAhead = true
        }
        // `where EXPR | pick AGG`: a fold (`ListFold`), which `each json` before it reads.
        if let text = PickAhead.folded(next) { plan.foldAhead = text }
    }
    /// A stream is filtered as it arrives.
    static func takesStream(_ positional: ArgumentList) -> Bool { true }
    /// A stream in gives a stream out, made as it arrives.
    static let passesStream = true
    static let examples = [
        StageExample("echo [{n: 1}, {n: 5}, {n: 3}] | where 'n > `2`' | pick '[*].n' | to-json", "[5,3]"),
        StageExample("run seq 1 1000000 --stream | where \"to_number(@) > `10`\" | take 2 | to-json", "[\"11\",\"12\"]"),
        StageExample("echo [a, '', b] | where '@' | to-json", "[\"a\",\"b\"]"),
        StageExample("echo 3 | where '@'", "error[type]: where: expected a list or a stream, got number", fails: true),
        StageExample("echo '[{\"age\": 31}, {\"age\": 20}]' | where 'age > `30`' | to-json", "[{\"age\":31}]"),
        StageExample("echo '{\"n\": 1}\n{\"n\": 5}' | lines | where 'n > `2`' | to-json", "[\"{\\\"n\\\": 5}\"]"),
    ]

    /// Whether EXPR holds for `item`: an item that is JSON text (a line of NDJSON) is searched
    /// as that JSON.
    static func holds(_ item: Value, _ expression: String) throws -> Bool {
        if case .string(let text) = item, let parsed = Pick.jsonText(text) { return try Pick.search(expression, in: parsed).isTruthy }
        return try Pick.search(expression, in: item).isTruthy
    }

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let expression = try args.string(0, "EXPR")
        @Sendable func holds(_ item: Value) throws -> Bool { try Self.holds(item, expression) }
        if case .list(let items) = input { return .value(.list(try items.filter(holds))) }
        // `each json | where EXPR | pick AGG`: `each` filtered and folded; the error EXPR gave on
        // a result that went the ordinary way is this stage's.
        if case .opaque(let picked as PickedAhead) = input, case .folded(_, _, let failed) = picked.content {
            if let failed { throw failed }
            return .value(input)
        }
        // `each json | where EXPR | len`: the records `each` kept by EXPR counted, the rest filtered here.
        if case .opaque(let counted as CountedResults) = input {
            return .value(.opaque(CountedResults(count: counted.count + (try counted.unfiltered.filter(holds)).count)))
        }
        // A response is its JSON body, as pick reads it (`fetch URL | where …`).
        if case .response = input {
            let body = try Pick.body(input)
            guard case .list(let items) = body else {
                throw call.error(.type, "expected a list or a stream, got a response whose body is \(body.typeName)")
            }
            return .value(.list(try items.filter(holds)))
        }
        if case .string(let text) = input {
            // Text that holds a JSON list (`read users.json`) is that list, as pick reads it.
            if case .list(let items)? = Pick.jsonText(text) { return .value(.list(try items.filter(holds))) }
            throw call.error(.type, "expected a list or a stream, got text (\(Pick.textStart(text))); `| json` reads JSON text, `| lines` splits text into lines")
        }
        guard let source = input.stream else {
            throw call.error(.type, "expected a list or a stream, got \(input.typeName)")
        }
        let ex = call.session.executor
        let kept = ValueStream(label: "items of \(source.label) where \(expression)", capacity: source.capacity)
        kept.onCancel { source.cancel() }
        source.forEach(on: ex) { item in
            let keep: Bool
            do { keep = try holds(item) } catch { return Promise.reject(error, on: ex) }
            guard keep else { return Promise.resolve((), on: ex) }
            // The next item is read once the consumer has room for this one.
            return kept.offer([item], on: ex, otherwise: source.cancel)
        }.whenSettled(on: ex) { end in
            if case .failure(let e) = end { kept.finish(e) } else { kept.finish() }
        }
        return .value(.opaque(kept))
    }
}

extension WhereStage: StageExplaining {
    /// On a stream, a stream at once.
    static func explanation(_ c: Explainer.Context) -> String? {
        guard c.reads == .takes else { return nil }
        return "when \(c.prev) fulfils with the stream, its handler returns at once a stream of the items on which \(c.kind.args) holds (in JavaScript an async generator over the first, `for await … if (…) yield`), so \(c.id) fulfils with a stream in the same turn; the items are filtered as they are consumed"
    }
}
