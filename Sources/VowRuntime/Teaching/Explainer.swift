import VowSyntax
import VowValue

/// `:explain PIPELINE`: the promise chain a pipeline becomes, without running it.
///
/// One line per promise (`p2 = p1.then(json)`), what each promise waits for, where a returned
/// promise is adopted, and, for each stage, where its rejection would go and what it would skip.
public enum Explainer {
    /// Stages whose promise settles later (a request, a timer, a process): returned from a
    /// handler, they are adopted.
    static let asynchronous: Set<String> = [
        "fetch", "get", "post", "put", "patch", "delete", "head", "delay", "sim", "run", "await",
        "all", "race", "any", "settle", "each", "iterate", "retry", "timeout",
    ]
    static let combinators: Set<String> = ["all", "race", "any", "settle"]
    static let handlers: Set<String> = ["catch", "finally", "tap"]

    /// The explanation of `pipeline`, whose text is in `source`.
    public static func explain(_ pipeline: Pipeline, source: SourceText) -> String {
        var lines: [(code: String, note: String)] = []
        var names: [String] = []
        let stages = pipeline.stages
        for (i, stage) in stages.enumerated() {
            let id = "p\(i + 1)", prev = "p\(i)"
            let text = source.slice(stage.span)
            let name: String
            var argsText = ""
            switch stage.head {
            case .named(let n, let span):
                name = n
                argsText = source.slice(SourceSpan(start: span.end, end: stage.span.end)).trimmingCharacters(in: .whitespaces)
            case .value:
                name = "(value)"
            }
            names.append(name)
            let (code, note) = describe(
                name: name, text: text, args: argsText, stage: stage, id: id, prev: prev, index: i, stages: stages, source: source)
            lines.append((code, note))
        }
        let width = min(44, (lines.map { $0.code.count }.max() ?? 0) + 2)
        var out = "The chain (\(stages.count) promise\(stages.count == 1 ? "" : "s")):\n"
        for l in lines {
            let code = l.code.count < width ? l.code.padding(toLength: width, withPad: " ", startingAt: 0) : l.code + "  "
            out += "  \(code)\(l.note)\n"
        }
        // Where each rejection goes.
        out += "\nIf a stage rejects:\n"
        for (i, name) in names.enumerated() where !handlers.contains(name) || name == "tap" {
            var skipped: [String] = []
            var handledBy: Int?
            for j in (i + 1)..<max(i + 1, stages.count) {
                let n = names[j]
                if n == "catch" {
                    handledBy = j
                    break
                }
                if n == "finally" { continue }
                if n == "retry" || n == "timeout" {
                    handledBy = j
                    break
                }
                skipped.append(source.slice(stages[j].span))
            }
            var line = "  p\(i + 1) \(name) rejects → "
            if !skipped.isEmpty { line += "skips \(skipped.joined(separator: ", ")) → " }
            if let k = handledBy {
                switch names[k] {
                case "catch": line += "p\(k + 1) catch handles it; the chain continues fulfilled with what it returns"
                case "retry": line += "p\(k + 1) retry runs p1…p\(k) again (while attempts remain)"
                default: line += "p\(k + 1) timeout passes the rejection on"
                }
            } else {
                line += "the statement rejects: vow prints the error with this stage underlined"
            }
            out += line + "\n"
        }
        let finallies = names.enumerated().filter { $0.element == "finally" }.map { "p\($0.offset + 1)" }
        if !finallies.isEmpty {
            out += "  (finally at \(finallies.joined(separator: ", ")) runs on both paths and passes the outcome on)\n"
        }
        // Secrets typed in the pipeline (--bearer, --auth, Authorization/Cookie headers) are masked.
        return VowError.redactingSecrets(out.hasSuffix("\n") ? String(out.dropLast()) : out)
    }

    static func describe(
        name: String, text: String, args: String, stage: Stage, id: String, prev: String, index: Int, stages: [Stage],
        source: SourceText
    ) -> (String, String) {
        let first = index == 0
        func elements() -> [String] {
            guard let a = stage.arguments.first else { return [] }
            switch a.kind {
            case .list(let items): return items.map { source.slice($0.span) }
            case .record(let fields): return fields.map { "\($0.key): " + source.slice($0.value.span) }
            default: return [source.slice(a.span)]
            }
        }
        if combinators.contains(name) {
            let els = elements()
            let inner = els.enumerated().map { "\(id).\($0.offset + 1)" }
            let call = "Promise.\(name == "settle" ? "allSettled" : name)([\(inner.joined(separator: ", "))])"
            let code = first ? "\(id) = \(call)" : "\(id) = \(prev).then(() => \(call))"
            let parts = els.enumerated().map { "\(id).\($0.offset + 1) = \($0.element)" }.joined(separator: "; ")
            let keyed = stage.arguments.first.map { if case .record = $0.kind { return true } else { return false } } ?? false
            var note: String
            switch name {
            case "all":
                note = "starts \(els.count) promises at once (\(parts)); fulfils with all their values\(keyed ? " as a record with the same keys" : " in order"); the first rejection rejects \(id) at once and cancels the others (fail-fast)"
            case "race":
                note = "starts \(els.count) promises (\(parts)); settles like the first of them to settle, fulfilled or rejected, and cancels the rest"
            case "any":
                note = "starts \(els.count) promises (\(parts)); fulfils with the first to fulfil and cancels the rest; rejects with an aggregate error only when all of them reject"
            default:
                note = "starts \(els.count) promises (\(parts)); waits for all of them and never rejects: one {status, value|reason} each"
            }
            if !first { note = "when \(prev) fulfils, " + note + "; \(id) adopts that promise" }
            return (code, note)
        }
        switch name {
        case "catch":
            return ("\(id) = \(prev).catch(\(args))", args.isEmpty
                ? "handles a rejection of an earlier promise and fulfils with the error as a record"
                : "runs \(args) only when an earlier promise rejects (its input is the error as a record); what it returns recovers the chain; skipped when \(prev) fulfils")
        case "finally":
            return ("\(id) = \(prev).finally(\(args))", "runs \(args) whether \(prev) fulfils or rejects, then passes \(prev)'s outcome on (unless \(args) fails)")
        case "tap":
            return ("\(id) = \(prev).then(tap \(args))", "runs \(args) on \(prev)'s value for its effect and passes the value on unchanged")
        case "timeout":
            return ("\(id) = timeout(\(prev), \(args))", "races \(prev) against a \(args) timer; on expiry rejects with kind timeout and cancels \(prev) back to its source (its requests are aborted)")
        case "retry":
            return ("\(id) = retry(\(args), () => p1…\(prev))", "when \(prev) rejects, runs the stages before it again, up to \(args.split(separator: " ").first.map(String.init) ?? "N") more times; rejects with the last error")
        case "each":
            return ("\(id) = \(prev).then(list => Promise.all(list.map(\(args))))", "runs \(args) on every element of \(prev)'s list, a limited number at a time; fulfils with the results in order; the first rejection rejects \(id) and cancels the rest")
        default:
            break
        }
        if first {
            if case .value = stage.head {
                return ("\(id) = Promise.resolve(\(text))", "already fulfilled with the value")
            }
            if asynchronous.contains(name) {
                return ("\(id) = \(name)(\(args))", "starts at once; \(settlesNote(name))")
            }
            return ("\(id) = Promise.resolve(\(text))", "\(name) computes its value at once; \(id) is fulfilled with it")
        }
        // A then-stage: `then X` and `| X` are the same.
        var inner = name, innerArgs = args
        if name == "then", let firstWord = args.split(separator: " ").first {
            inner = String(firstWord)
            innerArgs = String(args.dropFirst(firstWord.count)).trimmingCharacters(in: .whitespaces)
        }
        let shown = innerArgs.isEmpty ? inner : "\(inner) \(innerArgs)"
        if asynchronous.contains(inner) {
            return ("\(id) = \(prev).then(\(shown))",
                "when \(prev) fulfils, its handler returns a promise (\(settlesNote(inner))); \(id) adopts it: it waits for that promise and takes its outcome (flattening, two extra turns)")
        }
        return ("\(id) = \(prev).then(\(shown))", "when \(prev) fulfils, runs \(inner) on its value; the handler returns a plain value, so \(id) fulfils with it")
    }

    static func settlesNote(_ name: String) -> String {
        switch name {
        case "fetch", "get", "post", "put", "patch", "delete", "head":
            return "settles when the response has arrived; rejects on a network error, a 4xx/5xx status or a timeout"
        case "delay": return "fulfils when the timer fires"
        case "sim": return "settles after its simulated delay, fulfilled or (with --fail) rejected"
        case "run": return "settles when the process exits; rejects on a non-zero status"
        case "await": return "settles when the job does"
        default: return "settles later"
        }
    }
}
