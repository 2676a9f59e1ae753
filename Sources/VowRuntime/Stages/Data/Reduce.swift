import JMESPath
import VowPromises
import VowSyntax
import VowValue

/// `reduce EXPR [INIT] [--as NAME]`: folds a list or a stream into one value.
struct ReduceStage: ValueStage {
    static let name = "reduce"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("reduce")
    /// The fold in JavaScript: EXPR searched on `{acc, item}` by the prelude's JMESPath; `--as
    /// NAME` keeps the running value in the global `$NAME`, which the twin reads as vow reads
    /// `$NAME`. A stream is folded as it arrives (a promise of the last value).
    static let twinFunction: String? = """
        (v, flags, expr, ...init) => {
            // EXPR as vow reads it: text, or a number or boolean as its text.
            if (typeof expr === "number" || typeof expr === "boolean") expr = JSON.stringify(expr);
            else if (typeof expr !== "string") throw vow.error("type", `reduce: EXPR must be text, got ${vow.typeName(expr)}`);
            const name = flags.as === undefined ? null : String(flags.as).replace(/^\\$/, "");
            let acc = init.length > 0 ? init[0] : undefined;
            const keep = () => { if (name !== null) globalThis["$" + name] = acc === undefined ? null : acc; };
            const step = (item) => { acc = acc === undefined ? item : vow.path({ acc, item }, expr); keep(); };
            const result = () => {
                if (acc === undefined) throw vow.error("type", "reduce: nothing to fold: the input is empty and no INIT is given");
                return acc;
            };
            keep();
            if (vow.isStream(v)) return (async () => { for await (const item of v) step(item); return result(); })();
            const items = Array.isArray(v) ? v : null;
            if (items === null) throw vow.error("type", `reduce: expected a list or a stream, got ${vow.typeName(v)}`);
            items.forEach(step);
            return result();
        }
        """
    static let group = StageGroup.data
    static let expressionArguments = 1
    static let positionalLimit: Int? = 2
    static let synopsis = "reduce EXPR [INIT] [--as NAME]"
    static let summary = "Folds a list or a stream into one value: EXPR on {acc, item} for each item, from INIT."
    static let help = """
        Folds the input, as JavaScript's `reduce(fn, init)` does: for each item, EXPR (JMESPath)
        is evaluated on `{acc, item}`, the running value and the item, and its value is the next
        running value; `reduce` fulfils with the last. INIT is the first running value; without
        it the first item is, and an empty input without INIT is an error. A stream is folded as
        its items arrive, none kept. With --as NAME, `$NAME` holds the running value as it goes
        (INIT before the first item), so that a `defer` can say how far a run got when Ctrl-C
        stops it: `defer (print "posted $n")` and `… | each post … | reduce 'acc + `1`' 0 --as n`.
        """
    /// `--as NAME`.
    static let asName = Flag.text("as", value: "NAME", help: "keep the running value in $NAME as it goes")
    static let flags = [asName.spec]
    static let examples = [
        StageExample("echo [1, 2, 3] | reduce 'acc + item' 0", "6"),
        StageExample("echo [{n: 2}, {n: 5}] | reduce 'max([acc, item.n])' 0", "5"),
        StageExample("echo [{a: 1}, {b: 2}] | reduce 'merge(acc, item)' | to-json", "{\"a\":1,\"b\":2}"),
        StageExample("range 1 4 --stream | reduce 'acc * item' 1 --as product", "24"),
        StageExample("echo [] | reduce 'acc + item'", "error[type]: reduce: nothing to fold: the input is empty and no INIT is given", fails: true),
        StageExample("echo [1, 2] | reduce (pick acc) 0", "error[type]: reduce: EXPR must be text, got null", fails: true),
    ]

    static func takesStream(_ positional: ArgumentList) -> Bool { true }

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let text = try args.string(0, "EXPR")
        let expression: JMESPathExpression
        do { expression = try JMESPathExpression.cached(text) } catch { throw call.error(.syntax, "\(error.message) in '\(text)'", argument: 0) }
        let name = try args.value(Self.asName).map { n -> String in
            let bare = n.hasPrefix("$") ? String(n.dropFirst()) : n
            guard Self.isName(bare) else { throw call.error(.type, "--as must be a variable name (letters, digits, _), got '\(n)'", flag: "as") }
            return bare
        }
        let fold = Fold(expression: expression, text: text, initial: args.count > 1 ? args[1] : nil, name: name, session: call.session)
        if let stream = input.stream {
            let ex = call.session.executor
            // One settled promise says "done at once" for every item.
            let done = Promise<Void>.resolve((), on: ex)
            return .promise(stream.forEach(on: ex) { item in
                do {
                    try fold.step(item, stage: call.name)
                    return done
                } catch {
                    return Promise.reject(error, on: ex)
                }
            }.then(on: ex) { _ in try fold.result(stage: call.name) })
        }
        guard case .list(let items) = Pick.target(input) else { throw call.error(.type, "expected a list or a stream, got \(input.typeName)") }
        for item in items { try fold.step(item, stage: call.name) }
        return .value(try fold.result(stage: call.name))
    }

    /// A variable name vow can read back as `$NAME`.
    static func isName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

/// The running value of one `reduce`.
///
/// Sendable: `acc` is touched only on the session executor, where each step runs (a list's in
/// the stage's handler, a stream's items in `forEach`'s jobs).
private final class Fold: @unchecked Sendable {
    let expression: JMESPathExpression
    let text: String
    let name: String?
    let session: Session
    private var acc: Value?

    init(expression: JMESPathExpression, text: String, initial: Value?, name: String?, session: Session) {
        self.expression = expression
        self.text = text
        self.name = name
        self.session = session
        self.acc = initial
        if let name { session.setValue(name, initial ?? .null) }
    }

    /// Folds one item in.
    func step(_ item: Value, stage: String) throws {
        guard let running = acc else {
            acc = item
            if let name { session.setValue(name, item) }
            return
        }
        do {
            acc = try expression.search(Value.record(["acc": running, "item": item]))
        } catch {
            throw VowError(.pick, "\(stage): \(error.message) in '\(text)'")
        }
        if let name { session.setValue(name, acc!) }
    }

    /// The last running value.
    func result(stage: String) throws -> Value {
        guard let acc else { throw VowError(.type, "\(stage): nothing to fold: the input is empty and no INIT is given") }
        return acc
    }
}
